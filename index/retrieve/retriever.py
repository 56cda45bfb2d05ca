"""Hybrid retrieval: dense (FAISS inner product) fused with BM25 by weighted reciprocal rank.

Dense scores are corrected two ways before ranking, both measured on the dev questions
(README, "How the numbers were chosen"):
- each passage's cosine minus its mean cosine with background questions of the question's
  language (CSLS-style): an English question otherwise prefers any English-looking passage;
- a passage scores as its best sentence when that beats the whole: short facts inside long
  passages are found by the sentence they are in.

A non-Chinese question's vector (unsteered) also ranks the passages by their sentences' English glosses
(the index's English view, english/view.py), a third ranking in the fusion.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from index.build.chunking import passage_text
from index.build.lexical import LexicalIndex
from index.build.store import StoredIndex, search_vectors
from index.english.dictionary import expand, position_forms, translated_positions, translation
from index.english.view import reads_view

Mode = Literal["dense", "lexical", "hybrid"]
PHRASE_WORDS = 2  # a phrase's translation weighs as the words it says (crosslingual._keys: two-word phrases)


@dataclass(frozen=True)
class RetrievalParams:
    bias_weight: float = 1.0
    rrf_k: int = 20
    lexical_weight: dict[str, float] = field(default_factory=lambda: {"zh": 1.0, "en": 1.0})
    pool: int = 50  # candidates from each side before fusion
    # A non-Chinese question's vector is steered this much toward the mean vector of the Chinese
    # words that translate it (Engine): e5 matches Chinese to Chinese better than English to Chinese.
    translation_weight: float = 0.25
    # A passage whose BM25 score is this many times the runner-up's (or the only one sharing a term)
    # is the lexical side's clear pick: its fused score gains about what five dense ranks are worth
    # near the top, enough to beat a passage that wins only by a few dense ranks. Measured without
    # it (docs/evaluation.md): nothing changes on the public held-out split; on our holdout English
    # hit@1 falls 0.90 → 0.88, on English follow-ups 0.80 → 0.75.
    lexical_lead: float = 1.8
    lexical_lead_bonus: float = 0.01
    # the English view's weight in the fusion, non-Chinese questions: XQuAD's English hit@1 is best at
    # 1-2, ours at 0 (an essay's colloquial prose glosses worse than Wikipedia's); 1 is between
    gloss_weight: float = 1.0

    def lexical_weight_for(self, language: str) -> float:
        return self.lexical_weight.get(language, self.lexical_weight.get("en", 1.0))


@dataclass(frozen=True)
class Hit:
    chunk: int  # position in the index's chunk list
    score: float  # the fused score that ranks hits
    dense: float  # raw cosine of question and passage
    dense_adjusted: float  # corrected cosine (background-scaled, best of passage and its sentences)
    lexical: float  # BM25 score (0 if no shared term)


@dataclass(frozen=True)
class SearchOutcome:
    hits: list[Hit]
    sentence_scores: dict[int, float]  # corrected cosine of the candidates' sentences
    dense_order: list[int]  # candidate chunks by corrected dense score
    lexical_order: list[int]  # candidate chunks by BM25 (those with a shared term)
    # the candidates' sentences' English glosses' cosines with the question (english/view.py); empty
    # for a question the view isn't read for, or an index without one
    view_scores: dict[int, float] = field(default_factory=dict)


def rrf(ranked: list[list[int]], weights: list[float], k: int) -> dict[int, float]:
    """Weighted reciprocal-rank fusion of several rankings (item ids, best first)."""
    fused: dict[int, float] = {}
    for ranking, weight in zip(ranked, weights, strict=True):
        for rank, item in enumerate(ranking):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank + 1)
    return fused


def _best_first(candidates: list[int], spans: list[range], sentence_scores: np.ndarray) -> list[int]:
    """The candidate passages by their best sentence's score (``sentence_scores``: their sentences'
    in order); a passage with no sentence is left out."""
    best: dict[int, float] = {}
    at = 0
    for chunk, span in zip(candidates, spans, strict=True):
        if len(span):
            best[chunk] = float(sentence_scores[at : at + len(span)].max())
        at += len(span)
    return sorted(best, key=lambda c: (-best[c], c))


def lexical_leader(order: list[int], scores: np.ndarray, lead: float) -> int | None:
    """The passage BM25 clearly prefers: at least ``lead`` times the runner-up's score, or alone."""
    if not order:
        return None
    if len(order) == 1 or scores[order[0]] >= lead * scores[order[1]]:
        return order[0]
    return None


