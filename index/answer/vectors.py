"""A question's vectors: the one retrieval uses, the question's own, and the one the English view is
compared with. Glossary words' vectors are kept: a word is embedded once, beside the first question
that needs it.
"""

from __future__ import annotations

import threading

import numpy as np

from index.answer.understand import Query
from index.build.embedding import Embedder
from index.retrieve.retriever import Retriever
from index.text.language import detect_language, truecase, without_attribution

CONTEXT_WEIGHT = 0.5  # how much a follow-up's earlier questions steer retrieval


class QueryVectors:
    def __init__(self, embedder: Embedder, translation_weight: float) -> None:
        self.embedder = embedder
        self.translation_weight = translation_weight
        self._word_vectors: dict[str, np.ndarray] = {}  # glossary word → its query vector
        self._lock = threading.Lock()

    def of(self, query: Query, retriever: Retriever) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The vector retrieval uses; the question's own; and the question with its follow-up's
        context, unsteered, which the English view is compared with (the own vector of "and the
        price?" says nothing of what it asks).

        A non-Chinese question's vector is steered toward the mean vector of the corpus words
        that translate it (``translation_weight``); the gate judges the question's own vector."""
        language = query.language
        # in a Chinese question a Latin word is a name, and e5 reads "cursor" and "Cursor" as different
        # tokens: write it as the corpus does. An English one's "according to the article" pulls the
        # corpus's opinion passages (text/language.py)
        text = truecase(query.text, retriever.written_form) if language == "zh" else without_attribution(query.text)
        context = "\n".join((*query.earlier, *query.said)) or None
        if context and detect_language(context) == "zh":
            context = truecase(context, retriever.written_form)
        weight = self.translation_weight
        words = retriever.translation(list(query.tokens)) if language != "zh" and weight > 0 else []
        missing = self.unknown(words)
        texts = [text, *([context] if context else []), *missing]
        vectors = self.embedder.encode_queries(texts)
        plain = unit(vectors[0] + CONTEXT_WEIGHT * vectors[1] if context else vectors[0])
        own = unit(vectors[0])
        if not words:
            return plain, own, plain
        self._remember(missing, vectors[len(texts) - len(missing) :])
        with self._lock:
            translated = unit(np.mean([self._word_vectors[w] for w in words], axis=0))
        return unit(plain + weight * translated), own, plain

    def unknown(self, words: list[str]) -> list[str]:
        """The words (once each) whose vectors aren't kept yet."""
        with self._lock:
            return [w for w in dict.fromkeys(words) if w not in self._word_vectors]

    def known(self, word: str) -> bool:
        with self._lock:
            return word in self._word_vectors

    def _remember(self, words: list[str], vectors: np.ndarray) -> None:
        with self._lock:
            self._word_vectors.update(zip(words, vectors, strict=True))

    def learn(self, words: list[str]) -> None:
        """Embed glossary words ahead of the questions that need them (Engine.warm_up)."""
        missing = self.unknown(words)
        if missing:
            self._remember(missing, self.embedder.encode_queries(missing))


def unit(vector: np.ndarray) -> np.ndarray:
    return (vector / (np.linalg.norm(vector) or 1.0)).astype(np.float32)
