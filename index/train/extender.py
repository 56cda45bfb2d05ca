"""The extend step's model (index/answer/extend.py): whether a neighbour of the best sentence holds
the answer too, learned on every answerable training question with the scorer's out-of-fold
probabilities (as a new question would see them); its threshold chosen out of fold.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from index.answer.extend import neighbours
from index.answer.features import CANDIDATE_FEATURES, EXTEND_FEATURES, QUESTION_KINDS
from index.answer.model import Trees
from index.answer.steps import asks_for_fact
from index.train.examples import Example
from index.train.trees import FOLDS, GATE_SEEDS, GATE_TREES, bagged, fold_of, lowest_threshold, question_weights

# a neighbour joins where at least this share of the neighbours joining hold the answer (weighted): a
# sentence too many costs a reader a line, one too few costs the answer
EXTEND_PRECISION = 0.15
_PASSAGE = CANDIDATE_FEATURES.index("passage_rank")
_KINDS = [EXTEND_FEATURES.index(f"asks_{kind}_learned") for kind in QUESTION_KINDS]


def extender_rows(
    examples: Sequence[Example], probabilities: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One row per neighbour of each answerable question's best candidate: features, whether it holds
    a gold answer, its question's weight, its fold."""
    usable = [(e, p) for e, p in zip(examples, probabilities, strict=True) if e.kind == "in" and e.labels.any()]
    weights = question_weights([e for e, _ in usable], lambda e: (e.language,))
    x, y, w, folds = [], [], [], []
    for (example, p), weight in zip(usable, weights, strict=True):
        kinds = np.array(example.kinds, dtype=np.float32) if example.kinds else None
        _, found, rows = neighbours(example.matrix[:, _PASSAGE].tolist(), example.matrix, p, example.refers, kinds)
        x.append(rows)
        y += [bool(example.labels[other]) for other, _ in found]
        w += [weight] * len(found)
        folds += [fold_of(example.group)] * len(found)
    matrix = np.concatenate(x) if x else np.zeros((0, len(EXTEND_FEATURES)), dtype=np.float32)
    return matrix, np.array(y, dtype=bool), np.array(w), np.array(folds)


def fit_extender(
    examples: Sequence[Example], probabilities: Sequence[np.ndarray]
) -> tuple[Trees | None, float, float | None]:
    """The extender trained on all examples, and its thresholds chosen on out-of-fold probabilities:
    one among the questions the kind model takes for facts, one among the others (a reason or a
    meaning wants its explanation more often than a fact its neighbour; None when there are none)."""
    x, holds, weights, folds = extender_rows(examples, probabilities)
    if not holds.any() or holds.all():
        return None, math.inf, None
    chance = np.zeros(len(holds))
    for fold in range(FOLDS):
        inside = folds != fold
        trees = bagged(GATE_SEEDS, EXTEND_FEATURES, x[inside], holds[inside], weights[inside], GATE_TREES)
        chance[~inside] = trees.probability(x[~inside])
    fact = np.array([asks_for_fact(row) for row in x[:, _KINDS]], dtype=bool)
    threshold = lowest_threshold(chance[fact], holds[fact], weights[fact], EXTEND_PRECISION)
    other = ~fact
    other_threshold = (
        lowest_threshold(chance[other], holds[other], weights[other], EXTEND_PRECISION) if other.any() else None
    )
    return bagged(GATE_SEEDS, EXTEND_FEATURES, x, holds, weights, GATE_TREES), threshold, other_threshold
