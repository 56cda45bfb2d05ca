"""index/text/tokens.py: a sentence's Chinese words cut once each, beside the search tokens."""

from __future__ import annotations

from index.text.tokens import chinese_words, nouns, tokenize


def test_a_compound_is_one_word_where_search_also_yields_its_parts() -> None:
    assert {"强化", "学习", "强化学习"} <= set(tokenize("大规模强化学习"))
    assert chinese_words("大规模强化学习") == ["大规模", "强化学习"]


def test_only_chinese_words_and_no_stopwords() -> None:
    words = chinese_words("Cursor 的联创之一 Arvid Lunnemark 被挖去了 xAI。")
    assert "的" not in words and "了" not in words
    assert all("\u3400" <= c <= "\u9fff" for w in words for c in w)


def test_nouns_are_the_things_a_clause_names_not_its_verbs() -> None:
    assert nouns("自家额外训练+RL 占了") == ["训练", "RL"]
    assert nouns("还会指出「第") == []
    assert "合成数据" in nouns("合成数据规模翻")  # a field term, given whole, is a noun
