"""Quantities as English writes them: 600 亿美元 → US$60 billion, 100 万个 → 1 million, 25 倍 → 25×,
2026 年 3 月 27 日 → March 27, 2026. What the English answer line and the renderings' model are
handed, so that a magnitude is never left to a word-for-word gloss or a small model.
"""

from __future__ import annotations

import re
from decimal import Decimal

from index.text.numbers import MONTHS, ORDINAL_NOUNS, Quantity, quantities, zh_numeral

_FOUR_DIGITS = re.compile(r"\d{4}")
_ZH_FRACTION = re.compile(r"(.+)分之(.+)")


def _plain(value: Decimal, places: int = 0) -> str:
    """73.7, 2.50 (places as written), 60 (not 6E+1), 1,000 with thousands separators."""
    if places:
        return f"{value:,.{places}f}"
    normal = value.normalize()
    text = f"{normal:,f}"
    return text


def render_amount(value: Decimal, places: int = 0, scaled: bool = False) -> str:
    """A count as English writes it: 1 million, 60 billion, 32 billion, 30,000, 2.50."""
    for size, word in ((10**12, "trillion"), (10**9, "billion"), (10**6, "million")):
        if abs(value) >= size and (scaled or value % (size // 1000) == 0):
            return f"{_plain(value / size)} {word}"
    return _plain(value, 0 if scaled else places)


def _fraction(q: Quantity) -> str:
    """A share as written in numerals (1/10), or as a whole percentage (一半 → 50%); one with no whole
    percentage as a fraction (九分之一 → 1/9, not 11.111…%), or in words as written ("one-third")."""
    if q.text[:1].isdigit():
        return re.sub(r"\s+", "", q.text)
    assert q.value is not None
    if q.value == q.value.to_integral_value():
        return f"{_plain(q.value)}%"
    chinese = _ZH_FRACTION.fullmatch(q.text)
    return f"{zh_numeral(chinese.group(2))}/{zh_numeral(chinese.group(1))}" if chinese else q.text


def render(q: Quantity) -> str:
    """A quantity in English: US$60 billion, 32 billion, 1 million, 25×, 73.7%, 1/10, March 27, 2026."""
    if q.kind == "date":
        month = MONTHS[q.month - 1] if q.month else ""
        if month and q.day and q.year:
            return f"{month} {q.day}, {q.year}"
        if month and q.day:
            return f"{month} {q.day}"
        if month and q.year:
            return f"{month} {q.year}"
        return str(q.year or month)
    assert q.value is not None
    if q.kind == "fraction":
        return _fraction(q)
    if q.kind == "number" and not q.scaled and _FOUR_DIGITS.fullmatch(q.text.strip()):
        return q.text.strip()  # a year or a code as written (1048, not 1,048)
    amount = render_amount(q.value, q.places, q.scaled)
    if q.kind == "money":
        return ("US$" if q.currency == "USD" else "CN¥") + amount
    if q.kind == "percent":
        return f"{amount}%"
    if q.kind == "factor":
        return f"{amount}×"
    if q.kind == "ordinal":
        n = int(q.value)
        if q.measure in ORDINAL_NOUNS:
            return f"{ORDINAL_NOUNS[q.measure]} {n}"  # 第 42 行 → line 42
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return amount


def renderings(text: str) -> list[tuple[str, str]]:
    """(as written, in English) for every quantity of ``text`` whose English differs from it and
    says more than its digits: a magnitude, a currency, a factor, a date."""
    pairs = []
    for q in quantities(text):
        if (q.kind == "number" and not q.scaled) or q.kind == "ordinal":
            continue  # 三 = 3 tells no one anything
        english = render(q)
        if english != q.text and (q.text, english) not in pairs:
            pairs.append((q.text, english))
    return pairs


__all__ = ["render", "render_amount", "renderings"]
