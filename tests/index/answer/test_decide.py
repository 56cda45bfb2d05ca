"""The gate's features (index/answer/decide.py), on the synthetic index."""

from __future__ import annotations

import numpy as np

from index.answer.candidates import candidates
from index.answer.decide import EVIDENCE, GATE_FEATURES, gate_vector, retrieval_evidence
from index.answer.features import candidate_matrix, question_terms
from index.build.store import StoredIndex
from index.retrieve.retriever import Retriever
from index.text.tokens import tokenize
from tests.index.synthetic import hashed_vector

COLUMN = {name: i for i, name in enumerate(GATE_FEATURES)}


def features(stored: StoredIndex, retriever: Retriever, question: str, language: str = "zh") -> np.ndarray:
    vector = hashed_vector(question)
    outcome = retriever.search(vector, tokenize(question), 5, "hybrid", language)
    found = candidates(stored, outcome)
    terms = question_terms(retriever, question, tokenize(question), language)
    matrix = candidate_matrix(stored, outcome, found, terms, question, language)
    probabilities = np.linspace(0.9, 0.1, len(found))
    passages = [stored.chunks[h.chunk].text for h in outcome.hits]
    evidence = retrieval_evidence(outcome, terms, stored.background, vector, language, question, passages)
    assert evidence.shape == (len(EVIDENCE),)
    return gate_vector(probabilities, matrix, evidence)


def test_gate_vector(stored: StoredIndex, retriever: Retriever) -> None:
    row = features(stored, retriever, "夜班火车全程多少小时？")
    assert row.shape == (len(GATE_FEATURES),) and np.isfinite(row).all()
    assert row[COLUMN["best_probability"]] == np.float32(0.9)
    assert row[COLUMN["probability_gap"]] > 0 and row[COLUMN["english"]] == 0
    assert row[COLUMN["absent_share"]] == 0


def test_words_the_corpus_lacks_raise_the_absent_share(stored: StoredIndex, retriever: Retriever) -> None:
    row = features(stored, retriever, "比特币的区块链价格？")
    assert row[COLUMN["absent_share"]] > 0.5


def test_a_name_no_passage_writes_is_counted(stored: StoredIndex, retriever: Retriever) -> None:
    row = features(stored, retriever, "夜班火车和 Bitcoin 有什么关系？")
    assert row[COLUMN["names"]] == 1 and row[COLUMN["absent_names"]] == 1
    known = features(stored, retriever, "夜班火车全程多少小时？")
    assert known[COLUMN["names"]] == 0 and known[COLUMN["absent_names"]] == 0


def test_nothing_retrieved(stored: StoredIndex, retriever: Retriever) -> None:
    from index.answer.features import Terms
    from index.retrieve.retriever import SearchOutcome

    empty = SearchOutcome([], {}, [], [])
    terms = Terms((), (), (), 0, frozenset(), frozenset())
    evidence = retrieval_evidence(empty, terms, stored.background, hashed_vector("x"), "en")
    row = gate_vector(np.zeros(0), np.zeros((0, 0)), evidence)
    assert row[COLUMN["best_probability"]] == 0 and row[COLUMN["english"]] == 1


def test_how_much_of_the_question_the_retrieved_passages_hold(stored: StoredIndex, retriever: Retriever) -> None:
    held = features(stored, retriever, "夜班火车全程多少小时？")
    assert held[COLUMN["retrieved_share"]] == 1 and held[COLUMN["top_passage_share"]] > 0
    assert (
        0 < held[COLUMN["retrieved_bigrams"]] <= 1
        and held[COLUMN["top_passage_bigrams"]] <= held[COLUMN["retrieved_bigrams"]]
    )
    # a word the corpus has (苹果) but no retrieved passage does lowers the share
    terms = question_terms(retriever, "夜班火车和苹果", tokenize("夜班火车和苹果"), "zh")
    outcome = retriever.search(hashed_vector("夜班火车"), tokenize("夜班火车"), 5, "hybrid", "zh")
    train = [stored.chunks[h.chunk].text for h in outcome.hits if "夜班火车" in stored.chunks[h.chunk].text]
    assert train and not any("苹果" in t for t in train)
    row = retrieval_evidence(outcome, terms, stored.background, hashed_vector("x"), "zh", "", train[:1])
    evidence = dict(zip(EVIDENCE, row, strict=True))
    assert 0 < evidence["retrieved_share"] < 1 and evidence["top_passage_share"] == evidence["retrieved_share"]
    assert 0 < evidence["retrieved_bigrams"] < 1
