"""Questions that point at a part of the article (index/retrieve/references.py) and how they are answered."""

from __future__ import annotations

import pytest

from index.build.chunking import SECTION_SEPARATOR
from index.retrieve.references import (
    LAST,
    ItemReference,
    SectionReference,
    chinese_number,
    item_reference,
    named_section,
    referenced_chunks,
    section_reference,
)


@pytest.mark.parametrize(
    ("question", "position"),
    [
        ("How does the conclusion characterize Cursor's choice?", LAST),
        ("What does the article say about the wrapper criticism at the end?", LAST),
        ("How does the article end?", LAST),
        ("What's in the final section?", LAST),
        ("结语里怎么定性这件事的", LAST),
        ("文章最后一句话说的啥", LAST),
        ("文章的结论是什么", LAST),
        ("What does the article conclude?", LAST),
        ("作者最后的结论是啥", LAST),
        ("What's the hidden storyline in section 5?", 5),
        ("Summarize the third section", 3),
        ("part two, please", 2),
        ("What does the second part of the article argue?", 2),
        ("第三部分讲了什么", 3),
        ("第 2 节说了什么", 2),
        ("What does the intro say?", 1),
        ("文章开头说了什么", 1),
    ],
)
def test_section_reference(question: str, position: int) -> None:
    assert section_reference(question) == SectionReference(position)


@pytest.mark.parametrize(
    "question",
    [
        "Cursor最后怎么做的",  # 最后 alone: "in the end"
        "行业启示第一条是啥",  # a lesson's number, not a section
        "Who won at the end?",  # not about the article
        "What happens at the end of training?",
        "What's the first part of the RL training?",  # a stage, not the article's first section
        "Which company did Cursor partner with for compute?",
        "How did Cursor conclude the deal?",
        "传闻的结论是什么",  # the rumour's verdict (section 1), not the article's conclusion
    ],
)
def test_no_section_reference(question: str) -> None:
    assert section_reference(question) is None


def test_chinese_number() -> None:
    numbers = ("一", "五", "十", "十二", "二十", "二十三", "7", "两")
    assert [chinese_number(t) for t in numbers] == [1, 5, 10, 12, 20, 23, 7, 2]


def test_referenced_chunks_follow_the_numbered_headings(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored

    def sections(position: int) -> set[str]:
        chunks = referenced_chunks(stored, SectionReference(position))
        assert chunks == sorted(chunks)  # document order
        return {stored.chunks[c].section.split(SECTION_SEPARATOR)[0] for c in chunks}

    assert sections(LAST) == {"结语"}
    assert sections(5) == {"五、马斯克为什么站台？"}
    assert sections(1) == {"一、传闻是真的"}
    assert len(referenced_chunks(stored, SectionReference(2))) > 1  # 二、 and its 阶段 sub-sections
    assert referenced_chunks(stored, SectionReference(9)) == []


def test_the_section_pointed_at_comes_first(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    result = engine.search("What's the hidden storyline in section 5?")
    assert result.passages[0].section.startswith("五、")
    conclusion = referenced_chunks(stored, SectionReference(LAST))
    outcome = engine.snapshot.retriever.search(
        engine.embedder.encode_queries(["Who got a 600 billion dollar option?"])[0], ["option"], 5, focus=conclusion
    )
    assert [h.chunk for h in outcome.hits[: len(conclusion)]] == conclusion


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("What does the conclusion call Cursor's decision?", "结语"),  # e5 alone prefers section 5
        ("How does the article end?", "结语"),
        ("第五部分讲了什么", "五、马斯克为什么站台？"),
    ],
)
def test_a_question_about_a_section_is_answered_from_it(engine, question: str, section: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert not result.abstained
    assert result.citations and all(c.section.split(SECTION_SEPARATOR)[0] == section for c in result.citations)


def test_a_section_is_named_by_every_word_of_its_heading(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    lessons = named_section(stored, frozenset({"给", "行业", "几点", "启示"}))
    assert {stored.chunks[c].section.split(SECTION_SEPARATOR)[0] for c in lessons} == {"六、对行业的启示"}
    assert named_section(stored, frozenset({"行业"})) == []  # one word of two names nothing
    assert named_section(stored, frozenset({"结语"})) == []  # a one-word heading is a position's, not a name
    assert named_section(stored, frozenset({"行业", "启示", "马斯克", "站台"})) == []  # two named: neither


@pytest.mark.parametrize(
    ("question", "section"),
    [
        ("文章最后讲了对行业的哪几条启示", "六、对行业的启示"),  # "at the end" loosely: the heading says where
        ("第五部分说马斯克为什么站台", "五、马斯克为什么站台？"),  # the number and the heading agree
        ("文章最后一句话说的啥", "结语"),
    ],
)
def test_a_section_named_by_its_heading_outranks_a_position(engine, question: str, section: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert result.citations and all(c.section.split(SECTION_SEPARATOR)[0] == section for c in result.citations)


@pytest.mark.parametrize(
    ("question", "reference"),
    [
        ("what's the 2nd lesson for the industry", ItemReference(2, "lesson")),
        ("What is the first stage of training?", ItemReference(1, "stage")),
        ("What was the third big thing they did?", ItemReference(3, "thing")),
        ("What's the last takeaway?", ItemReference(LAST, "takeaway")),
        ("explain stage two", ItemReference(2, "stage")),
        ("行业启示第一条是啥", ItemReference(1, "条")),
        ("第二个启示是什么", ItemReference(2, "启示")),
        ("第二阶段做了什么", ItemReference(2, "阶段")),
        ("最后一点启示是什么", ItemReference(LAST, "点")),
    ],
)
def test_item_reference(question: str, reference: ItemReference) -> None:
    assert item_reference(question) == reference


@pytest.mark.parametrize(
    "question",
    [
        "What's the first part of the RL training?",  # a part is a section
        "那个第42行的例子讲的是什么",  # a line number
        "How much is Musk's right of first refusal?",
        "Cursor 是第一个这么做的吗",
        "第三部分讲了什么",  # a section (section_reference)
    ],
)
def test_no_item_reference(question: str) -> None:
    assert item_reference(question) is None


@pytest.mark.parametrize(
    ("question", "expected", "not_expected"),
    [
        ("what's the 2nd lesson for the industry", "第二，垂直场景的价值被低估了", "第一，"),
        ("行业启示第一条是啥", "第一，开源模型的威力正在被重新定义", "第二，"),
        ("What's the last lesson?", "第三，透明度正在变成护城河", "第二，"),  # 启示 names that list, not 阶段's
        ("What was the first thing Cursor did in RL?", "定向 RL", "合成数据"),  # bullets, not the 阶段 list
        ("What's the third thing they did in RL?", "Muon", "定向 RL"),
        ("What is the first stage of training?", "继续预训练", "强化学习"),
    ],
)
def test_a_question_about_one_item_of_a_list_gets_that_item(
    engine, question: str, expected: str, not_expected: str
) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(question)
    assert expected in result.answer and not_expected not in result.answer
    assert expected in result.passages[0].text  # the item's passage comes first


def test_an_item_that_opens_a_list_is_answered_with_it(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("第二阶段做了什么")  # 阶段二 → "他们做了三件事：" and its bullets, not the 2nd bullet alone
    assert "他们做了三件事" in result.answer and result.answer.count("•") == 3
