"""What kind of question it is — a fact, a reason, a meaning, an opinion, a comparison, a list of
things — learned from questions labelled by kind (`python -m index train --kinds`,
index/train/question_kinds.py) rather than written as interrogative patterns: a linear model over
the question's own e5 vector, its words and its Chinese character pairs.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from index.answer.features import QUESTION_KINDS, bigram_set
from index.answer.model import ModelError
from index.text.tokens import tokenize

KINDS_FILE = Path(__file__).resolve().parents[1] / "data" / "question_kinds.json"
KINDS = QUESTION_KINDS
# whether a question asks about the article itself (answer/about.py), learned the same way
ABOUT_FILE = KINDS_FILE.with_name("about_kinds.json")
ABOUT_KINDS = ("content", "overview", "outline", "meta")


def grams(text: str) -> frozenset[str]:
    """A question's words (lower case, interrogatives and all) and its pairs of Chinese characters."""
    words = {t.lower() for t in tokenize(text, drop_stopwords=False) if t.strip()}
    return frozenset(words) | bigram_set(text)


@dataclass(frozen=True)
class KindModel:
    """Softmax over KINDS of (e5 vector, indicators of the vocabulary's grams) · weights + bias."""

    kinds: tuple[str, ...]
    vocabulary: tuple[str, ...]
    weights: np.ndarray  # (vector dims + len(vocabulary), len(kinds))
    bias: np.ndarray  # (len(kinds),)
    meta: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def _index(self) -> dict[str, int]:
        return {gram: i for i, gram in enumerate(self.vocabulary)}

    def features(self, vector: np.ndarray, text: str) -> np.ndarray:
        found = np.zeros(len(self.vocabulary), dtype=np.float32)
        found[[self._index[g] for g in grams(text) if g in self._index]] = 1.0
        return np.concatenate([np.asarray(vector, dtype=np.float32), found])

    def probabilities(self, rows: np.ndarray) -> np.ndarray:
        """P(kind) for each row of features (softmax over self.kinds)."""
        logits = rows @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def of(self, vector: np.ndarray, text: str) -> np.ndarray:
        """P(kind) of one question, in self.kinds order."""
        return self.probabilities(self.features(vector, text)[None, :])[0]

    def shares(self, vector: np.ndarray, text: str) -> np.ndarray:
        """P(kind) of one question in QUESTION_KINDS order (0 for a kind the model doesn't know)."""
        by_kind = dict(zip(self.kinds, self.of(vector, text), strict=True))
        return np.array([by_kind.get(kind, 0.0) for kind in QUESTION_KINDS], dtype=np.float32)

    def kind(self, vector: np.ndarray, text: str) -> str:
        return self.kinds[int(np.argmax(self.of(vector, text)))]

    def to_json(self) -> dict[str, Any]:
        return {
            "kinds": list(self.kinds),
            "vocabulary": list(self.vocabulary),
            "weights": [[round(float(v), 6) for v in row] for row in self.weights],
            "bias": [round(float(v), 6) for v in self.bias],
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> KindModel:
        return cls(
            kinds=tuple(data["kinds"]),
            vocabulary=tuple(data["vocabulary"]),
            weights=np.array(data["weights"], dtype=np.float32),
            bias=np.array(data["bias"], dtype=np.float32),
            meta=data.get("meta", {}),
        )


_loaded: dict[Path, tuple[float, KindModel]] = {}
_lock = threading.Lock()


def load_kinds(path: Path = KINDS_FILE) -> KindModel | None:
    """The question-kind model in ``path`` (None when there is none: every question is a fact)."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return None
    with _lock:
        cached = _loaded.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            model = KindModel.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelError(f"cannot read the question-kind model {path}: {error}") from None
        if model.weights.shape != (model.weights.shape[0], len(model.kinds)) or len(model.bias) != len(model.kinds):
            raise ModelError(f"{path} is malformed; run `python -m index train --kinds`")
        _loaded[path] = (stamp, model)
        return model


def save_kinds(model: KindModel, path: Path = KINDS_FILE) -> None:
    path.write_text(json.dumps(model.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
