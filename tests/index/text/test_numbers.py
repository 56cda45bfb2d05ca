"""index/text/numbers.py: quantities with magnitude and unit, compared and rendered in English."""

from __future__ import annotations

from decimal import Decimal

import pytest

from index.text.amounts import render, renderings
from index.text.bounds import same_quantity, unsupported_quantities
from index.text.numbers import quantities


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("握有 600 亿美元收购", "US$60 billion"),
        ("320 亿参数", "32 billion"),
        ("用了 100 万个 GPU", "1 million"),
        ("规模翻 25 倍", "25×"),
        ("占了 85% 的算力", "85%"),
        ("成本是其他模型的 1/10", "1/10"),
        ("在 2026 年 3 月 27 日发布", "March 27, 2026"),
        ("5 月 18 日发布", "May 18"),
        ("输出 2.50 美元", "US$2.50"),
        ("他们做了三件事", "3"),
        ("每百万 token", "1 million"),
        ("3 万人", "30,000"),
        ("百分之十二", "12%"),
        ("一千五百元", "CN¥1,500"),
        ("第 42 行引用了未定义的变量", "line 42"),
        ("单车利润反而高出六成", "60%"),  # a tenth: 成
        ("占其总销量的两成出头", "20%"),
        ("平均租金上升约三成半", "35%"),
        ("销量只有比亚迪的九分之一左右", "1/9"),  # not 11.111…%: no whole percentage
        ("三分之二的用户", "2/3"),
        ("五分之一的成本", "20%"),
    ],
)
def test_chinese_quantities_render_in_english(text: str, english: str) -> None:
    (q,) = quantities(text)
    assert render(q) == english


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("$60 billion", "money", Decimal("6E10")),
        ("US$2.50", "money", Decimal("2.5")),
        ("100,000 GPUs", "number", Decimal(100000)),
        ("320 billion parameters", "number", Decimal("3.2E11")),
        ("25 times larger", "factor", Decimal(25)),
        ("a 25x jump", "factor", Decimal(25)),
        ("grew 2.5-fold", "factor", Decimal("2.5")),  # a number with its unit, not a name like K2.5
        ("85 percent", "percent", Decimal(85)),
        ("1.5B parameters", "number", Decimal("1.5E9")),
        ("a million users", "number", Decimal(10**6)),
        ("three things", "number", Decimal(3)),
        ("two dollars fifty, output", "money", Decimal("2.5")),  # the cents said after the dollars
        ("2 dollars and 50 cents", "money", Decimal("2.5")),
    ],
)
def test_english_quantities(text: str, kind: str, value: Decimal) -> None:
    (q,) = quantities(text)
    assert (q.kind, q.value) == (kind, value)


def test_a_count_after_dollars_is_no_cents() -> None:
    assert [q.text for q in quantities("5 dollars 30 tokens")] == ["5 dollars", "30"]


def test_a_year_is_four_digits_alone() -> None:
    found = [(q.kind, q.text, q.value, q.year) for q in quantities("距今74000年，2013年，12.2026年")]
    assert found[:2] == [("number", "74000", Decimal(74000), None), ("date", "2013年", None, 2013)]
    assert all(q.year != 2026 for q in quantities("12.2026年"))  # a decimal's digits are no year


def test_english_dates() -> None:
    (march,) = quantities("published on March 27, 2026.")
    assert (march.year, march.month, march.day) == (2026, 3, 27)
    (may,) = quantities("on 18th May")
    assert (may.month, may.day, may.year) == (5, 18, None)


@pytest.mark.parametrize("text", ["Kimi K2.5", "H100s", "GPT-4o", "v3.1", "kimi-k2p5-rl-0317-s515-fast", "one of them"])
def test_numbers_in_names_are_no_quantities(text: str) -> None:
    assert quantities(text) == []


def test_a_version_after_a_name_is_a_number() -> None:
    assert [str(q.value) for q in quantities("Composer 2/2.5 and Opus 4.7")] == ["2", "2.5", "4.7"]


@pytest.mark.parametrize(
    ("stated", "source", "same"),
    [
        ("US$60 billion", "600 亿美元", True),
        ("60 billion dollars", "600 亿美元", True),
        ("$600", "600 亿美元", False),  # the magnitude error raw Chinese numbers invite
        ("320 billion", "320 亿", False),
        ("32 billion", "320 亿", True),
        ("100,000 H100s", "100 万个 H100", False),
        ("1 million H100s", "100 万个 H100", True),
        ("25 times", "翻 25 倍", True),
        ("25%", "翻 25 倍", False),
        ("a tenth (10%)", "1/10", True),
        ("March 27", "2026 年 3 月 27 日", True),
        ("March 28", "2026 年 3 月 27 日", False),
        ("in 2026", "2026 年 3 月 27 日", True),
        ("US$15", "15 美元", True),
        ("CN¥15", "15 美元", False),
    ],
)
def test_same_quantity(stated: str, source: str, same: bool) -> None:
    a = quantities(stated)[-1]
    assert any(same_quantity(a, b) for b in quantities(source)) is same


