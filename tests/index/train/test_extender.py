"""Training the extender (index/train/extender.py): its rows and its threshold, on synthetic examples."""

from __future__ import annotations

import math

import numpy as np

from index.answer.features import CANDIDATE_FEATURES, EXTEND_FEATURES
from index.train.examples import Example
from index.train.extender import EXTEND_PRECISION, extender_rows, fit_extender
from index.train.trees import lowest_threshold

_PASSAGE = CANDIDATE_FEATURES.index("passage_rank")


def example(name: str, labels: list[bool], passages: list[int], kind: str = "in") -> Example:
    m = np.zeros((len(labels), len(CANDIDATE_FEATURES)), dtype=np.float32)
    m[:, _PASSAGE] = passages
    return Example(name, name, "xquad", "en", kind, m, np.array(labels), np.zeros(4))


def test_rows_are_the_best_ones_neighbours_labelled_by_the_gold() -> None:
    examples = [
        example("a", [False, False, True, False], [0, 0, 0, 1]),
        example("b", [False, True], [0, 0], kind="near"),  # not answerable: no rows
    ]
    probabilities = [np.array([0.1, 0.9, 0.3, 0.2]), np.array([0.5, 0.4])]
    x, holds, weights, folds = extender_rows(examples, probabilities)
    assert x.shape == (2, len(EXTEND_FEATURES))  # -1 and +1; +2 is the next passage's
    assert holds.tolist() == [False, True]
    assert weights[0] == weights[1] > 0 and folds[0] == folds[1]


def test_the_threshold_keeps_the_precision() -> None:
    chance = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05, 0.04, 0.03, 0.02, 0.01])
    holds = np.zeros(14, bool)
    holds[[0, 3]] = True
    weights = np.ones(14)
    threshold = lowest_threshold(chance, holds, weights, EXTEND_PRECISION)
    assert holds[chance >= threshold].mean() >= EXTEND_PRECISION
    assert lowest_threshold(chance, holds, weights, 0.20) == 0.05  # 2 of 10 hold the answer: a fifth
    assert lowest_threshold(chance, holds, weights, 0.15) == 0.02  # 2 of 13 do; 2 of 14 would not
    assert lowest_threshold(chance, np.zeros(14, bool), weights, EXTEND_PRECISION) == math.inf


def test_nothing_to_learn_from_gives_no_extender() -> None:
    examples = [example("a", [True, False], [0, 0])]
    trees, threshold, other = fit_extender(examples, [np.array([0.9, 0.1])])
    assert trees is None and threshold == math.inf and other is None
