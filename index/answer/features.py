"""Features of answer candidates and of the question as a whole: what the learned scorer and gate
read. Pure functions of the question's terms, the retrieval outcome and the stored index.

Every feature is relative to the question or its retrieval (a gap to the best candidate, a share of
the question's weighted words), so that a model trained on other articles reads ours the same way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from index.answer.question_type import ASKED, HELD, asked_vector, held_vector
from index.build.store import StoredIndex
from index.retrieve.retriever import Retriever, SearchOutcome
from index.text.tokens import tokenize

_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_LATIN_TOKEN = re.compile(r"[a-z0-9]")


@lru_cache(maxsize=131072)
def token_set(text: str) -> frozenset[str]:
    """A text's tokens: jieba once per sentence, not once per question."""
    return frozenset(tokenize(text))


@lru_cache(maxsize=131072)
def bigram_set(text: str) -> frozenset[str]:
    """The Han character pairs of a text (CMRC-style questions reuse their sentence's wording)."""
    return frozenset(run[i : i + 2] for run in _HAN_RUN.findall(text) for i in range(len(run) - 1))


@dataclass(frozen=True)
class Terms:
    """A question's words as the corpus may write them, each weighted by its rarity."""

    groups: tuple[frozenset[str], ...]  # each word (or phrase) with its forms the corpus has: itself, translations
    weights: tuple[float, ...]  # idf of each group over the passages
    absent: tuple[str, ...]  # words no form of which is in the corpus
    words: int  # content words of the question
    latin: frozenset[str]  # its Latin-script words and numbers the corpus has (names, years)
    bigrams: frozenset[str]  # Han character pairs of a Chinese question

    @cached_property
    def _total(self) -> float:
        return sum(self.weights)

    def share(self, tokens: frozenset[str]) -> float:
        """The weighted share of the question's words a text holds (in any form)."""
        total = self._total
        if total <= 0:
            return 0.0
        return sum(w for g, w in zip(self.groups, self.weights, strict=True) if g & tokens) / total

    def bigram_share(self, pairs: frozenset[str]) -> float:
        """The share of a Chinese question's character pairs a text's ``pairs`` hold."""
        return len(self.bigrams & pairs) / len(self.bigrams) if self.bigrams else 0.0

    def count_share(self, tokens: frozenset[str]) -> float:
        return sum(1 for g in self.groups if g & tokens) / len(self.groups) if self.groups else 0.0


def question_terms(retriever: Retriever, question: str, tokens: Sequence[str], language: str) -> Terms:
    lexical = retriever.lexical
    vocabulary = lexical.vocabulary
    n = max(1, len(lexical))
    groups: list[frozenset[str]] = []
    absent: list[str] = []
    words = [t for t in dict.fromkeys(tokens) if not re.fullmatch(r"[\d.,%]+|\w", t)]
    for token in words:
        forms = frozenset(f for f in (token, *retriever.translation([token])) if f in vocabulary)
        if forms:
            groups.append(forms)
        else:
            absent.append(token)
    # a phrase's translation ("steel plate" → 钢板) is a word of its own
    seen = frozenset().union(*groups) if groups else frozenset()
    groups += [
        frozenset([f]) for f in dict.fromkeys(retriever.expand(list(tokens))) if f in vocabulary and f not in seen
    ]
    weights = tuple(math.log((n + 1) / (max(lexical.document_frequency(f) for f in g) + 0.5)) for g in groups)
    latin = frozenset(t for t in tokens if _LATIN_TOKEN.match(t) and t in vocabulary)
    bigrams = bigram_set(question) if language == "zh" else frozenset()
    return Terms(tuple(groups), weights, tuple(absent), len(words), latin, bigrams)


