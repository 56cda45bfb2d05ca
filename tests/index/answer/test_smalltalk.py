"""Greetings and thanks (index/answer/smalltalk.py), and how the engine replies to them."""

from __future__ import annotations

import pytest

from index.answer.smalltalk import small_talk, small_talk_reply


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("hello", "greeting"),
        ("Hi bot!", "greeting"),
        ("good morning everyone", "greeting"),
        ("你好", "greeting"),
        ("在吗？", "greeting"),
        ("ok thanks 🙏", "thanks"),
        ("Thank you so much!", "thanks"),
        ("谢谢！👍", "thanks"),
        ("好的", "ack"),
        ("ok", "ack"),
        ("hi, what is Composer 2.5?", None),
        ("你好，Composer 2.5 多少钱", None),
        ("thanks, and what about pricing?", None),
        ("Hey Cursor", None),
        ("history", None),  # "hi" only as a word
        ("so much", None),  # nothing but the words said around them
        ("good morning everyone", "greeting"),
        ("👍", None),
        ("", None),
    ],
)
def test_small_talk(text: str, kind: str | None) -> None:
    assert small_talk(text) == kind


def test_small_talk_is_linear_in_the_text() -> None:
    """谢谢你 is 谢谢 + 你 or 谢谢你: a regex free to try both at each repeat took 0.6 s at 20 repeats
    and doubled with each one more."""
    assert small_talk("谢谢你" * 600) == "thanks"
    assert small_talk("谢谢你" * 600 + "吗x") is None
    assert small_talk("hi there " * 200 + "what") is None


def test_small_talk_reply_names_the_article() -> None:
    assert small_talk_reply("thanks", ["T"], "en").startswith("You're welcome! I answer questions about “T”")
    assert small_talk_reply("greeting", ["T"], "zh").startswith("你好！我回答关于《T》的问题")
    assert small_talk_reply("ack", [], "en").startswith("I answer questions about the article")


@pytest.mark.parametrize("text", ["hello", "谢谢！"])
def test_the_engine_answers_small_talk_without_quoting_the_article(engine, text: str) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask(text)
    assert result.abstained and not result.citations and not result.nearest_sections
    assert "Composer 2/2.5 技术拆解与行业启示" in result.answer
