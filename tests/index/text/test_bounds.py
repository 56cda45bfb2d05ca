"""index/text/bounds.py: what the words around a number say of it, and when one mention says another."""

from __future__ import annotations

import pytest

from index.text.bounds import matches, mentions

SCORE = "SWE-bench Verified\t70.2%（最高 75.6%）\t显著提升"


def _qualifiers(text: str) -> list[set[str]]:
    return [set(m.qualifiers) for m in mentions(text)]


@pytest.mark.parametrize(
    ("text", "qualifiers"),
    [
        (SCORE, [set(), {"upper"}]),
        ("scored 70.2%, up to 75.6% at best", [set(), {"upper"}]),
        ("its best score was 75.6%", [{"upper"}]),
        ("最多能到 75.6%", [{"upper"}]),
        ("最高接近 65%", [{"upper", "about"}]),
        ("at least 15 dollars", [{"lower"}]),
        ("15 dollars or more", [{"more"}]),
        ("just under 65%", [{"less"}]),
        ("约为 63%", [{"about"}]),
        ("85% 左右", [{"about"}]),
        ("between 63.2% and 64.8%", [{"range"}, {"range"}]),
        ("its best SWE-bench Verified result is 75.6%", [{"upper"}]),
        ("The best run, 64.8%, is 1.6 points above", [{"upper"}, set()]),  # the number it names, in apposition
        ("The best CursorBench v3.1 score (64.8%) tops 63.2%", [{"upper"}, set()]),
        ("the best model scored 70.2%", [set()]),  # a superlative of something else
        ("scored 70.2%", [set()]),
        ("At best, Composer 2.5 hits 75.6%; its score is 70.2%", [set(), {"upper"}, set()]),  # said for its clause
        ("It scored 70.2%. At its peak, 75.6%", [set(), {"upper"}]),
        ("At least, it scored 70.2%", [set()]),  # "at least" opening a clause is as often "anyway"
    ],
)
def test_qualifiers(text: str, qualifiers: list[set[str]]) -> None:
    assert _qualifiers(text) == qualifiers


@pytest.mark.parametrize(
    ("stated", "said"),
    [
        ("up to 75.6%", ["75.6%"]),
        ("75.6% at best", ["75.6%"]),
        ("at least 75.6%", []),  # contrary to 最高
        ("75.6%", []),  # the best result given as the score
        ("70.2%", ["70.2%"]),
        ("about 70%", ["70.2%"]),  # rounded to the digits written
        ("about 76% at best", ["75.6%"]),
        ("about 80%", []),
        ("just over 70%", ["70.2%"]),  # a close inequality that holds
        ("over 80%", []),
        ("up to 75.6% ", ["75.6%"]),  # not a bound on 70.2%: the sources write 75.6%
        ("63.2–70.2%", ["70.2%"]),  # one end stated (the other is checked on its own)
        ("70.2–75.6%", ["70.2%", "75.6%"]),
    ],
)
def test_what_a_stated_number_says_of_the_source(stated: str, said: list[str]) -> None:
    known = mentions(SCORE)
    found = [k.quantity.text for m in mentions(stated) for k in matches(m, known)]
    assert sorted(set(found)) == sorted(said)


def test_a_range_takes_the_unit_of_its_second_end() -> None:
    low, high = mentions("63.2–64.8%")
    assert low.quantity.kind == high.quantity.kind == "percent"


def test_money_compares_by_currency_and_magnitude() -> None:
    source = mentions("握有 600 亿美元收购 Cursor 的优先权")
    cases = [("US$60 billion", True), ("about $60B", True), ("$600 billion", False), ("60 billion yuan", False)]
    for stated, right in cases:
        assert bool(matches(mentions(stated)[0], source)) is right, stated


def test_a_short_date_is_the_date_it_writes() -> None:
    source = mentions("5 月 18 日 Cursor 发布 Composer 2.5")
    cases = [("released on 5/18", True), ("on 18/5", True), ("on 5/19", False), ("a 1/10 share", False)]
    for stated, right in cases:
        assert bool(matches(mentions(stated)[0], source)) is right, stated
