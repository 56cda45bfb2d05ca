"""Quantities an answer works out from its sources rather than copies: the gap, total or ratio of two
of their numbers ("1.6 percentage points above", 贵 12.5 美元, "6 倍"), an average, the rest of a share ("90%
cheaper" of 1/10 the cost) and how many things a source lists ("three benchmarks" of a table with
three rows, 三家 of 「DeepSeek、Qwen、Llama」). A generated answer compares and counts; what it works
out is checked by doing the arithmetic, not by looking for it as written. Pure functions over
``index.text.bounds.Mention``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from decimal import Decimal
from functools import lru_cache

from index.text.bounds import Mention, unit_of

_BULLET = re.compile(r"^\s*(?:[•·*–-]\s|\d+[.、)]\s*|[一二三四五六七八九十]+、)")
_ENUMERATION = re.compile(r"[^，,。；;：:！？!?\n「」『』“”（）()]+(?:、[^，,。；;：:！？!?\n「」『』“”（）()]+)+")
_NUMERALS = "一二三四五六七八九十"
_MAX_COUNT = 20  # a count an answer makes of a list: "three benchmarks", not "85 things"


def _same_kind(a: Mention, b: Mention) -> bool:
    x, y = a.quantity, b.quantity
    return x.kind == y.kind and x.currency == y.currency and x.kind in ("percent", "money", "number")


def _gap_of(stated: Mention, a: Mention) -> bool:
    """A gap or a total of two of ``a``'s kind is a quantity of ``stated``'s kind: points between two
    percentages (written as a bare number: "1.6 percentage points", 5.4 个百分点), money of prices in
    one currency, a plain number of plain numbers."""
    s, x = stated.quantity, a.quantity
    if s.kind == "money":
        return x.kind == "money" and (not s.currency or s.currency == x.currency)
    return s.kind == "number" and x.kind in ("percent", "number")


def _arithmetic(stated: Mention, a: Mention, b: Mention) -> list[Decimal]:
    """What ``stated`` may be, worked out of ``a`` and ``b``: their gap and, for money or plain
    numbers, their total; of a factor ("6 倍", "six times"), their ratio."""
    x, y = a.quantity.value, b.quantity.value
    assert x is not None and y is not None
    if not _same_kind(a, b):
        return []
    if stated.quantity.kind == "factor":
        return [max(x, y) / min(x, y)] if min(x, y) > 0 else []
    if not _gap_of(stated, a):
        return []
    return [abs(x - y)] + ([x + y] if a.quantity.kind != "percent" else [])


def _of_share(stated: Mention, share: Mention) -> list[Decimal]:
    """What a share a source writes as a fraction may be said as: the rest of it ("90% cheaper" of a
    cost of 1/10), or a multiple ("0.1 times the cost"). Not its inverse: "ten times cheaper" and a
    wrong "ten times the cost" differ only in a word."""
    value = share.quantity.value
    if share.quantity.kind != "fraction" or value is None or value <= 0:
        return []
    if stated.quantity.kind == "percent":
        return [100 - value]
    if stated.quantity.kind == "factor":
        return [value / 100]
    return []


def _means(stated: Mention, values: Sequence[Mention]) -> list[Decimal]:
    """The average of the sources' quantities of ``stated``'s kind ("an average of about 69%" of
    63.2%, 70.2% and 73.7%): of all of them, and of those stated without a bound (a table's scores
    without their best runs)."""
    kind = [k for k in values if _same_kind(stated, k)]
    plain = [k for k in kind if not k.directions]
    found = []
    for group in (kind, plain):
        numbers = [k.quantity.value for k in group if k.quantity.value is not None]
        if len(numbers) > 2:
            found.append(sum(numbers, Decimal(0)) / len(numbers))
    return found


def arithmetic(stated: Mention, known: Sequence[Mention]) -> bool:
    """``stated`` is worked out of the ``known`` quantities: a gap or a total of two of them, a ratio,
    the rest of a share or the share as a multiple, an average; exactly, or rounded when it says so
    ("about 5 points"). Nothing worked out is stated as a bound: "up to 1.6 points" is no arithmetic."""
    s = stated.quantity
    if s.value is None or s.value <= 0 or stated.directions:
        return False
    tolerance = unit_of(s) / 2 if "about" in stated.qualifiers else Decimal(0)
    values = [k for k in known if k.quantity.value is not None and k.quantity.kind != "date"]
    candidates = [v for a, b in itertools.combinations(values, 2) for v in _arithmetic(stated, a, b)]
    candidates += [v for k in values for v in _of_share(stated, k)]
    candidates += _means(stated, values)
    return any(v > 0 and abs(v - s.value) <= tolerance for v in candidates)


@lru_cache(maxsize=4096)
def item_counts(text: str) -> frozenset[int]:
    """How many things ``text`` lists, each way it may list them: the rows of a table (under its
    header row), the items of a bulleted or numbered list, the items of an enumeration with 、.
    Read once per passage: the check asks it of each sentence an answer cites it for."""
    counts: set[int] = set()
    rows = bullets = 0
    for line in [*text.split("\n"), ""]:
        if not line.strip():
            continue  # a blank line between a list's items keeps the list
        if "\t" in line:
            rows += 1
        elif rows:
            counts.add(rows - 1)
            rows = 0
        if _BULLET.match(line):
            bullets += 1
        elif bullets and "\t" not in line:
            counts.add(bullets)
            bullets = 0
        counts.update(match.group().count("、") + 1 for match in _ENUMERATION.finditer(line))
    counts.update(n for n in (rows - 1, bullets) if n > 0)
    return frozenset(n for n in counts if 1 < n <= _MAX_COUNT)


def _whole(stated: Mention, kind: str, values: frozenset[int]) -> bool:
    """``stated`` is a plain whole quantity of ``kind`` (no bound, no magnitude) among ``values``."""
    s = stated.quantity
    return (
        s.kind == kind
        and not s.scaled
        and not stated.qualifiers
        and s.value is not None
        and s.value == s.value.to_integral_value()
        and int(s.value) in values
    )


def counted(stated: Mention, counts: frozenset[int]) -> bool:
    """``stated`` is a whole count of what a source lists ("three benchmarks", 三项)."""
    return _whole(stated, "number", counts)


@lru_cache(maxsize=4096)
def lone_numerals(text: str) -> frozenset[int]:
    """The small numbers ``text`` writes as a Chinese numeral standing as a word of its own, after
    what it numbers (阶段二 "stage two"), which a number's reading leaves to the words around it.
    Not 一, as often "once" or "a" (一叠加) as a number."""
    import jieba

    return frozenset(_NUMERALS.index(word) + 1 for word in jieba.cut(text) if len(word) == 1 and word in _NUMERALS[1:])


def numbered(stated: Mention, numerals: frozenset[int]) -> bool:
    """``stated`` is a position a source writes as a lone numeral (第二阶段, "Stage 2" of 阶段二); a
    count isn't (两件事 is not what 阶段二 says)."""
    return _whole(stated, "ordinal", numerals)


def worked_out(
    stated: Mention, known: Sequence[Mention], counts: frozenset[int], numerals: frozenset[int] = frozenset()
) -> bool:
    """Whether an answer works ``stated`` out from its sources: by arithmetic on their numbers, by
    counting what one lists, or by reading a numeral one writes without digits."""
    return counted(stated, counts) or numbered(stated, numerals) or arithmetic(stated, known)


__all__ = ["arithmetic", "counted", "item_counts", "lone_numerals", "numbered", "worked_out"]
