"""The background's questions as off-topic training examples (index/train/examples.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index.answer.decide import EVIDENCE
from index.build.background import background_questions
from index.evaluate import public
from index.text.language import detect_language
from index.train.examples import collect_background
from tests.index.support import TINY_DOCS


@pytest.mark.model
def test_background_questions_are_off_topic_examples_judged_without_themselves(tmp_path: Path) -> None:
    """Each is examined as a new question would be: with itself left out of the background, its
    nearest background question is another one (kept in, it would be itself, cosine 1)."""
    found = public.PublicSet("tiny", documents=dict(TINY_DOCS))
    examples = collect_background(found, tmp_path)
    questions = background_questions()
    assert len(examples) == len(questions)
    assert {(e.source, e.kind) for e in examples} == {("background", "off")}
    assert [e.language == "zh" for e in examples] == [detect_language(q) == "zh" for q in questions]
    assert len({e.group for e in examples}) == len(examples)  # a question's examples share one fold
    nearest = np.array([e.evidence[EVIDENCE.index("background_max")] for e in examples])
    assert (nearest < 0.99).all() and (nearest > 0.5).all()
    assert all(not e.labels.any() for e in examples)
    again = collect_background(found, tmp_path)  # kept: read back, not examined again
    assert [e.id for e in again] == [e.id for e in examples]
