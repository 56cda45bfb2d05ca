"""A quantity of a Chinese sentence as an English reader reads it: with what the words beside it say
of it, in English word order — 九分之一左右 "about 1/9", 180 天以上 "over 180 days", 1.5 倍到 2 倍
"1.5× to 2×", 3 个月 "3 months". Grammar, not vocabulary: the bound words are the verifier's
(index/text/bounds.py), the units of time a closed class. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index.text.amounts import render
from index.text.bounds import Mention, qualifiers_after

# a bound or an estimate stated beside a number, in English before it
QUALIFIER_WORDS = {"upper": "up to", "lower": "at least", "less": "under", "more": "over", "about": "about"}
# a unit of time after a count: 180 天 "180 days" (天 glossed alone is "heaven"); 月 alone names a month
_DURATIONS = {"个月": "month", "个小时": "hour", "小时": "hour", "分钟": "minute", "星期": "week", "天": "day",
              "周": "week", "秒": "second", "年": "year"}  # fmt: skip
_DURATION = re.compile(r"\s*(" + "|".join(sorted(_DURATIONS, key=len, reverse=True)) + ")")
_RANGE_JOIN = re.compile(r"\s*(?:到|至|-|–|—|~|～)\s*")


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
    unit = _DURATION.match(text, q.end) if q.kind == "number" and end == q.end else None
    if unit is not None:
        english += f" {_DURATIONS[unit.group(1)]}{'' if q.value == 1 else 's'}"
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


__all__ = ["QUALIFIER_WORDS", "in_english", "qualifier"]
