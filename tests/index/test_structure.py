"""Questions that point at a part of the article (index/structure.py) and how they are answered."""

from __future__ import annotations

import pytest

from index.chunking import SECTION_SEPARATOR
from index.structure import LAST, SectionReference, chinese_number, referenced_chunks, section_reference


@pytest.mark.parametrize(
    ("question", "position"),
    [
        ("How does the conclusion characterize Cursor's choice?", LAST),
        ("What does the article say about the wrapper criticism at the end?", LAST),
        ("How does the article end?", LAST),
        ("What's in the final section?", LAST),
        ("结语里怎么定性这件事的", LAST),
        ("文章最后一句话说的啥", LAST),
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
