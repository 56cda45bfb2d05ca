"""What the words around a quantity say of it: an upper bound (最高 75.6%, "up to 75.6%", "75.6% at
best", "its best score, 75.6%", "At best, it hits 75.6%"), a lower bound (至少, 最低, "at least", "or
more"), an approximation (约, "about", "左右"), or nothing.

Verification compares quantities by meaning: a value with its magnitude, kind and bounds. "Up to
75.6%" says what "最高 75.6%" says; "at least 75.6%" and a plain "75.6%" don't; "about 60 billion" is
596 亿 rounded; "just over 63%" is true of 63.2%. Pure functions over ``index.text.numbers.Quantity``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from index.text.numbers import Quantity, quantities

Qualifier = Literal["upper", "lower", "about", "range", "less", "more"]
DIRECTIONS = frozenset({"upper", "lower"})  # a bound the text states: the maximum, the minimum
COMPARISONS = frozenset({"less", "more"})  # a claim about a value: "under 65%", "over 70%"

# the qualifier phrases of English and Chinese, by what they say of the number next to them
_BEFORE: dict[Qualifier, tuple[str, ...]] = {
    "upper": (
        "up to", "at most", "at best", "as high as", "as much as", "as many as", "a maximum of", "maximum of",
        "maximum", "max", "a high of", "a peak of", "peak of", "highest", "a ceiling of", "ceiling of",
        "最高达", "最高", "最多", "至多", "高达", "最好", "峰值", "可达", "可以达到", "可达到", "能达到", "能到",
    ),
    "lower": ("at least", "at minimum", "a minimum of", "minimum", "至少", "最低", "最少"),
    "less": (
        "under", "below", "less than", "fewer than", "no more than", "not more than", "shy of", "不超过", "不到",
        "低于", "少于",
    ),
    "more": (
        "more than", "over", "above", "no less than", "not less than", "upwards of", "in excess of", "超过",
        "不少于", "不低于", "高于", "多于", "逾",
    ),
    "about": (
        "about", "around", "roughly", "approximately", "approx.", "nearly", "almost", "close to", "some", "~",
        "约为", "约合", "约有", "约是", "约", "大约为", "大约是", "大约", "大概", "将近", "接近", "近", "差不多",
    ),
}  # fmt: skip
# a verb that says its number is the maximum, in every tense
_VERB_FORMS = (
    ("peaks", "peaked", "peaking"),
    ("tops out", "topped out", "topping out"),
    ("maxes out", "maxed out", "maxing out"),
)
_BEFORE["upper"] += tuple(f"{form} at" for forms in _VERB_FORMS for form in forms)
# a copula between a bound word and its number: 峰值为 64.8%, 最高是 75.6%, 最多达到 3 倍
_COPULAS = ("达到", "为", "是", "达", "在")
_AFTER: dict[Qualifier, tuple[str, ...]] = {
    "upper": ("at best", "at its best", "at most", "at the most", "at peak", "at its peak", "max"),
    "lower": ("at least", "at minimum"),
    "less": ("or less", "or fewer", "以内", "以下"),
    "more": ("or more", "plus", "+", "以上", "余", "出头"),
    "about": ("or so", "左右", "上下"),
}
# a superlative a few words before the number makes it the bound: "its best score was 75.6%"
_SUPERLATIVE = re.compile(
    r"(?:\b(?:best(?:-case)?|highest|maximum|peak|top)\b(?:\s+[A-Za-z][\w.\-]*){0,3}"
    r"(?:\s+(?:was|is|of|reached|hits?)|(?P<apposition>\s*[,(（]))"  # "its best result, 64.8%", "… score (64.8%)"
    r"|\b(?:best(?:-case)?|highest|maximum|peak)|(?:最好|最高|最佳)\w{0,3})\s*$",
    re.IGNORECASE,
)
# "63.2–64.8%", "between 63.2% and 64.8%", "from 1 to 2", "63.2% 到 64.8%": both ends of one range
_RANGE_JOIN = re.compile(r"\s*(?:-|–|—|~|～|to|and|至|到)\s*", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;:，；：、。.!?！？]\s*$")
# an upper bound said once for its clause, before it: "At best, Composer 2.5 hits 75.6%", "At best it
# hits 75.6%" ("At least," opening a clause is as often "anyway")
_OPENING = re.compile(
    r"(?:^|(?<=[;；.!?。！？]))\s*[\"'“‘(]?(?P<phrase>"
    + "|".join(re.escape(p) for p in _AFTER["upper"] if " " in p)
    + r")(?:\s*,|\s+(?=[a-z]))",
    re.IGNORECASE,
)
_CLAUSE_STOP = re.compile(r"[;；.!?。！？](?:\s|$)")
_APPROXIMATE_SHARE = Decimal("0.01")  # "about X" may also be within 1 % of the source's value
_INEQUALITY_SHARE = Decimal("0.1")  # "over X" is true of a value above X by at most 10 %


@dataclass(frozen=True)
class Mention:
    """A quantity as written, with what the words around it say of it and where those words are."""

    quantity: Quantity
    qualifiers: frozenset[str]
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def directions(self) -> frozenset[str]:
        return self.qualifiers & DIRECTIONS


def _phrases(table: dict[Qualifier, tuple[str, ...]]) -> list[tuple[str, Qualifier]]:
    return sorted(((p, b) for b, ps in table.items() for p in ps), key=lambda pair: -len(pair[0]))


_BEFORE_PHRASES = _phrases(_BEFORE)
# a Chinese bound word with a copula, read only right before its number
_COPULA_PHRASES = sorted(
    ((p + c, q) for p, q in _BEFORE_PHRASES if not p[0].isascii() for c in _COPULAS if not p.endswith(c)),
    key=lambda pair: -len(pair[0]),
)
_AFTER_PHRASES = _phrases(_AFTER)


def _word_edge(text: str, at: int) -> bool:
    """No Latin letter at ``at``: a Latin phrase starts or ends on a word boundary there."""
    return not (0 <= at < len(text) and text[at].isascii() and text[at].isalpha())


def _skip_space(text: str, at: int, step: int) -> int:
    while 0 <= at + min(step, 0) < len(text) and text[at + min(step, 0)] in " \t":
        at += step
    return at


def _before(text: str, end: int) -> list[tuple[Qualifier, int]]:
    """The qualifier phrases right before ``end``, nearest first, each with where it starts
    ("最高接近 65%": about, then upper)."""
    found: list[tuple[Qualifier, int]] = []
    while True:
        end = _skip_space(text, end, -1)
        head = text[max(0, end - 24) : end].lower()
        phrases = _BEFORE_PHRASES if found else _COPULA_PHRASES + _BEFORE_PHRASES
        match = next(
            (
                (phrase, q)
                for phrase, q in phrases
                if head.endswith(phrase) and (not phrase[0].isalpha() or _word_edge(text, end - len(phrase) - 1))
            ),
            None,
        )
        if match is None:
            return found
        end -= len(match[0])
        found.append((match[1], end))


def qualifiers_after(text: str, start: int) -> list[tuple[Qualifier, int]]:
    """The qualifier phrases right after ``start`` (a number, or its unit: 180 天以上), each with where it
    ends."""
    found: list[tuple[Qualifier, int]] = []
    while True:
        start = _skip_space(text, start, 1)
        tail = text[start : start + 24].lower()
        match = next(
            (
                (phrase, q)
                for phrase, q in _AFTER_PHRASES
                if tail.startswith(phrase) and (not phrase[-1].isalpha() or _word_edge(text, start + len(phrase)))
            ),
            None,
        )
        if match is None:
            return found
        start += len(match[0])
        found.append((match[1], start))


def mention(text: str, q: Quantity) -> Mention:
    """``q`` of ``text`` with the qualifiers its neighbouring words state."""
    before, after = _before(text, q.start), qualifiers_after(text, q.end)
    qualifiers: set[str] = {kind for kind, _ in before + after}
    start = before[-1][1] if before else q.start
    spans = ([(start, q.start)] if before else []) + ([(q.end, after[-1][1])] if after else [])
    offset = max(0, start - 60)
    superlative = _SUPERLATIVE.search(text[offset:start])
    if superlative and (superlative.group("apposition") or not _CLAUSE_END.search(text[offset:start])):
        qualifiers.add("upper")
        spans.append((offset + superlative.start(), offset + superlative.end()))
    return Mention(q, frozenset(qualifiers), tuple(spans))


def mentions(text: str) -> list[Mention]:
    """Every quantity of ``text`` with its qualifiers; both ends of a range are marked as such (a
    bare first end takes the second's unit: 63.2–64.8%)."""
    found = [mention(text, q) for q in quantities(text)]
    for i, (low, high) in enumerate(itertools.pairwise(found)):
        joined = _RANGE_JOIN.fullmatch(text[low.quantity.end : high.quantity.start])
        word = joined.group().strip().lower() if joined else ""
        lead = text[: low.quantity.start].rstrip().lower()
        if not joined or (word == "and" and not lead.endswith("between")) or (word == "to" and lead.endswith("up")):
            continue
        first = low.quantity
        if first.kind == "number" and not first.scaled and high.quantity.kind in ("percent", "money", "factor"):
            first = replace(first, kind=high.quantity.kind, currency=high.quantity.currency)
        found[i] = Mention(first, low.qualifiers | {"range"}, low.spans)
        found[i + 1] = Mention(high.quantity, high.qualifiers | {"range"}, high.spans)
    return _opened(text, found)


def _opened(text: str, found: list[Mention]) -> list[Mention]:
    """The first quantity of a clause that opens with an upper bound ("At best, …") takes it; a name's
    version (Composer 2.5) is no quantity it can be said of."""
    for opening in _OPENING.finditer(text):
        stop = _CLAUSE_STOP.search(text, opening.end())
        end = stop.start() if stop else len(text)
        inside = [i for i, m in enumerate(found) if opening.end() <= m.quantity.start < end]
        first = next((i for i in inside if not is_version(text, found[i].quantity)), None)
        if first is None or found[first].directions:
            continue
        m = found[first]
        found[first] = Mention(m.quantity, m.qualifiers | {"upper"}, (*m.spans, opening.span("phrase")))
    return found


def is_version(text: str, q: Quantity) -> bool:
    """A bare number right after a capitalised word is part of a name: Composer 2.5, Opus 4.7 (not a
    Chinese numeral: "Llama 三个例子" counts)."""
    before = re.search(r"([A-Za-z][A-Za-z0-9]*)\s*$", text[: q.start])
    return q.kind == "number" and not q.scaled and q.text.isascii() and bool(before) and before.group(1)[:1].isupper()  # type: ignore[union-attr]


def _as_percent(q: Quantity) -> Decimal | None:
    return q.value if q.kind in ("percent", "fraction") else None


def _month_day(q: Quantity) -> tuple[int, int] | None:
    """A fraction written as a short date ("5/18" of 5 月 18 日; read day first too); None if it can't be one."""
    parts = re.fullmatch(r"(\d{1,2})/(\d{1,2})", q.text) if q.kind == "fraction" else None
    if parts is None:
        return None
    month, day = int(parts.group(1)), int(parts.group(2))
    return (month, day) if 1 <= month <= 12 and 1 <= day <= 31 else None


def same_quantity(stated: Quantity, source: Quantity) -> bool:
    """Whether ``stated`` (e.g. in a generated answer) says what ``source`` (in a passage) says:
    the same value with the same magnitude and a compatible kind. A bare number matches any
    kind with its value (15 for 15 美元), a year or day of a date, and a short date ("5/18") its date."""
    if stated.kind == "date" or source.kind == "date":
        if stated.kind == "date" and source.kind == "date":
            fields = (("year", stated.year), ("month", stated.month), ("day", stated.day))
            return all(value is None or getattr(source, name) == value for name, value in fields) and any(
                value is not None for _, value in fields
            )
        if stated.kind in ("number", "ordinal") and source.kind == "date" and stated.value is not None:
            return stated.value in {Decimal(v) for v in (source.year, source.day) if v is not None}
        return source.kind == "date" and _month_day(stated) in {(source.month, source.day), (source.day, source.month)}
    if stated.value is None or source.value is None:
        return False
    percent_a, percent_b = _as_percent(stated), _as_percent(source)
    if percent_a is not None or percent_b is not None:
        return percent_a is not None and percent_b is not None and percent_a == percent_b
    if stated.value != source.value:
        return False
    if stated.kind == "money" and source.kind == "money":
        return not stated.currency or not source.currency or stated.currency == source.currency
    return stated.kind in ("number", "ordinal") or source.kind in ("number", "ordinal") or stated.kind == source.kind


def unsupported_quantities(stated_text: str, sources: list[str]) -> list[Quantity]:
    """The quantities of ``stated_text`` that no quantity of ``sources`` states."""
    known = [q for text in sources for q in quantities(text)]
    return [q for q in quantities(stated_text) if not any(same_quantity(q, k) for k in known)]


def unit_of(q: Quantity) -> Decimal:
    """One step of the last digit written: 75.6% → 0.1, 1.5 billion → 100 million, 80 → 1."""
    digits = re.search(r"\d[\d,]*(?:\.\d+)?", q.text)
    if digits is None or q.value is None:
        return Decimal(1)
    written = digits.group().replace(",", "")
    step = Decimal(1).scaleb(-len(written.split(".")[1])) if "." in written else Decimal(1)  # 80 is not 75.6
    number = Decimal(written)
    return step * (q.value / number) if number else step


def _comparable(stated: Quantity, source: Quantity) -> bool:
    """Same kind, currency and scale, whatever the values: what a rounding or an inequality compares."""
    return (
        stated.value is not None
        and source.value is not None
        and stated.kind != "date"
        and same_quantity(replace(stated, value=source.value), source)
    )


def states(stated: Mention, source: Mention) -> bool:
    """Whether ``stated`` says what ``source`` says: the same value with the same bounds ("up to
    75.6%" only of 最高 75.6%), the value rounded ("about 76%" of 75.6%), or a comparison that holds
    closely ("over 70%" of 73.7%, "just under 65%" of 64.8%)."""
    s, v = stated.quantity, source.quantity
    agree = stated.directions == source.directions or "range" in stated.qualifiers  # a range's ends: values
    compared = stated.qualifiers & COMPARISONS
    if same_quantity(s, v):
        return agree and not compared
    if not _comparable(s, v):
        return False
    assert s.value is not None and v.value is not None
    gap = abs(s.value - v.value)
    if "about" in stated.qualifiers and (gap <= unit_of(s) / 2 or gap <= abs(v.value) * _APPROXIMATE_SHARE):
        return agree
    if len(compared) != 1 or not agree or gap > abs(s.value) * _INEQUALITY_SHARE:
        return False
    return v.value > s.value if "more" in compared else v.value < s.value


def matches(stated: Mention, known: Sequence[Mention]) -> list[Mention]:
    """The mentions of ``known`` that ``stated`` says. A value the sources write is read as that
    value (its bounds must agree): "up to 75.6%" is 最高 75.6%, not a bound on another number."""
    exact = [k for k in known if same_quantity(stated.quantity, k.quantity)]
    return [k for k in exact or known if states(stated, k)]


__all__ = [
    "COMPARISONS",
    "DIRECTIONS",
    "Mention",
    "is_version",
    "matches",
    "mention",
    "mentions",
    "qualifiers_after",
    "same_quantity",
    "states",
    "unit_of",
    "unsupported_quantities",
]
