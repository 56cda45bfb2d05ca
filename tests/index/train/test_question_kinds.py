"""Fitting the question-kind model (index/train/question_kinds.py) on synthetic questions."""

from __future__ import annotations

import numpy as np

from index.answer.question_kind import KINDS
from index.train.question_kinds import fit, vocabulary


def test_softmax_regression_learns_separable_kinds() -> None:
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(len(KINDS)), 40)
    centres = np.eye(len(KINDS)) * 3
    rows = centres[labels] + rng.normal(scale=0.5, size=(len(labels), len(KINDS)))
    w, b = fit(rows, labels, penalty=1e-3)
    assert w.shape == (len(KINDS), len(KINDS)) and b.shape == (len(KINDS),)
    assert ((rows @ w + b).argmax(axis=1) == labels).mean() > 0.95


def test_a_rare_kind_weighs_as_much_as_a_common_one() -> None:
    rows = np.array([[1.0, 0.0]] * 95 + [[0.0, 1.0]] * 5)
    labels = np.array([0] * 95 + [5] * 5)
    w, b = fit(rows, labels, penalty=1e-3)
    assert ((rows @ w + b).argmax(axis=1) == labels).all()


def test_the_vocabulary_keeps_grams_seen_twice() -> None:
    words = vocabulary(["有哪些基准", "哪些阶段", "为什么"])
    assert "哪些" in words and "为什么" not in words
