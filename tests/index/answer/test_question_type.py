"""What a question asks for and what a sentence holds (index/answer/question_type.py)."""

from __future__ import annotations

import pytest

from index.answer.question_type import ASKED, HELD, asked_type, asked_vector, held_vector, opens_with_pronoun


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("车票多少钱？", "number"),
        ("How many people live in Warsaw?", "number"),
        ("果园哪一年建成的？", "date"),
        ("火车几月开通？", "date"),
        ("When did the train start running?", "date"),
        ("谁种的苹果？", "person"),
        ("Who founded the orchard?", "person"),
        ("果园在哪里？", "place"),
        ("Where is the orchard?", "place"),
        ("为什么价格上涨了？", "reason"),
        ("Why did prices rise?", "reason"),
        ("怎么买票？", "method"),
        ("Is the train fast?", "yesno"),
        ("火车快吗？", "yesno"),
        ("果农说了什么？", "entity"),
        ("Tell me about trains.", "other"),
    ],
)
def test_asked_type(question: str, kind: str) -> None:
    assert asked_type(question) == kind
    vector = asked_vector(question)
    assert len(vector) == len(ASKED) + 1 and sum(vector) == 1.0


def test_held_vector() -> None:
    held = dict(zip(HELD, held_vector("2026年5月 营收增长 35%，因为 Cursor 卖得好。"), strict=True))
    assert held["digit"] and held["year"] and held["date"] and held["percent"] and held["latin"] and held["reason"]
    assert not held["table_row"] and not held["colon_end"]
    assert dict(zip(HELD, held_vector("他们做了三件事："), strict=True))["colon_end"]


@pytest.mark.parametrize(
    ("sentence", "opens"),
    [
        ("这是在为潜在的收购铺路。", True),  # goes on about what the sentence before named
        ("他们做了三件事：", True),
        ("「这 ID 基本等于 Kimi K2.5 + RL」", True),
        ("It was founded in 1990.", True),
        ("其实是用 Kimi K2.5 做的。", False),  # an adverb, not a pronoun
        ("• 马斯克之前还从 Cursor 挖过人。", False),
        ("The company was founded in 1990.", False),
    ],
)
def test_a_sentence_opening_with_a_pronoun(sentence: str, opens: bool) -> None:
    assert opens_with_pronoun(sentence) is opens
