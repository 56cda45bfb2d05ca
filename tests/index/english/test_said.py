"""index/english/said.py: a quantity of a Chinese sentence as an English reader reads it."""

from __future__ import annotations

import pytest

from index.english.said import estimates, estimates_in, in_english
from index.text.bounds import mentions


def said(text: str) -> list[str]:
    found = mentions(text)
    return [in_english(text, found, i, m.quantity.end)[2] for i, m in enumerate(found)]


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("账期延长到180天以上", ["over 180 days"]),  # the bound after the unit of time
        ("只用了1天", ["1 day"]),
        ("3个月", ["3 months"]),
        ("有13人转到了对手", ["13 people"]),  # 人 glossed alone is "man"
        ("销量只有九分之一左右", ["about 1/9"]),
        ("最高 75.6%", ["up to 75.6%"]),
        ("售价是国内的1.5倍到2倍", ["1.5× to", "2×"]),  # a range's first end says "to"
        ("2026 年 3 月 27 日发布", ["March 27, 2026"]),
    ],
)
def test_a_quantity_with_what_the_words_beside_it_say(text: str, english: list[str]) -> None:
    assert said(text) == english


def test_a_bound_after_a_counts_measure_word_is_the_counts() -> None:
    """300 万辆以上: the measure word 辆 is the count's (the lexicon's classifiers), then its bound."""
    text = "年销量 300 万辆以上"
    m = mentions(text)[0]
    assert in_english(text, [m], 0, text.index("辆") + 1)[1:] == (len(text), "over 3 million")


def test_what_a_range_or_a_bound_covers_is_the_pieces_span() -> None:
    """The words read into the English are no longer glossed on their own: 以上 and 天 are in the span."""
    text = "账期延长到180天以上。"
    start, end, _ = in_english(text, mentions(text), 0, mentions(text)[0].quantity.end)
    assert text[start:end] == "180天以上"


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("现在往往只剩几千元", "several thousand yuan"),
        ("成本动辄数十亿元", "several billion yuan"),
        ("几千亿美元的算力投入", "several hundred billion US dollars"),
        ("一台十几万元的车", "over 100,000 yuan"),  # ten-odd ten thousands
        ("七八十美元", "70 or 80 US dollars"),
        ("持续两三年的价格战", "two or three years"),
        ("几万人", "tens of thousands of people"),
        ("几十年", "dozens of years"),
    ],
)
def test_an_estimate_in_english(text: str, english: str) -> None:
    assert [e for _, _, e in estimates(text)] == [english]


@pytest.mark.parametrize("text", ["几个月", "数据显示", "三百五十个", "二〇二五年"])
def test_what_is_no_estimate(text: str) -> None:
    assert estimates(text) == []


def test_an_estimate_s_first_character_ending_a_word_is_the_word_s() -> None:
    """指数十分重要: 数 ends 指数 ("index"), 十分 is "very"; 两三家 takes its classifier along."""
    lexicon = {"指数": "index", "十分": "very"}
    assert estimates_in("这个指数十分重要", lexicon, []) == []
    classifiers = type("Lexicon", (dict,), {"measures": frozenset("家")})()
    assert estimates_in("两三家公司", classifiers, []) == [(0, 3, "two or three")]