CANDIDATE_FEATURES = (
    "cos",
    "cos_gap",
    "cos_rank",
    "passage_rank",
    "passage_fused_ratio",
    "passage_dense_gap",
    "passage_lexical_ratio",
    "lex",
    "lex_gap",
    "lex_count",
    "lex_prev",
    "lex_next",
    "lex_passage",
    "lex_local",
    "bigram",
    "bigram_gap",
    "bigram_prev",
    "bigram_next",
    "latin",
    "length",
    "first_in_passage",
    "last_in_passage",
    "best_in_passage",
    "novel",
    "gloss_cos",
    "gloss_gap",
    "gloss_rendered",
    "english",
    *(f"asks_{name}" for name in (*ASKED, "other")),
    *(f"holds_{name}" for name in HELD),
)
# the learned question kinds (index/answer/question_kind.py), in the order the extend step reads them
QUESTION_KINDS = ("fact", "reason", "meaning", "opinion", "comparison", "list")
# the extend step's (index/answer/extend.py): a neighbour of the best candidate, beside the best
EXTEND_FEATURES = (
    "offset",
    "best_probability",
    "neighbour_probability",
    "probability_ratio",
    "neighbour_rank",
    "neighbour_refers_back",
    *(f"asks_{kind}_learned" for kind in QUESTION_KINDS),
    *(f"best_{name}" for name in CANDIDATE_FEATURES),
    *(f"neighbour_{name}" for name in CANDIDATE_FEATURES),
)


@dataclass(frozen=True)
class Candidate:
    """An answer unit: a sentence (a table row, a list item) of a retrieved passage."""

    sentence: int  # position in the index's sentence list
    passage_rank: int  # 0 for the best passage


def candidate_matrix(
    stored: StoredIndex,
    outcome: SearchOutcome,
    candidates: Sequence[Candidate],
    terms: Terms,
    question: str,
    language: str,
) -> np.ndarray:
    """One row of CANDIDATE_FEATURES per candidate."""
    if not candidates:
        return np.zeros((0, len(CANDIDATE_FEATURES)), dtype=np.float32)
    hits = outcome.hits
    scores = outcome.sentence_scores
    texts = [stored.sentence_text(stored.sentences[c.sentence]) for c in candidates]
    tokens = [token_set(t) for t in texts]
    cos = np.array([scores.get(c.sentence, 0.0) for c in candidates])
    order = np.argsort(-cos, kind="stable")
    cos_rank = np.empty(len(candidates))
    cos_rank[order] = np.arange(len(candidates))
    # a sentence's shares are read for itself and for its neighbours (mostly candidates too): once each
    shares = {c.sentence: terms.share(t) for c, t in zip(candidates, tokens, strict=True)}
    pairs = {c.sentence: _bigram_share(terms, t) for c, t in zip(candidates, texts, strict=True)}
    lex = np.array([shares[c.sentence] for c in candidates])
    lex_local = _local_shares(terms, tokens)
    bigram = np.array([pairs[c.sentence] for c in candidates])
    top_fused = hits[0].score if hits else 1.0
    top_dense = max((h.dense_adjusted for h in hits), default=0.0)
    top_lexical = max((h.lexical for h in hits), default=0.0)
    asked = asked_vector(question)
    english = 0.0 if language == "zh" else 1.0
    question_tokens = frozenset().union(*terms.groups) if terms.groups else frozenset()
    cos_best, lex_best, bigram_best = cos.max(), lex.max(), bigram.max()
    chunks = [stored.sentences[c.sentence].chunk for c in candidates]
    cosines = cos.tolist()
    best_in_chunk: dict[int, float] = {}
    for chunk, value in zip(chunks, cosines, strict=True):
        best_in_chunk[chunk] = max(best_in_chunk.get(chunk, -1.0), value)
    passage_share = {chunk: terms.share(token_set(stored.chunks[chunk].text)) for chunk in dict.fromkeys(chunks)}

    def neighbour(sid: int, chunk: int) -> tuple[float, float]:
        """The word and character-pair shares of a sentence of the same passage; 0 past its ends."""
        if sid not in shares:
            text = _neighbour(stored, sid, chunk)
            shares[sid], pairs[sid] = (terms.share(token_set(text)), _bigram_share(terms, text)) if text else (0, 0)
        return shares[sid], pairs[sid]

    spans = [stored.sentences_of(chunk) for chunk in chunks]
    before = [
        neighbour(c.sentence - 1, chunk) if c.sentence > span.start else (0, 0)
        for c, chunk, span in zip(candidates, chunks, spans, strict=True)
    ]
    after = [
        neighbour(c.sentence + 1, chunk) if c.sentence < span.stop - 1 else (0, 0)
        for c, chunk, span in zip(candidates, chunks, spans, strict=True)
    ]
    ranks = np.array([c.passage_rank for c in candidates])
    fused = np.array([h.score / top_fused if top_fused else 0.0 for h in hits])
    dense_gap = np.array([top_dense - h.dense_adjusted for h in hits])
    lexical = np.array([h.lexical / top_lexical if top_lexical > 0 else 0.0 for h in hits])
    contents = [_content_tokens(t) for t in tokens]
    # the English view's cosines, as retrieval computed them (0 where the question doesn't read it)
    glossed = np.array([outcome.view_scores.get(c.sentence, 0.0) for c in candidates])
    # whether that English is a model's verified translation rather than a word-for-word gloss
    rendered = stored.rendered if stored.rendered is not None and outcome.view_scores else None
    translated = [1.0 if rendered is not None and rendered[c.sentence] else 0.0 for c in candidates]
    latin = len(terms.latin)
    columns = [
        cos,
        cos_best - cos,
        1.0 / (1.0 + cos_rank),
        ranks.astype(float),
        fused[ranks],
        dense_gap[ranks],
        lexical[ranks],
        lex,
        lex_best - lex,
        [terms.count_share(t) for t in tokens],
        [b[0] for b in before],
        [a[0] for a in after],
        [passage_share[chunk] for chunk in chunks],
        lex_local,
        bigram,
        bigram_best - bigram,
        [b[1] for b in before],
        [a[1] for a in after],
        [len(terms.latin & t) / latin if latin else 0.0 for t in tokens],
        [math.log1p(len(text)) for text in texts],
        [1.0 if c.sentence == span.start else 0.0 for c, span in zip(candidates, spans, strict=True)],
        [1.0 if c.sentence == span.stop - 1 else 0.0 for c, span in zip(candidates, spans, strict=True)],
        [1.0 if value >= best_in_chunk[chunk] else 0.0 for value, chunk in zip(cosines, chunks, strict=True)],
        [len(content - question_tokens) / len(content) if content else 0.0 for content in contents],
        glossed,
        glossed.max() - glossed,
        translated,
    ]
    matrix = np.empty((len(candidates), len(CANDIDATE_FEATURES)), dtype=np.float32)
    matrix[:, : len(columns)] = np.array(columns, dtype=np.float64).T
    matrix[:, len(columns)] = english
    matrix[:, len(columns) + 1 : len(columns) + 1 + len(asked)] = asked
    matrix[:, len(columns) + 1 + len(asked) :] = [held_vector(text) for text in texts]
    return matrix


