"""The learned question kind (index/answer/question_kind.py): its features, its file, and the shipped
model on questions whose kind no pattern names."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from index.answer.model import ModelError
from index.answer.question_kind import KINDS, KindModel, grams, load_kinds, save_kinds


def test_grams_are_words_and_character_pairs() -> None:
    found = grams("文中提到哪些基准？ Which benchmarks")
    assert {"哪些", "基准", "which", "benchmarks"} <= found
    assert "中提" in found  # a pair across jieba's words


def tiny(list_gram: str = "哪些") -> KindModel:
    """A model over a 2-d vector and one gram: the gram says list, the vector's first value reason."""
    weights = np.zeros((3, len(KINDS)), dtype=np.float32)
    weights[0, KINDS.index("reason")] = 5.0
    weights[2, KINDS.index("list")] = 5.0
    return KindModel(KINDS, (list_gram,), weights, np.zeros(len(KINDS), dtype=np.float32))


def test_the_kind_is_the_likeliest() -> None:
    model = tiny()
    assert model.kind(np.zeros(2), "有哪些基准") == "list"
    assert model.kind(np.array([1.0, 0.0]), "为什么") == "reason"
    assert model.kind(np.zeros(2), "为什么") == "fact"  # all equal: the first kind
    p = model.probabilities(np.stack([model.features(np.zeros(2), "哪些")]))
    assert p.shape == (1, len(KINDS)) and abs(p.sum() - 1) < 1e-6


def test_shares_come_in_the_extend_step_s_order_whatever_the_file_s() -> None:
    model = tiny()
    turned = KindModel(KINDS[::-1], model.vocabulary, model.weights[:, ::-1], model.bias[::-1])
    for question in ("有哪些基准", "为什么"):
        assert np.allclose(turned.shares(np.zeros(2), question), model.shares(np.zeros(2), question))
    assert model.shares(np.zeros(2), "有哪些")[KINDS.index("list")] > 0.5


def test_the_file_round_trips_and_a_broken_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kinds.json"
    save_kinds(tiny(), path)
    again = load_kinds(path)
    assert again is not None and again.kind(np.zeros(2), "有哪些") == "list"
    assert load_kinds(tmp_path / "none.json") is None  # no model: every question is a fact
    data = json.loads(path.read_text(encoding="utf-8"))
    data["bias"] = [0.0]
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelError, match="train --kinds"):
        load_kinds(tmp_path / "bad.json")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Composer 2.5 的训练分哪几个阶段？", "list"),
        ("Name every benchmark the table reports.", "list"),
        ("How much does Composer 2.5 Fast cost per million input tokens?", "fact"),
        ("Composer 2.5 在 SWE-bench Verified 上得了多少分？", "fact"),
    ],
)
def test_the_shipped_model_tells_lists_from_facts(engine, question: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    """Questions written for this test, in no training set."""
    from index.answer.understand import understand

    model = load_kinds()
    assert model is not None
    query = understand(question)
    own = engine.vectors.of(query, engine.snapshot.retriever)[1]
    assert model.kind(own, question) == kind
    examined = engine.examine(engine.snapshot, query, engine.settings.top_k, "hybrid")  # what the extend step reads
    assert examined.kinds is not None and KINDS[int(np.argmax(examined.kinds))] == kind


@pytest.mark.parametrize(
    ("question", "context", "about"),
    [
        ("How is this write-up split into parts?", None, True),  # no pattern names an outline
        ("这篇文章由哪几个章节组成？", None, True),
        ("What does the article say Composer 2.5 costs?", None, False),  # about what it discusses
        ("Cursor 的技术报告是哪天发的？", None, False),
        ("How is this write-up split into parts?", "Composer 2.5 多少钱？", False),  # in a conversation: as asked
    ],
)
def test_the_shipped_about_model_takes_questions_about_the_article_itself(  # type: ignore[no-untyped-def]
    engine, question: str, context: str | None, about: bool
) -> None:
    """Questions written for this test, in no training or evaluation set; the patterns take none of them."""
    from index.answer.about import is_meta_question, is_overview_question

    assert not is_meta_question(question) and not is_overview_question(question)
    assert (engine.ask(question, context=context, use_llm=False).kind == "overview") is about
