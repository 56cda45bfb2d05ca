"""What every learned part of the answer model is fitted with: LightGBM trees (bagged over seeds), each
question's weight by its source, and the folds that keep an article's questions together.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from index.answer.model import Trees, from_lightgbm
from index.train.examples import Example

SEED = 0
FOLDS = 3
# how much each source of questions weighs in training, in all: our own development questions are
# another kind of article and question (an opinionated essay, colloquial askers), the public sets many
# articles of one kind; "background": the background's generic questions asked of every training
# corpus, off-topic examples of the off-topic gate (its share chosen out of fold)
SOURCE_SHARE = {"xquad": 0.35, "cmrc": 0.35, "own": 0.30, "background": 0.20}
FULL_GROUP = 30  # questions a group of a source (a language, a kind) needs to weigh a full share
# the scorer ranks a question's candidates (LambdaRank); its margin's sigmoid is the "probability" the
# gate and the second sentence read. Out of fold it chose the answer sentence more often than
# log-loss trees, and as often as four times the trees (docs/evaluation.md), which cost the answer
# path a millisecond
SCORER_TREES = dict(
    objective="lambdarank", rounds=250, num_leaves=15, learning_rate=0.08,
    bagging_fraction=0.8, bagging_freq=1, feature_fraction=0.8,
)  # fmt: skip
GATE_TREES = dict(
    objective="binary", rounds=200, num_leaves=8, max_depth=3, learning_rate=0.08, bagging_fraction=0.8, bagging_freq=1
)
# the scorer is the mean of this many bagged fits (seeds 0, 1, …): out of fold, three chose the answer
# sentence 0.5-2 points more often than one, on every source; each costs 0.4 ms per question
SCORER_SEEDS = 3
# the gate is the mean of this many bagged fits (seeds 0, 1, …): one fit's decline rates on a small
# group (our 66 English off-topic questions) moved by 0.10 from seed to seed
GATE_SEEDS = 5


def fit_trees(
    x: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray | None,
    params: dict,
    group: np.ndarray | None = None,
    seed: int = SEED,
) -> object:
    """LightGBM trees; with ``group`` (candidates per question, in row order) a ranking objective, which
    learns which candidate of a question is best rather than how good each is on its own."""
    import lightgbm

    settings = {k: v for k, v in params.items() if k != "rounds"}
    settings |= {"seed": seed, "deterministic": True, "force_row_wise": True, "num_threads": 2, "verbosity": -1}
    data = lightgbm.Dataset(x, label=y.astype(float), weight=weights, group=group, free_raw_data=True)
    return lightgbm.train(settings, data, num_boost_round=params["rounds"])


def question_weights(examples: Sequence[Example], by: Callable[[Example], tuple]) -> np.ndarray:
    """A weight per example: each source weighs its SOURCE_SHARE in all, shared among the groups ``by``
    makes of its examples, and within a group among its examples. A group of fewer than FULL_GROUP
    questions gets that fraction of a full group's share: one English question among CMRC's Chinese
    ones weighed as much as all 2,090 of them, in the scorer and in the gate's threshold."""
    keys = [(e.source, *by(e)) for e in examples]
    groups = Counter(keys)
    fraction = {group: min(1.0, n / FULL_GROUP) for group, n in groups.items()}
    per_source: dict[str, float] = {}
    for (source, *_), part in fraction.items():
        per_source[source] = per_source.get(source, 0.0) + part
    shares = {source: SOURCE_SHARE.get(source, 0.0) for source in per_source}
    total = sum(shares.values()) or 1.0
    return np.array([1000.0 * shares[k[0]] / total * fraction[k] / per_source[k[0]] / groups[k] for k in keys])


def bagged(
    seeds: int,
    features: tuple[str, ...],
    x: np.ndarray,
    y: np.ndarray,
    weights: np.ndarray,
    params: dict,
    group: np.ndarray | None = None,
) -> Trees:
    """``seeds`` fits (seeds SEED, SEED + 1, …) of the same trees, their margins averaged as one Trees."""
    fits = [fit_trees(x, y, weights, params, group, seed=SEED + i) for i in range(seeds)]
    return Trees.averaged([from_lightgbm(fit, features) for fit in fits])


def fold_of(group: str) -> int:
    return int(hashlib.sha256(f"{SEED}\n{group}".encode()).hexdigest(), 16) % FOLDS


def lowest_threshold(scores: np.ndarray, hits: np.ndarray, weights: np.ndarray, precision: float) -> float:
    """The lowest score at which the items scoring at least it are hits ``precision`` of the time (by
    weight); infinite when no score is."""
    order = np.argsort(-scores, kind="stable")
    right = np.cumsum((weights * hits)[order])
    total = np.cumsum(weights[order])
    best = math.inf
    for n, i in enumerate(order):
        last_of_ties = n + 1 == len(order) or scores[order[n + 1]] != scores[i]
        if last_of_ties and right[n] >= precision * total[n]:
            best = float(scores[i])
    return best
