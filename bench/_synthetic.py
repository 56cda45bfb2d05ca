"""Synthetic corpora for the scale benchmark.

Text: the article's own sentences, cut into clauses and recombined, with its numbers replaced by
random ones and its names by names drawn from a large made-up pool, so that the vocabulary grows
with the corpus the way a real one does (Chinese and English, numbers, model names).
Vectors: random unit vectors (the worst case for approximate search: every neighbour is almost
as far as any other point) or, for comparison, points around random cluster centres.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np

_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|\n+")
_CLAUSE = re.compile(r"(?<=[，,：:])")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_NAME = re.compile(r"\b[A-Z][A-Za-z]+(?:[ -][A-Z0-9][A-Za-z0-9.]*)*\b")
_SYLLABLES = ("ka", "zen", "mo", "ri", "ta", "lu", "vor", "shi", "an", "qi", "del", "po", "ne", "xan", "tur", "bi")
_SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡"
_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉萍红建文辉力斌宇浩凯鹏飞云龙雪梅晨阳博"
_UNITS = ("%", " GPU", " 万", " 亿", "B", " tokens", " 倍", "")


def article_clauses(corpus_dir: Path) -> list[str]:
    """Clauses of every document in the corpus (the raw material of the synthetic text)."""
    clauses: list[str] = []
    for path in sorted(corpus_dir.glob("*.txt")) + sorted(corpus_dir.glob("*.md")):
        for sentence in _SENTENCE_END.split(path.read_text(encoding="utf-8")):
            clauses.extend(c.strip() for c in _CLAUSE.split(sentence) if len(c.strip()) >= 4)
    if not clauses:
        raise ValueError(f"no text in {corpus_dir}")
    return clauses


def name_pool(rng: np.random.Generator, size: int) -> list[str]:
    """Made-up product, company and person names, Latin and Chinese."""
    names: list[str] = []
    for i in range(size):
        kind = i % 3
        if kind == 0:
            word = "".join(rng.choice(_SYLLABLES, size=int(rng.integers(2, 4)))).capitalize()
            names.append(f"{word}-{int(rng.integers(1, 100))}" if rng.random() < 0.4 else word)
        elif kind == 1:
            names.append(
                _SURNAMES[int(rng.integers(len(_SURNAMES)))]
                + "".join(rng.choice(list(_GIVEN), size=int(rng.integers(1, 3))))
            )
        else:
            first, last = ("".join(rng.choice(_SYLLABLES, size=2)).capitalize() for _ in range(2))
            names.append(f"{first} {last}")
    return names


class _Substitutions:
    """Random numbers and Zipf-distributed names for one batch of texts, drawn in advance (fast)."""

    def __init__(self, rng: np.random.Generator, pool: list[str], weights: np.ndarray, count: int) -> None:
        self.pool = pool
        self.names = iter(rng.choice(len(pool), size=count * 12, p=weights).tolist())
        self.numbers = iter(rng.integers(0, 10_000, size=count * 24).tolist())
        self.units = iter(rng.integers(len(_UNITS), size=count * 24).tolist())

    def number(self, _: re.Match[str]) -> str:
        value = next(self.numbers)
        return f"{value / 10:g}{_UNITS[next(self.units)]}" if value % 3 == 0 else str(value)

    def name(self, _: re.Match[str]) -> str:
        return self.pool[next(self.names)]


def texts(corpus_dir: Path, n: int, seed: int = 0, chunk_chars: int = 220, names: int = 20_000) -> Iterator[str]:
    """``n`` chunk-sized texts recombined from the article (deterministic for a seed)."""
    rng = np.random.default_rng(seed)
    clauses = article_clauses(corpus_dir)
    pool = name_pool(rng, names)
    # Zipf-like popularity: a few names are everywhere, most are rare, as in real text.
    weights = 1.0 / np.arange(1, len(pool) + 1)
    weights /= weights.sum()
    batch = 4096
    for begin in range(0, n, batch):
        count = min(batch, n - begin)
        picks = rng.integers(len(clauses), size=(count, 12))
        sub = _Substitutions(rng, pool, weights, count)
        for row in picks:
            parts: list[str] = []
            size = 0
            for clause in row:
                piece = _NAME.sub(sub.name, _NUMBER.sub(sub.number, clauses[clause]), count=1)
                parts.append(piece)
                size += len(piece)
                if size >= chunk_chars:
                    break
            yield "".join(parts)[: chunk_chars + 40]


def unit_vectors(n: int, dim: int, seed: int, kind: str = "random", clusters: int = 0) -> np.ndarray:
    """``n`` L2-normalized float32 vectors, generated block by block to bound the transient memory.

    ``random``: uniform on the sphere. ``clustered``: around ``clusters`` random centres (default
    n/100), a rough stand-in for real embeddings, whose neighbours stand out from the crowd.
    """
    rng = np.random.default_rng(seed)
    out = np.empty((n, dim), dtype=np.float32)
    centres = None
    if kind == "clustered":
        count = clusters or max(1, n // 100)
        centres = np.random.default_rng(12345).standard_normal((count, dim)).astype(np.float32)
        centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    elif kind != "random":
        raise ValueError(f"unknown vector kind {kind!r}")
    for begin in range(0, n, 65536):
        end = min(n, begin + 65536)
        block = rng.standard_normal((end - begin, dim), dtype=np.float32)
        if centres is not None:
            block /= np.linalg.norm(block, axis=1, keepdims=True)
            block = centres[rng.integers(len(centres), size=end - begin)] + 0.6 * block
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[begin:end] = block
    return out
