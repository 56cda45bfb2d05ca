"""Hybrid retrieval: dense (FAISS inner product) fused with BM25 by weighted reciprocal rank.

Pure ranking functions plus a Retriever that holds one loaded index version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from index.build import passage_text
from index.lexical import LexicalIndex
from index.store import StoredIndex

Mode = Literal["dense", "lexical", "hybrid"]
RRF_K = 20
# Measured with `python -m index eval --compare` on the dev questions (README): lexical matching
# helps Chinese questions about the Chinese article more than English ones.
LEXICAL_WEIGHT = {"zh": 1.0, "en": 0.6}
DEFAULT_LEXICAL_WEIGHT = 0.6


@dataclass(frozen=True)
class Hit:
    chunk: int  # position in the index's chunk list
    score: float  # the fused score that ranks hits
    dense: float  # cosine similarity of question and passage
    lexical: float  # BM25 score (0 if no shared term)


def rrf(ranked: list[np.ndarray], weights: list[float], k: int = RRF_K) -> dict[int, float]:
    """Weighted reciprocal-rank fusion of several rankings (arrays of item ids, best first)."""
    fused: dict[int, float] = {}
    for ranking, weight in zip(ranked, weights, strict=True):
        for rank, item in enumerate(ranking.tolist()):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank + 1)
    return fused


def top_indices(scores: np.ndarray, n: int) -> np.ndarray:
    """Indices of the n largest scores, best first (ties by position, for stable output)."""
    n = min(n, len(scores))
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
    return part[np.lexsort((part, -scores[part]))]


class Retriever:
    """Searches one loaded index version. Immutable: a reload builds a new Retriever."""

    def __init__(self, stored: StoredIndex) -> None:
        self.stored = stored
        self.lexical = LexicalIndex([passage_text(c) for c in stored.chunks])

    def dense(self, query_vector: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
        n = min(n, self.stored.vectors.ntotal)
        if n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        scores, ids = self.stored.vectors.search(query_vector.reshape(1, -1).astype(np.float32), n)
        keep = ids[0] >= 0
        return ids[0][keep].astype(np.int64), scores[0][keep]

    def search(
        self,
        query_vector: np.ndarray,
        query_tokens: list[str],
        k: int,
        mode: Mode = "hybrid",
        language: str = "zh",
    ) -> list[Hit]:
        pool = max(k * 10, 50)
        dense_ids, dense_scores = self.dense(query_vector, pool)
        dense_of = dict(zip(dense_ids.tolist(), dense_scores.tolist(), strict=True))
        lexical_scores = self.lexical.scores(query_tokens)
        lexical_ids = top_indices(lexical_scores, pool)
        lexical_ids = lexical_ids[lexical_scores[lexical_ids] > 0]
        if mode == "dense":
            fused = {int(i): float(s) for i, s in zip(dense_ids, dense_scores, strict=True)}
        elif mode == "lexical":
            fused = {int(i): float(lexical_scores[i]) for i in lexical_ids}
        else:
            weight = LEXICAL_WEIGHT.get(language, DEFAULT_LEXICAL_WEIGHT)
            fused = rrf([dense_ids, lexical_ids], [1.0, weight])
        order = sorted(fused, key=lambda i: (-fused[i], i))[:k]
        missing = [i for i in order if i not in dense_of]
        if missing:  # lexical-only hits still report their cosine
            vectors = np.stack([self.stored.vectors.reconstruct(int(i)) for i in missing])
            dense_of.update(zip(missing, (vectors @ query_vector).tolist(), strict=True))
        return [Hit(i, fused[i], float(dense_of[i]), float(lexical_scores[i])) for i in order]
