"""The trained models (sentence scorer, abstention gate): gradient-boosted trees read from a small
JSON file and evaluated with numpy. scikit-learn trains them (index/answering/training.py); the
answer path never imports it (it would start another thread pool beside the encoder's).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE = Path(__file__).resolve().parents[1] / "data" / "answer_model.json"
MODEL_FORMAT = 1


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
    depth: int

    def margin(self, x: np.ndarray) -> np.ndarray:
        """The raw score of each row of ``x`` (columns in ``features`` order)."""
        if x.shape[0] == 0:
            return np.zeros(0)
        trees = np.arange(self.feature.shape[0])
        node = np.zeros((x.shape[0], len(trees)), dtype=np.int64)
        rows = np.arange(x.shape[0])[:, None]
        for _ in range(self.depth):
            feature = self.feature[trees, node]
            leaf = feature < 0
            go_left = x[rows, np.where(leaf, 0, feature)] <= self.threshold[trees, node]
            node = np.where(leaf, node, np.where(go_left, self.left[trees, node], self.right[trees, node]))
        return self.base + self.rate * self.value[trees, node].sum(axis=1)

    def probability(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.margin(x)))

    def to_json(self) -> dict[str, Any]:
        return {
            "features": list(self.features),
            "base": self.base,
            "rate": self.rate,
            "depth": self.depth,
            "trees": [
                {
                    "feature": f[keep].tolist(),
                    "threshold": [round(float(v), 6) for v in t[keep]],
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
            depth=int(data["depth"]),
        )


@dataclass(frozen=True)
class AnswerModel:
    scorer: Trees  # P(a candidate holds the answer)
    gate: Trees  # P(the corpus answers the question)
    gate_threshold: dict[str, float]  # per question language: answer when the gate's probability reaches it
    second_ratio: float  # a second candidate joins when its probability is this share of the best one's
    meta: dict[str, Any]  # data hash, seed, held-out metrics, the command that made it

    def threshold(self, language: str) -> float:
        """The gate's threshold for a question's language (English's for any but Chinese)."""
        return self.gate_threshold.get(language, self.gate_threshold["en"])


_loaded: dict[Path, tuple[float, AnswerModel]] = {}
_lock = threading.Lock()


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
            )
        except (OSError, ValueError, KeyError, TypeError) as error:
            if isinstance(error, ModelError):
                raise
            raise ModelError(f"cannot read the answer model {path}: {error}") from None
        _loaded[path] = (stamp, model)
        return model


def save_model(model: AnswerModel, path: Path = MODEL_FILE) -> None:
    data = {
        "format": MODEL_FORMAT,
        "meta": model.meta,
        "gate_threshold": {k: round(v, 6) for k, v in model.gate_threshold.items()},
        "second_ratio": round(model.second_ratio, 6),
        "scorer": model.scorer.to_json(),
        "gate": model.gate.to_json(),
    }
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def from_sklearn(model: Any, features: tuple[str, ...]) -> Trees:
    """A fitted sklearn GradientBoostingClassifier (binary, log-loss) as Trees."""
    estimators = [e[0].tree_ for e in model.estimators_]
    width = max(t.node_count for t in estimators)

    def padded(values: list[np.ndarray], fill: float, dtype: type) -> np.ndarray:
        return np.array([np.concatenate([v, np.full(width - len(v), fill)]) for v in values], dtype=dtype)

    prior = model.init_
    if hasattr(prior, "class_prior_"):
        p = float(prior.class_prior_[1])
        base = float(np.log(p / (1 - p)))
    else:  # a zero init
        base = 0.0
    return Trees(
        features=features,
        base=base,
        rate=float(model.learning_rate),
        feature=padded([np.where(t.children_left < 0, -1, t.feature) for t in estimators], -1, np.int64),
        threshold=padded([t.threshold for t in estimators], 0.0, np.float64),
        left=padded([t.children_left for t in estimators], -2, np.int64),
        right=padded([t.children_right for t in estimators], -2, np.int64),
        value=padded([t.value[:, 0, 0] for t in estimators], 0.0, np.float64),
        depth=int(max(t.max_depth for t in estimators)),
    )