def top_indices(scores: np.ndarray, n: int) -> np.ndarray:
    """Indices of the n largest scores, best first (ties by position, for stable output)."""
    n = min(n, len(scores))
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    part = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
    return part[np.lexsort((part, -scores[part]))]


def bias_language(language: str) -> str:
    return "zh" if language == "zh" else "en"


class Retriever:
    """Searches one loaded index version. Immutable: a reload builds a new Retriever."""

    def __init__(self, stored: StoredIndex, params: RetrievalParams | None = None) -> None:
        self.stored = stored
        self.params = params or RetrievalParams()
        # stored with the version since it was; a version from before is indexed here
        lexical = stored.lexical
        self.lexical = lexical if lexical is not None else LexicalIndex([passage_text(c) for c in stored.chunks])

    def expand(self, query_tokens: list[str]) -> list[str]:
        return expand(query_tokens, self.stored.glossary, self.lexical.vocabulary)

    def term_groups(self, query_tokens: list[str]) -> list[list[str]]:
        """Each English word with its translations, as one BM25 term (LexicalIndex.grouped_scores);
        other tokens alone, and the translation of a two-word phrase twice: it says two of the
        question's words ("value for money" → 性价比 outweighs the 价值 of "value" alone). Only
        forms the corpus has."""
        vocabulary = self.lexical.vocabulary
        groups: list[list[str]] = []
        seen: set[str] = set()
        for token in dict.fromkeys(query_tokens):
            forms = [f for f in dict.fromkeys([token, *self.translation([token])]) if f in vocabulary and f not in seen]
            seen.update(forms)
            if forms:
                groups.append(forms)
        phrases = [f for f in dict.fromkeys(self.expand(query_tokens)) if f in vocabulary and f not in seen]
        return groups + [[f] for f in phrases for _ in range(PHRASE_WORDS)]

    def lexical_scores(self, query_tokens: list[str], language: str) -> np.ndarray:
        """BM25 of every passage. An English question's words are scored with their translations
        as one term each; a Chinese one's Latin words are names, scored (and expanded) as they were
        measured best: the grouping changed no Chinese answer on dev and cost two holdout hit@1s."""
        if language == "zh":
            return self.lexical.scores(self.expand(query_tokens))
        return self.lexical.grouped_scores(self.term_groups(query_tokens))

    def translation(self, query_tokens: list[str]) -> list[str]:
        return translation(query_tokens, self.stored.glossary, self.lexical.vocabulary)

    def translated_positions(self, query_tokens: list[str]) -> set[int]:
        """Positions of the question's words that translate into words of the corpus; a lone
        character is too ambiguous to show the article covers a word ("good" → 好, "new" → 新)."""
        return translated_positions(query_tokens, self.stored.glossary, self.lexical.vocabulary, whole_words=True)

    def passages_with_all(self, query_tokens: list[str], positions: list[int]) -> set[int]:
        """The passages that have, for each of these positions, its token or a translation of it."""
        forms = position_forms(query_tokens, self.stored.glossary, self.lexical.vocabulary)
        found: set[int] | None = None
        for position in positions:
            have = self.documents_with_any(forms[position])
            found = have if found is None else found & have
            if not found:
                return set()
        return found or set()

    def written_form(self, word: str, sample: int = 20) -> str | None:
        """How the corpus most often writes a Latin word ("cursor" → "Cursor"), judged on the first
        few passages that contain it; None if none does."""
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", re.IGNORECASE)
        forms = Counter(
            m.group(0)
            for chunk in self.lexical.documents_with(word.lower(), sample)
            for m in pattern.finditer(self.stored.chunks[chunk].text)
        )
        return forms.most_common(1)[0][0] if forms else None

    def passage_share(self, token: str) -> float:
        """The share of passages that contain the token (0 when none does)."""
        return self.lexical.document_frequency(token) / max(1, len(self.lexical))

    def documents_with_any(self, forms: Iterable[str]) -> set[int]:
        """The passages that contain at least one of these forms."""
        everywhere = len(self.lexical)
        return {d for form in forms for d in self.lexical.documents_with(form, everywhere)}

    def group_share(self, forms: list[str]) -> float:
        """The share of passages that contain any of these forms of one word."""
        return len(self.documents_with_any(forms)) / max(1, len(self.lexical))

    def term_weights(self, query_tokens: list[str]) -> dict[str, float]:
        """The question's tokens and their translations, each weighted by its rarity among the
        passages (BM25's idf); a token no passage has weighs most: the question asks about it."""
        n = len(self.lexical)
        # an English word the article lacks but translates is said by its translation: counted
        # twice, "good value for money" outweighed the 性价比 that answers it
        translated = self.translated_positions(query_tokens)
        said_by_translation = {
            t for i, t in enumerate(query_tokens) if i in translated and not self.lexical.document_frequency(t)
        }
        return {
            token: math.log((n + 1) / (self.lexical.document_frequency(token) + 0.5))
            for token in dict.fromkeys(self.expand(query_tokens))
            if token not in said_by_translation
        }

    def _view_cosines(self, rows: np.ndarray, view_vector: np.ndarray | None, language: str) -> np.ndarray | None:
        """The English glosses' cosines of these sentences with the question; None where the view
        isn't read (a Chinese question, no vector, an index without a view)."""
        vectors = self.stored.gloss_vectors
        if vectors is None or view_vector is None or not reads_view(language):
            return None
        return vectors[rows] @ view_vector

    def _dense_pool(self, query_vector: np.ndarray, n: int) -> list[int]:
        n = min(n, self.stored.vectors.ntotal)
        if n == 0:
            return []
        return [int(i) for i in search_vectors(self.stored.vectors, query_vector, n) if i >= 0]

    def search(
        self,
        query_vector: np.ndarray,
        query_tokens: list[str],
        k: int,
        mode: Mode = "hybrid",
        language: str = "zh",
        focus: list[int] | None = None,
        view_vector: np.ndarray | None = None,
    ) -> SearchOutcome:
        """``focus``: the passages of the section the question points at ("per the conclusion"),
        ranked before the others (retrieve/references.py). ``view_vector``: the question's vector (not steered
        toward the corpus's words), which a non-Chinese question's English view ranks with."""
        params, stored = self.params, self.stored
        pool = max(k * 10, params.pool)
        lexical_scores = self.lexical_scores(query_tokens, language)
        lexical_order = [int(i) for i in top_indices(lexical_scores, pool) if lexical_scores[i] > 0]
        focus = focus[:pool] if focus and mode == "hybrid" else []
        candidates = sorted(set(self._dense_pool(query_vector, pool)) | set(lexical_order) | set(focus))
        if not candidates:
            return SearchOutcome([], {}, [], [])

        lang = bias_language(language)
        cand = np.array(candidates, dtype=np.int64)
        raw = stored.vectors.reconstruct_batch(cand) @ query_vector
        adjusted = raw - params.bias_weight * stored.background.chunk_bias[lang][cand]
        # the candidates' sentences in one product; a passage scores as its best sentence when that beats it
        spans = [stored.sentences_of(chunk) for chunk in candidates]
        rows = np.fromiter((s for span in spans for s in span), dtype=np.int64)
        sims = stored.sentence_vectors[rows] @ query_vector
        sims = sims - params.bias_weight * stored.background.sentence_bias[lang][rows]
        sentence_scores = dict(zip(rows.tolist(), sims.tolist(), strict=True))
        viewed = self._view_cosines(rows, view_vector, language)
        view_scores = dict(zip(rows.tolist(), viewed.tolist(), strict=True)) if viewed is not None else {}
        lengths = np.array([len(span) for span in spans])
        filled = lengths > 0
        if filled.any():
            starts = (np.cumsum(lengths) - lengths)[filled]
            adjusted[filled] = np.maximum(adjusted[filled], np.maximum.reduceat(sims, starts))
        dense_of = dict(zip(candidates, adjusted.tolist(), strict=True))
        raw_of = dict(zip(candidates, raw.tolist(), strict=True))
        dense_order = sorted(candidates, key=lambda c: (-dense_of[c], c))

        if mode == "dense":
            fused = dense_of
        elif mode == "lexical":
            fused = {c: float(lexical_scores[c]) for c in lexical_order}
        else:
            weight = params.lexical_weight_for(language)
            rankings, weights = [dense_order, lexical_order], [1.0, weight]
            if viewed is not None and params.gloss_weight > 0:
                rankings, weights = [*rankings, _best_first(candidates, spans, viewed)], [*weights, params.gloss_weight]
            fused = rrf(rankings, weights, params.rrf_k)
            leader = lexical_leader(lexical_order, lexical_scores, params.lexical_lead)
            if leader is not None:
                fused[leader] += weight * params.lexical_lead_bonus
            fused.update((c, fused.get(c, 0.0)) for c in focus)
        pointed = set(focus)  # the section the question points at comes first
        order = sorted(fused, key=lambda c: (c not in pointed, -fused[c], c))[:k]
        hits = [Hit(c, fused[c], raw_of[c], dense_of[c], float(lexical_scores[c])) for c in order]
        return SearchOutcome(hits, sentence_scores, dense_order, lexical_order, view_scores)
