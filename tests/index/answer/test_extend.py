"""The extend step (index/answer/extend.py): the best sentence's neighbours in its passage, and which
of them join its answer unit."""

from __future__ import annotations

import numpy as np

from index.answer.compose import choose
from index.answer.extend import extension, kept, neighbours
from index.answer.features import CANDIDATE_FEATURES, EXTEND_FEATURES, QUESTION_KINDS, Candidate
from index.answer.model import Trees
from index.build.store import StoredIndex
from tests.index.synthetic import sentence_id


def constant(p: float) -> Trees:
    """Trees of one leaf: every row gets probability ``p``."""
    margin = float(np.log(p / (1 - p)))
    one = np.array([[0]])
    return Trees(EXTEND_FEATURES, margin, 1.0, one - 1, np.zeros((1, 1)), one - 3, one - 3, np.zeros((1, 1)))


def matrix(n: int) -> np.ndarray:
    return np.arange(n * len(CANDIDATE_FEATURES), dtype=np.float32).reshape(n, -1)


def test_neighbours_stay_in_the_best_ones_passage() -> None:
    passages = [0, 0, 0, 0, 1, 1]
    probabilities = np.array([0.1, 0.9, 0.2, 0.3, 0.8, 0.1])
    best, found, rows = neighbours(passages, matrix(6), probabilities)
    assert best == 1
    assert found == [(0, -1), (2, 1), (3, 2)]  # none two before: the passage starts one before
    assert rows.shape == (3, len(EXTEND_FEATURES))
    assert rows[0, 0] == -1 and rows[0, 1] == np.float32(0.9) and rows[0, 2] == np.float32(0.1)
    assert rows[2, 4] == 2  # the candidate two after is ranked third
    last = neighbours([0, 0, 1], matrix(3), np.array([0.2, 0.9, 0.5]))
    assert last[1] == [(0, -1)]  # the next candidate is another passage's


def test_a_neighbour_opening_with_a_pronoun_says_so() -> None:
    column = EXTEND_FEATURES.index("neighbour_refers_back")
    probabilities = np.array([0.1, 0.9, 0.2])
    _, found, rows = neighbours([0, 0, 0], matrix(3), probabilities, (False, False, True))
    assert found == [(0, -1), (2, 1)] and rows[:, column].tolist() == [0.0, 1.0]
    assert not neighbours([0, 0, 0], matrix(3), probabilities)[2][:, column].any()  # not told: none does


def test_every_neighbour_carries_the_question_s_kind() -> None:
    """A reason asked wants the sentence after the claim; a fact seldom does: the extender reads the
    learned kind shares of the question beside each neighbour."""
    columns = [EXTEND_FEATURES.index(f"asks_{kind}_learned") for kind in QUESTION_KINDS]
    shares = np.array([0.1, 0.7, 0.1, 0.05, 0.05, 0.0], dtype=np.float32)
    _, found, rows = neighbours([0, 0, 0], matrix(3), np.array([0.1, 0.9, 0.2]), kinds=shares)
    assert len(found) == 2 and np.array_equal(rows[:, columns], np.stack([shares, shares]))
    assert not neighbours([0, 0, 0], matrix(3), np.array([0.1, 0.9, 0.2]))[2][:, columns].any()  # no model: zeros


def test_the_one_two_away_joins_only_with_the_one_between() -> None:
    found = [(0, -1), (2, 1), (3, 2)]
    assert kept(found, np.array([0.5, 0.1, 0.9]), 0.3) == [0]
    assert kept(found, np.array([0.1, 0.4, 0.9]), 0.3) == [2, 3]
    assert kept(found, np.array([0.1, 0.1, 0.1]), 0.3) == []
    before = [(0, -2), (1, -1), (3, 1)]  # a claim, "这意味着什么？", the best sentence, the next
    assert kept(before, np.array([0.9, 0.1, 0.1]), 0.3) == []
    assert kept(before, np.array([0.9, 0.4, 0.1]), 0.3) == [0, 1]


def test_the_one_two_before_is_a_neighbour_when_the_one_between_is_in_the_passage() -> None:
    best, found, _ = neighbours([0, 0, 0, 0, 0], matrix(5), np.array([0.1, 0.2, 0.9, 0.3, 0.1]))
    assert best == 2 and found == [(0, -2), (1, -1), (3, 1), (4, 2)]
    assert neighbours([1, 0, 0], matrix(3), np.array([0.1, 0.2, 0.9]))[1] == [(1, -1)]  # -2 is another passage's


def test_extension_names_sentences_and_needs_a_model() -> None:
    candidates = [Candidate(10, 0), Candidate(11, 0), Candidate(12, 0), Candidate(40, 1)]
    probabilities = np.array([0.2, 0.9, 0.1, 0.5])
    assert extension(candidates, matrix(4), probabilities, constant(0.6), 0.5) == [10, 12]
    assert extension(candidates, matrix(4), probabilities, constant(0.4), 0.5) == []
    assert extension(candidates, matrix(4), probabilities, None, 0.5) == []


def test_the_unit_takes_in_its_neighbours_in_document_order(stored: StoredIndex) -> None:
    best = sentence_id(stored, "车票价格是")
    assert choose(stored, [(best, 0.9)], second_ratio=2.0, neighbours=[best + 1, best - 1]) == [
        best - 1,
        best,
        best + 1,
    ]
    assert choose(stored, [(best, 0.9)], second_ratio=2.0) == [best]
