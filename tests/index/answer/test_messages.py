"""The message catalogue (index/answer/messages.py): every key in both languages, the same fields in
each, and the fallbacks of the lookup."""

from __future__ import annotations

import string

import pytest

from index import message
from index.answer.messages import LANGUAGES, MESSAGES


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_key_has_every_language_and_the_same_fields_in_each() -> None:
    for key, texts in MESSAGES.items():
        assert set(LANGUAGES) <= set(texts), key
        assert all(text.strip() for text in texts.values()), key
        named = {language: fields(text) for language, text in texts.items()}
        assert len(set(map(frozenset, named.values()))) == 1, (key, named)


def test_fields_are_filled_and_a_missing_one_is_an_error() -> None:
    assert (
        message("ask.too_long", "zh", length=3000, limit=1000) == "问题太长了（3000 个字符，上限 1000）。请缩短后再问。"
    )
    assert "3000 characters; the limit is 1000" in message("ask.too_long", "en", length=3000, limit=1000)
    with pytest.raises(KeyError):
        message("ask.too_long", "en", length=3000)
    with pytest.raises(KeyError):
        message("no.such.key", "en")


def test_a_language_falls_back_to_its_base_then_to_english() -> None:
    assert message("command.help", "zh-TW") == "說明"  # its own text
    assert message("went_wrong", "zh-TW") == message("went_wrong", "zh")  # none of its own: Chinese
    assert message("went_wrong", "ja") == message("went_wrong", "ko") == message("went_wrong", "en")
