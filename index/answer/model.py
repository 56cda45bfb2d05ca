"""The trained models (sentence scorer, abstention gate): gradient-boosted trees read from a small
JSON file and evaluated with numpy. LightGBM trains them (index/train/fit.py); the answer
path never imports it (it would start another thread pool beside the encoder's).
"""

from __future__ import annotations

import json
import math
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE = Path(__file__).resolve().parents[1] / "data" / "answer_model.json"
MODEL_FORMAT = 2  # 2: a second gate, for questions whose paragraph is missing


class ModelError(ValueError):
    """The model file is missing, unreadable or made for other features."""


@dataclass(frozen=True)
class Trees:
    """A binary classifier: sigmoid(base + rate × Σ leaf values). Trees are stored as node arrays
    padded to one width: feature < 0 marks a leaf."""

    features: tuple[str, ...]
    base: float
    rate: float
    feature: np.ndarray  # (trees, nodes) int
    threshold: np.ndarray  # (trees, nodes) float
    left: np.ndarray  # (trees, nodes) int
    right: np.ndarray  # (trees, nodes) int
    value: np.ndarray  # (trees, nodes) float

    def margin(self, x: np.ndarray) -> np.ndarray:
        """The raw score of each row of ``x`` (columns in ``features`` order).

        All split conditions are tested at once and each tree's exit leaf read from bit masks
        (QuickScorer, Lucchese et al. 2015): a false condition rules out the leaves left of it, and
        the leftmost leaf left standing is the one a walk from the root reaches. One pass over the
        nodes instead of one per level: deep, leaf-wise trees cost no more than shallow ones."""
        if x.shape[0] == 0:
            return np.zeros(0)
        masks = self._masks
        # each distinct condition tested once (trees share split points: 2,103 for 10,500 splits), in
        # float32 when the features are: the thresholds are rounded down, so no row changes side
        thresholds = masks.threshold32 if x.dtype == np.float32 else masks.threshold
        passed = x[:, masks.feature] <= thresholds  # (rows, conditions); a NaN fails, as in LightGBM
        failed = ~passed[:, masks.condition]  # (rows, slots, trees)
        standing = ~np.bitwise_or.reduce(failed * masks.rules_out, axis=1)  # (rows, trees)
        lowest = standing & (~standing + standing.dtype.type(1))
        leftmost = np.bitwise_count(lowest - standing.dtype.type(1))  # the lowest standing bit's place
        return self.base + self.rate * masks.leaf_value[masks.first_leaf + leftmost].sum(axis=1)

    @cached_property
    def _masks(self) -> _LeafMasks:
        return _LeafMasks.of(self)

    def probability(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.margin(x)))

    def prepare(self) -> None:
        """Make the leaf masks now, not at the first question (some 30 ms for the scorer)."""
        self._masks  # noqa: B018

    @classmethod
    def averaged(cls, models: list[Trees]) -> Trees:
        """One model whose margin is the mean of ``models``' margins (same features and rate): their
        trees side by side, each leaf weighing 1/len(models)."""
        if not models or len({(m.features, m.rate) for m in models}) != 1:
            raise ValueError("models with the same features and rate expected")
        width = max(m.feature.shape[1] for m in models)

        def stacked(name: str, fill: float) -> np.ndarray:
            parts = [getattr(m, name) for m in models]
            return np.concatenate([np.pad(a, ((0, 0), (0, width - a.shape[1])), constant_values=fill) for a in parts])

        return cls(
            features=models[0].features,
            base=float(np.mean([m.base for m in models])),
            rate=models[0].rate / len(models),
            feature=stacked("feature", -1),
            threshold=stacked("threshold", 0.0),
            left=stacked("left", -2),
            right=stacked("right", -2),
            value=stacked("value", 0.0),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "base": self.base,
            "rate": self.rate,
            "trees": [
                {
                    "feature": f[keep].tolist(),
                    "threshold": [float(v) for v in t[keep]],  # exact: a rounded one moves rows across it
                    "left": lt[keep].tolist(),
                    "right": rt[keep].tolist(),
                    "value": [round(float(v), 6) for v in v_[keep]],
                }
                for f, t, lt, rt, v_ in zip(
                    self.feature, self.threshold, self.left, self.right, self.value, strict=True
                )
                for keep in [slice(0, int(np.count_nonzero(lt != -2)))]
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Trees:
        trees = data["trees"]
        width = max((len(t["feature"]) for t in trees), default=1)

        def padded(key: str, fill: float, dtype: type) -> np.ndarray:
            return np.array([t[key] + [fill] * (width - len(t[key])) for t in trees], dtype=dtype).reshape(
                len(trees), width
            )

        return cls(
            features=tuple(data["features"]),
            base=float(data["base"]),
            rate=float(data["rate"]),
            feature=padded("feature", -1, np.int64),
            threshold=padded("threshold", 0.0, np.float64),
            left=padded("left", -2, np.int64),
            right=padded("right", -2, np.int64),
            value=padded("value", 0.0, np.float64),
        )


@dataclass(frozen=True)
class _LeafMasks:
    """Trees as Trees.margin reads them: slot j of every tree's splits side by side (a tree with
    fewer splits is padded with splits that always pass), each naming one of the distinct conditions
    (feature ≤ threshold) of all the trees."""

    feature: np.ndarray  # (conditions,) the feature each condition tests
    threshold: np.ndarray  # (conditions,) float64
    threshold32: np.ndarray  # (conditions,) the largest float32 not above each threshold
    condition: np.ndarray  # (slots, trees) the condition of each split
    rules_out: np.ndarray  # (slots, trees) uint16/32/64: bit i set where the split failing rules out leaf i
    leaf_value: np.ndarray  # (trees × leaves,) each tree's leaves in left-to-right order, tree after tree
    first_leaf: np.ndarray  # (trees,) where each tree's leaves start in leaf_value

    @classmethod
    def of(cls, trees: Trees) -> _LeafMasks:
        splits: list[list[tuple[int, float, int]]] = []
        values: list[list[float]] = []
        for t in range(trees.feature.shape[0]):
            mine: list[tuple[int, float, int]] = []
            leaves: list[float] = []

            def walk(node: int, t: int = t, mine: list = mine, leaves: list[float] = leaves) -> tuple[int, int]:
                """The leaves under ``node``: the first's number and how many."""
                if trees.feature[t, node] < 0:
                    leaves.append(float(trees.value[t, node]))
                    return len(leaves) - 1, 1
                first, n = walk(int(trees.left[t, node]))
                _, m = walk(int(trees.right[t, node]))
                mine.append((int(trees.feature[t, node]), float(trees.threshold[t, node]), ((1 << n) - 1) << first))
                return first, n + m

            walk(0)
            if len(leaves) > 64:
                raise ModelError(f"a tree of {len(leaves)} leaves (at most 64)")
            splits.append(mine)
            values.append(leaves)
        slots = max([1, *(len(m) for m in splits)])
        width = max(len(v) for v in values)
        # the narrowest masks that hold a tree's leaves: less memory to sweep
        bits = np.uint16 if width <= 16 else np.uint32 if width <= 32 else np.uint64
        padded = [m + [(0, np.inf, 0)] * (slots - len(m)) for m in splits]
        distinct: dict[tuple[int, float], int] = {}
        condition = [[distinct.setdefault((m[j][0], m[j][1]), len(distinct)) for m in padded] for j in range(slots)]
        threshold = np.array([t for _, t in distinct], dtype=np.float64)
        threshold32 = threshold.astype(np.float32)
        above = threshold32.astype(np.float64) > threshold  # rounded up: step down one float32
        threshold32[above] = np.nextafter(threshold32[above], np.float32(-np.inf))
        return cls(
            feature=np.array([f for f, _ in distinct], dtype=np.int64),
            threshold=threshold,
            threshold32=threshold32,
            condition=np.array(condition, dtype=np.int64),
            rules_out=np.array([[m[j][2] for m in padded] for j in range(slots)], dtype=bits),
            leaf_value=np.array([x for v in values for x in v + [0.0] * (width - len(v))], dtype=np.float64),
            first_leaf=np.arange(len(values)) * width,
        )


@dataclass(frozen=True)
class Decision:
    """The gates' verdict on one question: answer or not; how sure (the lower of the two gates'
    probabilities: an order, not a calibrated chance); and whether the answer should say it may
    not be one (both gates passed, one by less than the model's hedge margin)."""

    answers: bool
    confidence: float
    sure: bool


@dataclass(frozen=True)
class AnswerModel:
    """Two gates, each against one kind of unanswerable question: one learned from questions about
    something else (off-topic), one from questions whose paragraph is missing (near-topic). Their
    evidence differs (the topic's words are there for the second), and one gate for both learned
    neither as well out of fold. A question is answered when both
    reach their thresholds."""

    scorer: Trees  # P(a candidate holds the answer)
    gate: Trees  # P(the corpus answers the question rather than being about something else)
    # per question language, and for English per corpus view ("en/rendered"): answer when the gate's
    # probability reaches it
    gate_threshold: dict[str, float]
    second_ratio: float  # a second candidate joins when its probability is this share of the best one's
    meta: dict[str, Any]  # data hash, seed, held-out metrics, the command that made it
    near_gate: Trees  # P(the corpus answers the question rather than lacking its paragraph)
    near_threshold: dict[str, float]
    # per question language: an answer whose lower gate margin (log-odds above its threshold) is under
    # this says it may not be one; chosen so that at most HEDGE_RIGHT_RATE of right answers do ({}: none)
    hedge_margin: dict[str, float] = field(default_factory=dict)
    # P(a neighbour of the best sentence holds the answer too): it joins the answer at extend_threshold
    # for a question the kind model takes for a fact, at extend_threshold_other for one of another kind
    # (None: the same), each chosen for the same precision among its own questions
    extender: Trees | None = None
    extend_threshold: float = math.inf
    extend_threshold_other: float | None = None

    def extend_threshold_for(self, fact: bool) -> float:
        """The extend step's threshold for a question taken for a fact (``fact``) or of another kind."""
        other = self.extend_threshold_other
        return self.extend_threshold if fact or other is None else other

    def prepare(self) -> None:
        for trees in (self.scorer, self.gate, self.near_gate, self.extender):
            if trees is not None:
                trees.prepare()

    def threshold(self, language: str, view: str = "glossed") -> float:
        """The gate's threshold for a question's language (English's for any but Chinese) and the
        corpus's English ``view``."""
        return threshold_for(self.gate_threshold, language, view)

    def decide(self, features: np.ndarray, language: str, view: str = "glossed") -> Decision:
        """Answer or not, from one row of the gates' features, and how sure (the thresholds lie near
        0.05–0.3). ``view``: the corpus's English view (StoredIndex.english_view)."""
        row = features[None, :]
        off = float(self.gate.probability(row)[0])
        near = float(self.near_gate.probability(row)[0])
        margin = gate_margin(
            off, near, self.threshold(language, view), threshold_for(self.near_threshold, language, view)
        )
        hedge = threshold_for(self.hedge_margin, language) if self.hedge_margin else 0.0
        return Decision(margin >= 0, min(off, near), margin >= hedge)


def gate_margin(off: float, near: float, off_threshold: float, near_threshold: float) -> float:
    """How far the question clears the nearer of its two thresholds, in log-odds (< 0: declined)."""
    return min(_logit(off) - _logit(off_threshold), _logit(near) - _logit(near_threshold))


def _logit(p: float) -> float:
    return math.log((p + 1e-9) / (1 - p + 1e-9))


def threshold_for(thresholds: dict[str, float], language: str, view: str = "glossed") -> float:
    """A question's threshold: its language's (English's for any language but those trained: zh,
    en), and where the model has one for the corpus's English ``view`` ("en/rendered"), that one."""
    key = language if language in thresholds else "en"
    return thresholds.get(f"{key}/{view}", thresholds[key])


_loaded: dict[Path, tuple[float, AnswerModel]] = {}
_lock = threading.Lock()


def _check_features(model: AnswerModel, path: Path) -> None:
    """Trees read their columns by position: a model made for other features would misread every row."""
    from index.answer.decide import GATE_FEATURES
    from index.answer.features import CANDIDATE_FEATURES, EXTEND_FEATURES

    for name, trees, features in (
        ("scorer", model.scorer, CANDIDATE_FEATURES),
        ("gate", model.gate, GATE_FEATURES),
        ("near-topic gate", model.near_gate, GATE_FEATURES),
        ("extender", model.extender, EXTEND_FEATURES),
    ):
        if trees is not None and trees.features != features:
            raise ModelError(f"the {name} in {path} was trained on other features; run `python -m index train`")


def load_model(path: Path = MODEL_FILE) -> AnswerModel:
    """The model in ``path``, read once (again only when the file changes)."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        raise ModelError(f"no answer model at {path}; run `python -m index train`") from None
    with _lock:
        cached = _loaded.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != MODEL_FORMAT:
                raise ModelError(
                    f"{path} is format {data.get('format')}, not {MODEL_FORMAT}; run `python -m index train`"
                )
            model = AnswerModel(
                scorer=Trees.from_json(data["scorer"]),
                gate=Trees.from_json(data["gate"]),
                gate_threshold={k: float(v) for k, v in data["gate_threshold"].items()},
                second_ratio=float(data["second_ratio"]),
                meta=data.get("meta", {}),
                near_gate=Trees.from_json(data["near_gate"]),
                near_threshold={k: float(v) for k, v in data["near_threshold"].items()},
                hedge_margin={k: float(v) for k, v in data.get("hedge_margin", {}).items()},
                extender=Trees.from_json(data["extender"]) if "extender" in data else None,
                extend_threshold=float(data.get("extend_threshold", math.inf)),
                extend_threshold_other=(
                    float(data["extend_threshold_other"]) if "extend_threshold_other" in data else None
                ),
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            if isinstance(error, ModelError):
                raise
            raise ModelError(f"cannot read the answer model {path}: {error}") from None
        _check_features(model, path)
        _loaded[path] = (stamp, model)
        return model


def save_model(model: AnswerModel, path: Path = MODEL_FILE) -> None:
    data = {
        "format": MODEL_FORMAT,
        "meta": model.meta,
        "gate_threshold": {k: round(v, 6) for k, v in model.gate_threshold.items()},
        "near_threshold": {k: round(v, 6) for k, v in model.near_threshold.items()},
        "second_ratio": round(model.second_ratio, 6),
        "hedge_margin": {k: round(v, 6) for k, v in model.hedge_margin.items()},
        "scorer": model.scorer.to_json(),
        "gate": model.gate.to_json(),
        "near_gate": model.near_gate.to_json(),
    }
    if model.extender is not None:
        data |= {"extend_threshold": round(model.extend_threshold, 6), "extender": model.extender.to_json()}
        if model.extend_threshold_other is not None:
            data["extend_threshold_other"] = round(model.extend_threshold_other, 6)
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def from_lightgbm(booster: Any, features: tuple[str, ...]) -> Trees:
    """A trained LightGBM booster (numerical ``<=`` splits, one output; a binary or a ranking
    objective) as Trees. Its leaf values carry the learning rate already: base 0, rate 1."""
    dumped = booster.dump_model()
    if dumped.get("num_tree_per_iteration", 1) != 1:
        raise ValueError("one output per tree expected")
    nodes: list[list[tuple[int, float, int, int, float]]] = []
    for info in dumped["tree_info"]:
        flat: list[tuple[int, float, int, int, float]] = []

        def walk(node: dict[str, Any], flat: list = flat) -> int:
            at = len(flat)
            if "leaf_value" in node:
                flat.append((-1, 0.0, -1, -1, float(node["leaf_value"])))
                return at
            if node["decision_type"] != "<=":
                raise ValueError(f"unsupported split {node['decision_type']!r}")
            flat.append((0, 0.0, 0, 0, 0.0))  # filled in once the children have their places
            left = walk(node["left_child"])
            right = walk(node["right_child"])
            flat[at] = (int(node["split_feature"]), float(node["threshold"]), left, right, 0.0)
            return at

        walk(info["tree_structure"])
        nodes.append(flat)
    width = max(len(t) for t in nodes)

    def column(i: int, fill: float, dtype: type) -> np.ndarray:
        return np.array([[n[i] for n in t] + [fill] * (width - len(t)) for t in nodes], dtype=dtype)

    return Trees(
        features=features,
        base=0.0,
        rate=1.0,
        feature=column(0, -1, np.int64),
        threshold=column(1, 0.0, np.float64),
        left=column(2, -2, np.int64),
        right=column(3, -2, np.int64),
        value=column(4, 0.0, np.float64),
    )
