"""The answer model's steps over an examined question (index/answer/steps.py), with the packaged model
on synthetic candidates."""

from __future__ import annotations

import dataclasses
import math
from typing import cast

import numpy as np

from index.answer.decide import EVIDENCE
from index.answer.features import CANDIDATE_FEATURES, QUESTION_KINDS, Candidate, Terms
from index.answer.model import load_model
from index.answer.steps import Examined, asks_for_fact, asks_for_list, decide, extend, rank
from index.answer.understand import understand
from index.retrieve.retriever import SearchOutcome

MODEL = load_model()


def examined(rows: int = 5, item: int | None = None, kind: str = "fact", seed: int = 0) -> Examined:
    matrix = np.random.default_rng(seed).normal(size=(rows, len(CANDIDATE_FEATURES))).astype(np.float32)
    kinds = np.eye(len(QUESTION_KINDS), dtype=np.float32)[QUESTION_KINDS.index(kind)]
    return Examined(
        query=understand("Composer 2.5 多少钱？"),
        outcome=cast(SearchOutcome, None),  # the steps read the candidates' features, not the search
        candidates=[Candidate(sentence=10 + i, passage_rank=i // 3) for i in range(rows)],
        matrix=matrix,
        terms=Terms((), (), (), 0, frozenset(), frozenset()),
        evidence=np.zeros(len(EVIDENCE), dtype=np.float32),
        item=item,
        pointed=item is not None,
        seconds=(0.0, 0.0),
        vector=np.zeros(384, dtype=np.float32),
        kinds=kinds,
    )


def test_candidates_are_ranked_by_the_scorer_and_a_pointed_item_leads() -> None:
    question = examined()
    ranked = rank(MODEL, question)
    expected = MODEL.scorer.probability(question.matrix)
    assert [p for _, p in ranked] == sorted(expected.tolist(), reverse=True)
    pointed = rank(MODEL, examined(item=14))
    assert pointed[0] == (14, ranked[0][1]) and 14 not in [s for s, _ in pointed[1:]]


def test_a_pointed_item_is_the_whole_unit_and_neighbours_come_from_the_best_ones_passage() -> None:
    assert extend(MODEL, examined(item=12), rank(MODEL, examined())) == []
    joined = 0
    for seed in range(20):
        question = examined(seed=seed)
        ranked = rank(MODEL, question)
        passage = {c.sentence: c.passage_rank for c in question.candidates}
        best = ranked[0][0]
        unit = extend(MODEL, question, ranked)
        assert all(abs(s - best) <= 2 and passage[s] == passage[best] for s in unit)
        joined += bool(unit)
    assert joined  # random features do make neighbours join


def test_a_question_of_another_kind_than_a_fact_meets_its_own_extend_threshold() -> None:
    never_for_facts = dataclasses.replace(MODEL, extend_threshold=math.inf, extend_threshold_other=0.0)
    for seed in range(5):
        fact, reason = examined(seed=seed, kind="fact"), examined(seed=seed, kind="reason")
        assert extend(never_for_facts, fact, rank(never_for_facts, fact)) == []
        assert extend(never_for_facts, reason, rank(never_for_facts, reason))  # every neighbour joins at 0
    assert asks_for_fact(None) and asks_for_fact(np.zeros(len(QUESTION_KINDS)))
    same = dataclasses.replace(MODEL, extend_threshold_other=None)
    assert same.extend_threshold_for(False) == same.extend_threshold_for(True) == MODEL.extend_threshold


def test_only_a_list_question_asks_for_the_whole_list() -> None:
    assert asks_for_list(examined(kind="list"))
    assert not any(asks_for_list(examined(kind=k)) for k in QUESTION_KINDS if k != "list")
    assert not asks_for_list(Examined(**{**examined().__dict__, "kinds": None}))


def test_the_decision_reads_the_ranked_candidates_rows() -> None:
    question = examined()
    ranked = rank(MODEL, question)
    assert decide(MODEL, question, ranked) == decide(MODEL, question, ranked)
    assert 0.0 <= decide(MODEL, question, ranked).confidence <= 1.0
