"""Whether an answer states the figure a how-many question asks for. A question about the article's
subject whose missing paragraph held the number ("多少开发者在用 Cursor？") still finds the article's
sentences on that subject; none of them states a number, and saying so is the honest answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from index.build.store import StoredIndex
from index.text.numbers import quantities, zh_numeral

# a question asking to count: how many, 多少, 几 (not 哪几, "which ones"), what share. Not how much / how
# long / how often / 多久 / 多大: an extent is as often answered in words ("rarely", "多年", "大片")
_COUNT = re.compile(
    r"多少|(?<!哪)几(?![月号时])|百分之|比例|占比|\bhow many\b|\bwhat (?:percentage|proportion|share|number)\b",
    re.IGNORECASE,
)
# a plain number right after a Latin word is that name's version ("Composer 2", "Opus 4.7"): it
# names a thing, it counts nothing
_NAME_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9.\-]*\s+v?$")
# a number fused with its unit ("300MB", "182CM"): digits first, unlike a name's (K2.5, H100)
_WITH_UNIT = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)[A-Za-z]+")
# a Chinese count before any measure word (四所, 两列), not only those quantities reads; not an ordinal
_NUMERAL = "零〇一二两三四五六七八九十百千万亿"
_ZH_COUNT = re.compile(rf"(?<![第{_NUMERAL}])[{_NUMERAL}]+(?=[\u4e00-\u9fff])")


def stated_figures(texts: Sequence[str], question: str) -> list[str]:
    """The quantities ``texts`` state that the question doesn't already state, as written; a name's
    version number and the article 一 are none."""
    asked_values = {q.value for q in quantities(question) if q.value is not None}
    asked_values |= {Decimal(m.group(1)) for m in _WITH_UNIT.finditer(question)}
    # 一 before a measure word is mostly the article "a" (一条帖子, "a post"), as "a" is to quantities
    read = [
        q.text
        for text in texts
        for q in quantities(text)
        if not (q.value is not None and q.value in asked_values)
        and not (q.kind == "number" and (q.text == "一" or _NAME_BEFORE.search(text[: q.start])))
    ]
    fused = [m.group(0) for text in texts for m in _WITH_UNIT.finditer(text) if Decimal(m.group(1)) not in asked_values]
    counted = [
        m.group(0)
        for text in texts
        for m in _ZH_COUNT.finditer(text)
        if m.group(0) != "一" and (value := zh_numeral(m.group(0))) is not None and value not in asked_values
    ]
    return read + [f for f in [*fused, *counted] if not any(f in r or r in f for r in read)]


def lacks_asked_figure(stored: StoredIndex, chosen: Sequence[int], question: str, kind: str) -> bool:
    """A question asking to count (its interrogative) whose answer's ``chosen`` sentences state no
    figure of their own. ``kind``: the question's learned kind; a list question asks for items, not a
    count."""
    if not _COUNT.search(question) or kind == "list":
        return False
    return not stated_figures([stored.sentence_text(stored.sentences[s]) for s in chosen], question)
