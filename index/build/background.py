"""The background: generic off-topic questions, embedded at build time against the index.

Used twice: to correct each passage's cosine for how close it is to *any* question in the
question's language (index/retrieve/retriever.py), and to tell how far a question's best match
stands above what unrelated questions get (the gates' evidence, index/answer/decide.py).
"""

from __future__ import annotations

import hashlib
from importlib import resources

import numpy as np

from index.build.store import BIAS_LANGUAGES, Background
from index.text.language import detect_language

NEIGHBOURS = 10  # background questions averaged per passage


def background_digest() -> str:
    return hashlib.sha256("\n".join(background_questions()).encode()).hexdigest()


def background_questions() -> list[str]:
    text = resources.files("index").joinpath("data/background_questions.txt").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _bias(questions: np.ndarray, vectors: np.ndarray, k: int) -> np.ndarray:
    """Mean cosine of each vector with its k most similar background questions."""
    if len(vectors) == 0 or len(questions) == 0:
        return np.zeros(len(vectors), dtype=np.float32)
    k = min(k, len(questions))
    out = np.empty(len(vectors), dtype=np.float32)
    for begin in range(0, len(vectors), 65536):  # bounded memory on large corpora
        sims = questions @ vectors[begin : begin + 65536].T
        out[begin : begin + 65536] = -np.sort(-sims, axis=0)[:k].mean(axis=0)
    return out


def compute_background(
    question_vectors: np.ndarray,
    chunk_vectors: np.ndarray,
    sentence_vectors: np.ndarray,
    k: int = NEIGHBOURS,
    languages: list[str] | None = None,
) -> Background:
    """``languages``: of each row of ``question_vectors`` (default: the bundled questions', in order)."""
    if languages is None:
        languages = ["zh" if detect_language(q) == "zh" else "en" for q in background_questions()]
    by_language = {lang: question_vectors[[i for i, x in enumerate(languages) if x == lang]] for lang in BIAS_LANGUAGES}
    top = (question_vectors @ chunk_vectors.T).max(axis=1) if len(chunk_vectors) else np.zeros(len(languages))
    return Background(
        vectors=question_vectors,
        languages=languages,
        top=top.astype(np.float32),
        chunk_bias={lang: _bias(v, chunk_vectors, k) for lang, v in by_language.items()},
        sentence_bias={lang: _bias(v, sentence_vectors, k) for lang, v in by_language.items()},
    )