@lru_cache(maxsize=131072)
def _content_tokens(tokens: frozenset[str]) -> frozenset[str]:
    """A sentence's tokens but its Latin-script words and numbers (read once per sentence)."""
    return frozenset(t for t in tokens if not _LATIN_TOKEN.fullmatch(t))


def _local_shares(terms: Terms, tokens: Sequence[frozenset[str]]) -> np.ndarray:
    """Each text's share of the question's words, each word weighted by its rarity among these texts
    too: the words every candidate holds (the article's topic) say little of which one answers."""
    if not terms.groups:
        return np.zeros(len(tokens))
    holds = np.array([[bool(g & t) for g in terms.groups] for t in tokens], dtype=float)
    rarity = np.log((len(tokens) + 0.5) / (holds.sum(axis=0) + 0.5))  # 0 for a word all of them hold
    weights = np.asarray(terms.weights) * rarity
    total = weights.sum()
    return holds @ weights / total if total > 0 else np.zeros(len(tokens))


def _neighbour(stored: StoredIndex, sid: int, chunk: int) -> str:
    """The text of a sentence of the same passage, or '' past its ends."""
    if 0 <= sid < len(stored.sentences) and stored.sentences[sid].chunk == chunk:
        return stored.sentence_text(stored.sentences[sid])
    return ""


def _bigram_share(terms: Terms, text: str) -> float:
    return terms.bigram_share(bigram_set(text)) if terms.bigrams else 0.0  # no pairs to cut for English