def test_unsupported_quantities() -> None:
    found = unsupported_quantities("It used 100,000 H100s at 85% of the compute.", ["用了 100 万个 H100，占了 85%"])
    assert [q.text for q in found] == ["100,000"]


def test_renderings_pair_what_is_written_with_its_english() -> None:
    assert renderings("600 亿美元，85%，25 倍") == [("600 亿美元", "US$60 billion"), ("25 倍", "25×")]


def test_four_digits_without_a_unit_are_said_as_written() -> None:
    """A year or a code (沈括（1031–1095）) reads 1031, not 1,031; a count keeps its separators."""
    assert [render(q) for q in quantities("沈括（1031–1095）")] == ["1031", "1095"]
    assert [render(q) for q in quantities("37000 名乘客，约 2,000 人")] == ["37,000", "2,000"]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("forty-two lines", "number", Decimal(42)),
        ("fifteen dollars", "money", Decimal(15)),
        ("two and a half dollars", "money", Decimal("2.5")),
        ("百分之六十三点二", "percent", Decimal("63.2")),
        ("one-fifth of the cost", "fraction", Decimal(20)),
        ("a tenth of the cost", "fraction", Decimal(10)),
        ("成本只有一半", "fraction", Decimal(50)),
        ("at half the cost", "fraction", Decimal(50)),
        ("$15 per million tokens", "money", Decimal(15)),
    ],
)
def test_numbers_written_in_words(text: str, kind: str, value: Decimal) -> None:
    q = quantities(text)[0]
    assert (q.kind, q.value) == (kind, value)


def test_per_million_is_a_rate_unit_in_either_language() -> None:
    english = [q for q in quantities("$15 per million tokens") if q.per]
    chinese = [q for q in quantities("每百万 token 15 美元") if q.per]
    assert [q.value for q in english] == [q.value for q in chinese] == [Decimal(10**6)]


@pytest.mark.parametrize("text", ["2026/3/27", "3/27/2026", "27/3/2026"])
def test_dates_with_slashes(text: str) -> None:
    (q,) = quantities(text)
    assert (q.kind, q.year, q.month, q.day) == ("date", 2026, 3, 27)


def test_decimals_in_words_are_written_in_digits() -> None:
    from index.text.numbers import digit_decimals

    assert digit_decimals("Seventy point two percent, at best seventy-five point six") == "70.2 percent, at best 75.6"
    assert digit_decimals("one point five cents; zero point one times") == "1.5 cents; 0.1 times"
    assert digit_decimals("the point is two; twenty point") == "the point is two; twenty point"  # no decimal said


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("shipped on the nineteenth of May", False),
        ("shipped on May the nineteenth", False),
        ("the first of March, 2026", False),
        ("the first may help", True),  # "may" the verb: no month
        ("the second of these reasons", True),
    ],
)
def test_an_ordinal_word_beside_a_month_is_a_day_to_check(text: str, spelled: bool) -> None:
    (q, *_) = quantities(text)
    assert q.kind == "ordinal" and q.spelled is spelled


@pytest.mark.parametrize("text", ["大约七成的零部件自研自产", "零件", "一成不变的规则", "三五成群地来"])
def test_a_numeral_inside_a_word_is_no_quantity(text: str) -> None:
    """零部件 are parts (no one counts zero things with a measure word), 一成不变 an idiom ("unchanging"),
    三五成群 "in groups": none is a number to state or check. 七成 is 70%."""
    assert [(q.kind, q.value) for q in quantities(text)] == ([("percent", Decimal(70))] if "七成" in text else [])


def test_a_rendering_stating_a_tenth_as_a_percentage_is_verified_and_one_dropping_it_is_not() -> None:
    from index.english.renderings import problems

    source = "最终的爆款率大约只有一成，大约六成的核心零部件自研自产。"
    right = "The final hit rate is only about 10%, and about 60% of the core parts are made in-house."
    wrong = "The final hit rate is about one percent, and most core parts are made in-house."
    assert problems(source, right, "en") == []
    assert problems(source, wrong, "en") != []


@pytest.mark.parametrize("text", ["只剩几千元", "几十亿美元的投入", "数百万用户", "未来两三年", "三四个月", "五六十人"])
def test_an_estimate_is_no_amount(text: str) -> None:
    """几千元 is "several thousand yuan", not CN¥1,000; 两三年 "two or three years", not 23: nothing to
    hand a translator as fixed, or to check as stated."""
    assert quantities(text) == []
    assert renderings(text) == []


def test_digits_written_one_by_one_and_counts_stay_numbers() -> None:
    assert [q.value for q in quantities("二〇二五年，三百五十个，二十三年")] == [2025, 350, 23]
