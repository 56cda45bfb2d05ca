"""index/text/tokens.py: a sentence's Chinese words cut once each, beside the search tokens."""

from __future__ import annotations

from index.text.tokens import chinese_words, tokenize


def test_a_compound_is_one_word_where_search_also_yields_its_parts() -> None:
    assert {"强化", "学习", "强化学习"} <= set(tokenize("大规模强化学习"))
    assert chinese_words("大规模强化学习") == ["大规模", "强化学习"]


def test_only_chinese_words_and_no_stopwords() -> None:
    words = chinese_words("Cursor 的联创之一 Arvid Lunnemark 被挖去了 xAI。")
    assert "的" not in words and "了" not in words
    assert all("\u3400" <= c <= "\u9fff" for w in words for c in w)
