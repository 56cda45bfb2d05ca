"""index/build/background.py: the generic off-topic questions and the per-language bias they give each
passage, on small hand-made vectors (no model)."""

from __future__ import annotations

import numpy as np
import pytest

from index.build.background import background_digest, background_questions, compute_background
from index.text.language import detect_language


def unit(*rows: list[float]) -> np.ndarray:
    vectors = np.array(rows, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_questions_are_in_both_languages_without_comments_or_blanks() -> None:
    questions = background_questions()
    assert questions and all(q.strip() == q and q and not q.startswith("#") for q in questions)
    languages = {detect_language(q) for q in questions}
    assert {"zh", "en"} <= languages
    assert len(background_digest()) == 64


def test_bias_is_the_mean_cosine_with_the_nearest_questions_of_each_language() -> None:
    count = len(background_questions())
    languages = ["zh" if detect_language(q) == "zh" else "en" for q in background_questions()]
    # every English question points along x, every Chinese one along y
    questions = unit(*([1.0, 0.0, 0.0] if lang == "en" else [0.0, 1.0, 0.0] for lang in languages))
    chunks = unit([1.0, 0.0, 0.0], [0.0, 0.0, 1.0])  # one "English-looking" passage, one neither
    sentences = unit([1.0, 1.0, 0.0])
    background = compute_background(questions, chunks, sentences, k=3)
    assert background.languages == languages and len(background.top) == count
    assert background.chunk_bias["en"] == pytest.approx([1.0, 0.0], abs=1e-6)
    assert background.chunk_bias["zh"] == pytest.approx([0.0, 0.0], abs=1e-6)
    assert background.sentence_bias["en"] == pytest.approx([2**-0.5], abs=1e-6)
    # each question's best cosine over the chunks: 1 for the English ones (chunk 0), 0 for the rest
    assert background.top == pytest.approx([1.0 if lang == "en" else 0.0 for lang in languages], abs=1e-6)


def test_an_empty_corpus_has_no_bias() -> None:
    count = len(background_questions())
    questions = unit(*([1.0, 0.0] for _ in range(count)))
    empty = np.zeros((0, 2), dtype=np.float32)
    background = compute_background(questions, empty, empty)
    assert all(len(bias) == 0 for bias in background.chunk_bias.values())
    assert len(background.top) == count


def test_a_background_without_one_question_loses_its_pull_on_the_passages() -> None:
    """Training asks each background question of a corpus as a new question: the passages' bias is
    made again without it, else a passage near it is already corrected for it (a leak)."""
    questions = unit([1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.0, 1.0])
    languages = ["en", "en", "zh"]
    chunks = unit([1.0, 0.0, 0.0])
    full = compute_background(questions, chunks, chunks, k=1, languages=languages)
    assert full.chunk_bias["en"] == pytest.approx([1.0], abs=1e-6)
    without = compute_background(questions[1:], chunks, chunks, k=1, languages=languages[1:])
    assert without.chunk_bias["en"] == pytest.approx([0.6], abs=1e-6)
    assert without.sentence_bias["en"] == pytest.approx([0.6], abs=1e-6)
    assert without.chunk_bias["zh"] == pytest.approx([0.0], abs=1e-6)
    assert without.languages == ["en", "zh"] and len(without.top) == 2
