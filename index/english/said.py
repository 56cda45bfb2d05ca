"""A quantity of a Chinese sentence as an English reader reads it: with what the words beside it say
of it, in English word order — 九分之一左右 "about 1/9", 180 天以上 "over 180 days", 1.5 倍到 2 倍
"1.5× to 2×", 3 个月 "3 months" — and an estimate, which is no amount: 几千元 "several thousand yuan",
两三年 "two or three years". Grammar, not vocabulary: the bound words are the verifier's
(index/text/bounds.py), the units of time and the magnitudes closed classes. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from index.text.amounts import render
from index.text.bounds import Mention, qualifiers_after
from index.text.numerals import ZH_DIGITS, neighbours

# a bound or an estimate stated beside a number, in English before it
QUALIFIER_WORDS = {"upper": "up to", "lower": "at least", "less": "under", "more": "over", "about": "about"}
# what a count counts, (one, many): a unit of time (180 天 "180 days"; 天 glossed alone is "heaven"; 月 alone
# names a month) or people (13 人 "13 people"; 人 glossed alone is "man")
_UNITS = {"个月": ("month", "months"), "个小时": ("hour", "hours"), "小时": ("hour", "hours"),
          "分钟": ("minute", "minutes"), "星期": ("week", "weeks"), "天": ("day", "days"), "周": ("week", "weeks"),
          "秒": ("second", "seconds"), "年": ("year", "years"), "人": ("person", "people")}  # fmt: skip
_UNIT = re.compile(r"\s*(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + ")")
_RANGE_JOIN = re.compile(r"\s*(?:到|至|-|–|—|~|～)\s*")


# an estimate, which quantities() reads as no amount: 几千 "several thousand", 两三 "two or three"
_SEVERAL = {1: "dozens of", 2: "several hundred", 3: "several thousand", 4: "tens of thousands of",
            5: "several hundred thousand", 6: "several million", 7: "tens of millions of",
            8: "several hundred million", 9: "several billion", 10: "tens of billions of",
            11: "several hundred billion", 12: "several trillion"}  # fmt: skip
_POWERS = {"十": 1, "百": 2, "千": 3, "万": 4, "亿": 8}
_CURRENCY_WORDS = {"美元": "US dollars", "美金": "US dollars", "元": "yuan", "人民币": "yuan"}
_ESTIMATE = re.compile(
    r"(?:(?P<some>[几数])|(?P<pair>两三|一两|[二三四五六七八][三四五六七八九]))"
    r"(?P<power>[十百千]?(?:万|亿)?|[十百千])(?P<money>美元|美金|人民币|元)?"
)


def estimates(text: str) -> list[tuple[int, int, str]]:
    """(start, end, English) of each estimate of ``text``: 几千元 "several thousand yuan", 数十亿美元
    "several billion US dollars", 两三年 "two or three" (its unit glossed after it), 七八十美元 "70 or 80
    US dollars"."""
    found = []
    for match in _ESTIMATE.finditer(text):
        power = sum(_POWERS[c] for c in match.group("power"))
        pair, start, end = match.group("pair"), match.start(), match.end()
        ten_odd = bool(match.group("some")) and text[start - 1 : start] == "十"  # 十几万: 10-odd ten thousands
        if (pair and not neighbours(pair)) or (match.group("some") and not power and not ten_odd):
            continue  # 几个, 数据: "a few", a word
        if ten_odd:
            start, english = start - 1, f"over {10 ** (power + 1):,}" if power else "over ten"
        elif pair:
            first, second = (ZH_DIGITS[c] for c in pair)
            scale = 10**power
            english = f"{first * scale:,} or {second * scale:,}" if power else f"{_WORDS[first]} or {_WORDS[second]}"
        else:
            english = _SEVERAL[power]
        if money := match.group("money"):
            english = f"{english} {_CURRENCY_WORDS[money]}"
        elif unit := _UNIT.match(text, end):
            english, end = f"{english} {_UNITS[unit.group(1)][1]}", unit.end()
        else:
            english = english.removesuffix(" of")
        found.append((start, end, english))
    return found


def estimates_in(text: str, lexicon: Mapping[str, str], taken: Sequence[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """The estimates of ``text`` outside the ``taken`` spans, with the classifier after one (两三家),
    but for one whose first character ends a word of the ``lexicon`` (指数十分: "index", "very")."""
    found = []
    for start, end, english in estimates(text):
        if any(s < end and start < e for s, e in taken) or any(text[start - n : start + 1] in lexicon for n in (1, 2)):
            continue
        end += text[end : end + 1] in getattr(lexicon, "measures", ())
        found.append((start, end, english))
    return found


_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def qualifier(text: str, m: Mention) -> str | None:
    """What the Chinese words beside a quantity say of it, as English says it before the number; None
    when they say none, more than one thing, or are English already."""
    told = m.qualifiers & QUALIFIER_WORDS.keys()
    if len(told) != 1 or "range" in m.qualifiers or not m.spans or any(text[a:b].isascii() for a, b in m.spans):
        return None
    return QUALIFIER_WORDS[next(iter(told))]


def in_english(text: str, found: Sequence[Mention], i: int, end: int) -> tuple[int, int, str]:
    """(start, end, English) of ``found[i]`` of ``text``, ``end`` where its measure word ends: with
    its unit of time, its bound or estimate, or as a range's first end ("1.5× to")."""
    m = found[i]
    q, start, english = m.quantity, m.quantity.start, render(m.quantity)
    said = qualifier(text, m)
    if said is not None:
        english = f"{said} {english}"
        start, end = min(start, *(a for a, _ in m.spans)), max(end, *(b for _, b in m.spans))
    unit = _UNIT.match(text, q.end) if q.kind == "number" and end == q.end else None
    if unit is not None:
        english += f" {_UNITS[unit.group(1)][q.value != 1]}"
        end = unit.end()
    after = qualifiers_after(text, end) if said is None and end > q.end else []
    if len(after) == 1 and after[0][0] in QUALIFIER_WORDS:  # 180 天以上, 300 万辆以上: after the unit
        english, end = f"{QUALIFIER_WORDS[after[0][0]]} {english}", after[0][1]
    following = found[i + 1] if i + 1 < len(found) else None
    if following is not None and {"range"} <= m.qualifiers & following.qualifiers:
        join = _RANGE_JOIN.fullmatch(text, end, following.quantity.start)
        if join is not None:  # the second end follows as its own piece
            english, end = f"{english} to", following.quantity.start
    return start, end, english


__all__ = ["QUALIFIER_WORDS", "estimates", "estimates_in", "in_english", "qualifier"]
