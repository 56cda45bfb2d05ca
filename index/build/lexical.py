"""BM25 (bm25s) over chunks, on the tokens of index/text/tokens.py."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from index.text.tokens import tokenize

# BM25's length normalisation. bm25s's default, 0.75, let the short passages win over the long one
# that holds three bullets: b swept 0.3–0.75 on dev, 0.3–0.6 all better than 0.75 in English
# (hit@1 0.89 → 0.91), 0.6 also R@5 0.98 → 1.00; Chinese unchanged (README).
BM25_B = 0.6
_EMPTY_DOCUMENT = "\x00"  # a document of only stopwords still needs a token
# The BM25 index as bm25s saves it, next to the other files of an index version.
LEXICAL_FILES = {
    "data_name": "bm25.data.npy",
    "indices_name": "bm25.indices.npy",
    "indptr_name": "bm25.indptr.npy",
    "vocab_name": "bm25.vocab.json",
    "params_name": "bm25.params.json",
}


class LexicalIndex:
    """BM25 over the chunks' texts; scores for every chunk of one query.

    Built from texts (jieba over every text) or loaded from the files ``save`` wrote, memory-mapped:
    at 100k chunks, loading takes a fraction of a second where indexing took minutes. The
    documents' token lists aren't kept, only the vocabulary."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        doc_tokens = [tokenize(t) for t in texts]
        self.vocabulary = frozenset(t for tokens in doc_tokens for t in tokens)
        self._size = len(texts)
        self._bm25 = bm25s.BM25(b=BM25_B)
        if self._size:  # bm25s can't index nothing; scores() answers for an empty index
            self._bm25.index([tokens or [_EMPTY_DOCUMENT] for tokens in doc_tokens], show_progress=False)

    def __len__(self) -> int:
        return self._size

    def save(self, folder: Path) -> None:
        """Write the BM25 index into ``folder`` (the files of LEXICAL_FILES; none for no documents)."""
        if self._size:
            self._bm25.save(folder, corpus=None, show_progress=False, **LEXICAL_FILES)  # type: ignore[arg-type]

    @classmethod
    def load(cls, folder: Path, size: int, mmap: bool = True) -> LexicalIndex:
        """The index ``save`` wrote for ``size`` documents. Raises OSError or ValueError if the files
        are missing, unreadable or for another number of documents."""
        import bm25s

        self = cls.__new__(cls)
        self._size = size
        if not size:
            self._bm25 = bm25s.BM25(b=BM25_B)
            self.vocabulary = frozenset()
            return self
        for name in LEXICAL_FILES.values():
            if not (folder / name).is_file():
                raise FileNotFoundError(f"{folder / name} is missing")
        params = json.loads((folder / LEXICAL_FILES["params_name"]).read_text(encoding="utf-8"))
        if not isinstance(params, dict) or params.get("num_docs") != size:
            raise ValueError(
                f"the BM25 index is for {params.get('num_docs') if isinstance(params, dict) else '?'} "
                f"documents, not {size}"
            )
        self._bm25 = bm25s.BM25.load(folder, mmap=mmap, show_progress=False, **LEXICAL_FILES)
        vocab = self._bm25.vocab_dict
        columns = len(self._bm25.scores["indptr"]) - 1  # one per token; bm25s's "" comes after them
        if not isinstance(vocab, dict) or max((v for k, v in vocab.items() if k), default=-1) >= columns:
            raise ValueError("the BM25 vocabulary does not match its score matrix")
        self.vocabulary = frozenset(vocab) - {"", _EMPTY_DOCUMENT}  # bm25s's and our placeholders
        return self

    @cached_property
    def _scores(self) -> dict[str, np.ndarray]:
        """bm25s's score matrix as plain arrays: indexing a loaded index's memory maps made a memmap
        object each time, a few per question."""
        return {key: np.asarray(self._bm25.scores[key]) for key in ("data", "indices", "indptr")}

    def _postings(self, token: str) -> tuple[int, int]:
        """Where the token's documents lie in the score matrix's indices ((0, 0) for none)."""
        if token not in self.vocabulary:
            return 0, 0
        column = self._bm25.vocab_dict[token]
        indptr = self._scores["indptr"]
        return int(indptr[column]), int(indptr[column + 1])

    def document_frequency(self, token: str) -> int:
        """How many documents contain the token (0 if none does)."""
        start, end = self._postings(token)
        return end - start

    def documents_with(self, token: str, limit: int) -> list[int]:
        """The first ``limit`` documents (by position) that contain the token."""
        start, end = self._postings(token)
        return [int(i) for i in self._scores["indices"][start : min(end, start + limit)]]

    def _idf(self, documents: int) -> float:
        """BM25's idf for a term in this many documents, as bm25s's "lucene" method (ours) computes it."""
        return math.log(1 + (self._size - documents + 0.5) / (documents + 0.5))

    def grouped_scores(self, groups: Sequence[Sequence[str]]) -> np.ndarray:
        """BM25 with each group of tokens scored as one term (Lucene's synonym query): an English
        word and its translations share one idf, from the documents that have any of them, and a
        document counts its best-matching form once. Summed, the English quotation's rare
        "training" / "model" outweighed the Chinese words for the same things in the passage that
        answers; one-token groups score exactly as ``scores``."""
        single = [g[0] for g in groups if len(g) == 1]
        total = self.scores(single).astype(np.float64)
        if self._size == 0:
            return total.astype(np.float32)
        data, indices = self._scores["data"], self._scores["indices"]
        for group in (g for g in groups if len(g) > 1):
            best = np.zeros(self._size, dtype=np.float64)  # 0 where no form occurs
            for token in dict.fromkeys(t for t in group if t in self.vocabulary):
                start, end = self._postings(token)
                docs = np.asarray(indices[start:end], dtype=np.int64)
                # a stored score is idf × the term-frequency part: keep the part
                part = np.asarray(data[start:end], dtype=np.float64) / self._idf(end - start)
                best[docs] = np.maximum(best[docs], part)
            documents = int(np.count_nonzero(best))
            if documents:
                total += self._idf(documents) * best
        return total.astype(np.float32)

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        known = [t for t in query_tokens if t in self.vocabulary]
        if not known or self._size == 0:
            return np.zeros(self._size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(known), dtype=np.float32)
