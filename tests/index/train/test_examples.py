"""Training examples (index/train/examples.py): our development questions and follow-ups, the
background's questions as off-topic ones."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from index.answer.decide import EVIDENCE
from index.build.background import background_questions
from index.evaluate import public
from index.text.language import detect_language
from index.train.examples import collect, collect_background, own_set
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


def _write(path: Path, rows: list[dict[str, object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def test_our_sets_bring_the_dev_follow_ups_with_their_context_and_never_a_holdout(tmp_path: Path) -> None:
    eval_dir = tmp_path / "tests" / "eval"
    _write(eval_dir / "dev_a.jsonl", [{"id": "d1", "lang": "zh", "type": "in", "q": "苹果多少钱？", "facts": ["5 元"]}])
    follow = {"id": "f1", "lang": "zh", "type": "in", "q": "那香蕉呢？", "context": "苹果多少钱？", "facts": ["3 元"]}
    _write(eval_dir / "followups_dev.jsonl", [follow])
    _write(eval_dir / "followups_holdout.jsonl", [{**follow, "id": "f2"}])
    _write(eval_dir / "holdout_a.jsonl", [{"id": "h1", "lang": "zh", "type": "out", "q": "天气如何？"}])
    found = own_set(tmp_path)
    assert found is not None
    assert [(q.id, q.context, q.gold) for q in found.questions] == [
        ("d1", None, ("5 元",)),
        ("f1", "苹果多少钱？", ("3 元",)),
    ]


@pytest.mark.model
def test_a_follow_up_is_examined_with_the_question_before_it(tmp_path: Path) -> None:
    asked = public.PublicQuestion("f", "zh", "那香蕉呢？", ("3 元",), "in", "notes.md", context="苹果每斤多少钱？")
    alone = public.PublicQuestion("a", "zh", "那香蕉呢？", ("3 元",), "in", "notes.md")
    found = public.PublicSet("tiny", documents=dict(TINY_DOCS), questions=[asked, alone])
    follow_up, by_itself = collect(found, tmp_path, "own")
    assert follow_up.labels.any()  # the price passage is found from the thread
    assert follow_up.matrix.shape[1] == by_itself.matrix.shape[1]
    assert not np.array_equal(follow_up.evidence, by_itself.evidence)


@pytest.mark.model
def test_a_follow_up_saying_that_carries_the_sentence_retrieval_found_for_the_question_before(tmp_path: Path) -> None:
    """Training can't ask the answer model it is making what was said: retrieval's best sentence stands in."""
    from index.train.examples import _engine, _recalled

    engine = _engine(public.PublicSet("tiny", documents=dict(TINY_DOCS)), tmp_path / "tiny", None)
    stored = engine.snapshot.stored
    query = _recalled(engine, engine.understand(stored, "它为什么这么便宜？", "香蕉每斤多少钱？"), 5)
    texts = [stored.sentence_text(s) for s in stored.sentences]
    assert len(query.said) == 1 and query.said[0] in texts and "元" in query.said[0]
    alone = engine.understand(stored, "香蕉为什么这么便宜？", None)
    assert _recalled(engine, alone, 5) == alone  # nothing before it: nothing said
