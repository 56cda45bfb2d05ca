"""The understand step (index/answer/understand.py): pure, no index."""

from __future__ import annotations

import pytest

from index.answer.understand import clean_conversation, understand
from index.text.language import QuestionError

TITLES = ["Composer 2/2.5 技术拆解与行业启示"]


def test_a_question_alone() -> None:
    query = understand("What happened on May 18?")
    assert query.language == "en" and query.kind == "content" and query.earlier == ()
    assert "5 月 18 日" in query.text and query.asked == "What happened on May 18?"


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("hi", "small_talk"),
        ("谢谢", "small_talk"),
        ("Who wrote this article?", "meta"),
        ("这篇文章讲了什么？", "overview"),
    ],
)
def test_kinds(question: str, kind: str) -> None:
    assert understand(question, titles=TITLES, authors=["Kate"]).kind == kind


def test_a_follow_up_leans_on_the_conversation() -> None:
    query = understand("那价格呢？", ["Composer 2.5 的跑分是多少？"])
    assert query.earlier == ("Composer 2.5 的跑分是多少？",)
    assert "composer" in query.search_tokens and "价格" in query.search_tokens


def test_a_question_with_its_own_subject_is_asked_afresh() -> None:
    assert understand("Muon 是什么？", ["马斯克为什么站台？"]).earlier == ()


def test_a_question_after_ones_about_the_article_itself_is_asked_afresh_and_says_so() -> None:
    query = understand("她是哪天发的？", ["这篇文章是谁写的？"])
    assert query.earlier == () and query.after_article and query.refers_back
    assert not understand("那价格呢？", ["Composer 2.5 的跑分是多少？"]).after_article


def test_tell_me_more_is_asked_as_the_latest_question_with_a_subject() -> None:
    query = understand("详细说说", ["Composer 2.5 的跑分是多少？", "那价格呢？"])
    assert query.more and query.text == "那价格呢？" and query.earlier == ("Composer 2.5 的跑分是多少？",)


def test_a_conversation_string_is_one_question_a_line_and_empty_ones_go() -> None:
    assert clean_conversation("第一个问题\n🙂\n第二个问题") == ("第一个问题", "第二个问题")
    assert clean_conversation(None) == ()


def test_section_and_item_references() -> None:
    assert understand("What does the conclusion say?").section is not None
    assert understand("What is the 2nd lesson?").item is not None


@pytest.mark.parametrize("question", ["", "   ", "🙂🙂", "x" * 20_000])
def test_unusable_questions(question: str) -> None:
    with pytest.raises(QuestionError):
        understand(question)
