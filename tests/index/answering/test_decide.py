"""The gate's features (index/answering/decide.py), on the synthetic index."""

from __future__ import annotations

import numpy as np

from index.answering.candidates import candidates
from index.answering.decide import EVIDENCE, GATE_FEATURES, gate_vector, retrieval_evidence, shares_no_word
from index.answering.features import Terms, candidate_matrix, question_terms
from index.retrieval import Retriever
from index.store import StoredIndex
from index.tokenizer import tokenize
from tests.index.answering.support import hashed_vector

COLUMN = {name: i for i, name in enumerate(GATE_FEATURES)}


def features(stored: StoredIndex, retriever: Retriever, question: str, language: str = "zh") -> np.ndarray:
    vector = hashed_vector(question)
    outcome = retriever.search(vector, tokenize(question), 5, "hybrid", language)
    found = candidates(stored, outcome)
    terms = question_terms(retriever, question, tokenize(question), language)
    matrix = candidate_matrix(stored, outcome, found, terms, question, language)
    probabilities = np.linspace(0.9, 0.1, len(found))
    evidence = retrieval_evidence(outcome, terms, stored.background, vector, language, question)
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
    from index.answering.features import Terms
    from index.retrieval import SearchOutcome

    empty = SearchOutcome([], {}, [], [])
    terms = Terms((), (), (), 0, frozenset(), frozenset())
    evidence = retrieval_evidence(empty, terms, stored.background, hashed_vector("x"), "en")
    row = gate_vector(np.zeros(0), np.zeros((0, 0)), evidence)
    assert row[COLUMN["best_probability"]] == 0 and row[COLUMN["english"]] == 1


def test_a_question_sharing_no_word_with_the_corpus_is_declined_before_the_gate() -> None:
    found = (frozenset(["价格"]),)
    assert shares_no_word(Terms((), (), ("比特",), 1, frozenset(), frozenset()))
    assert not shares_no_word(Terms(found, (1.0,), ("比特",), 2, frozenset(), frozenset()))  # one word is there
    assert not shares_no_word(Terms((), (), (), 0, frozenset(), frozenset()))  # no words at all: "who is he?"
