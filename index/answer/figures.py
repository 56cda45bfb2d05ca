"""Whether an answer says what is asked: the figure a how-many question asks for, the date a what-year
question asks for, of the version it names and not another model's. A question about the article's
subject whose missing paragraph held the number ("多少开发者在用 Cursor？") still finds the article's
sentences on that subject; none of them states a number, and saying so is the honest answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from index.answer.units import render_sentence
from index.build.store import StoredIndex
from index.text.bounds import is_version
from index.text.numbers import CURRENCY_WORDS, MEASURE_WORDS, PERCENT_WORDS, quantities, zh_numeral
from index.text.relative_days import relative_days
from index.text.tokens import tagged

# a question asking to count: how many, how much (多少 is both), 几 (not 哪几, "which ones"), what share. Not
# how long / how often / 多久 / 多大: an extent is as often answered in words ("rarely", "多年", "大片")
_COUNT = re.compile(
    r"多少|(?<!哪)几(?![月号时])|百分之|比例|占比|\bhow (?:many|much)\b"
    r"|\bwhat (?:percentage|proportion|share|number)\b",
    re.IGNORECASE,
)
# a question counting things: "how many …", 多少 / 几 before a measure word (多少人, 几家, 多少倍); 几月 / 几号 /
# 几时 ask a date
_COUNTS_THINGS = re.compile(
    r"\bhow many\b|(?:多少|几)\s*[" + "".join(c for c in MEASURE_WORDS if c not in "月日号时") + "]", re.IGNORECASE
)
# a question asking for a calendar date or a year by its interrogative (not "when": an event answers it as
# often, "发布当天"; not "what day" / "what month": a weekday or a month's name answers those)
_ASKS_DATE = re.compile(
    r"哪一?天|哪一?年|几号|什么日期|哪个日期|\b(?:what|which) (?:date|year)\b|\bwhen exactly\b", re.IGNORECASE
)
# a name and its versions: Composer 2.5, "composer2", GPT-4, Composer 2/2.5 (not K2.5 or H100: one letter
# is a code)
_VERSIONED = re.compile(r"(?<![A-Za-z0-9])([A-Za-z][A-Za-z\-]+)\s*(\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)*)(?![\d.A-Za-z])")
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
        and not (q.kind == "number" and q.text == "一")
        and not is_version(text, q)  # Composer 2, Opus 4.7: a name, no count
    ]
    fused = [m.group(0) for text in texts for m in _WITH_UNIT.finditer(text) if Decimal(m.group(1)) not in asked_values]
    counted = [
        m.group(0)
        for text in texts
        for m in _ZH_COUNT.finditer(text)
        if m.group(0) != "一" and (value := zh_numeral(m.group(0))) is not None and value not in asked_values
    ]
    return read + [f for f in [*fused, *counted] if not any(f in r or r in f for r in read)]


def _versions(text: str, named: bool = False) -> set[tuple[str, str]]:
    """(name, version) of each versioned name ``text`` writes; ``named``: only those capitalised as a
    name is typed (_named)."""
    return {
        (m.group(1).lower(), v)
        for m in _VERSIONED.finditer(text)
        if not named or _named(text, m.start(1), m.group(1))
        for v in m.group(2).split("/")
    }


def another_version(texts: Sequence[str], question: str) -> bool:
    """The question names a version (Composer 2) that ``texts`` never write, while they write another
    version of the same name (Composer 2.5): the figures they state are that one's. A question naming
    two versions of one name compares them, and is not read so."""
    written, asked = _versions(" ".join(texts)), _versions(question)
    once = [(name, version) for name, version in asked if sum(n == name for n, _ in asked) == 1]
    return any(
        (name, version) not in written and any(n == name and v != version for n, v in written) for name, version in once
    )


def _named(text: str, start: int, word: str) -> bool:
    """``word`` is capitalised as a name is: a capital opening a sentence ("In 2026, …") marks none."""
    capitals = sum(c.isupper() for c in word)
    opens = not text[:start].strip() or text[:start].rstrip()[-1] in ".?!。？！"
    return capitals > 1 or (capitals == 1 and not opens)


def another_name(texts: Sequence[str], question: str) -> bool:
    """The question names a version of a name, capitalised as a name is typed (GPT-5, Claude Opus 4.7),
    that ``texts`` never write, while they write versions of names the question doesn't name: what they
    state is said of those (a question on GPT-5's price answered with another model's)."""
    written, asked = _versions(" ".join(texts)), _versions(question, named=True)
    others = {name for name, _ in written} - {name for name, _ in asked}
    return bool(others) and any(pair not in written for pair in asked)


# where a clause ends: a table row rendered "label：header cell，header cell" has a cell a clause
_CLAUSE_END = re.compile(r"[，,；;。！？!?\n]")


def figures_of_others(texts: Sequence[str], question: str) -> bool:
    """The question names a version ``texts`` write (Claude Opus 4.7), but every clause of theirs that
    states a figure names versions of other things only (a table row's cell its column's: "Composer 2.5
    70.2%，对比 Claude Opus 4.7 水平"): the figures are those things', not the one asked about."""
    written = _versions(" ".join(texts))
    asked = _versions(question) & written
    if not asked:
        return False
    clauses = [c for text in texts for c in _CLAUSE_END.split(text) if c.strip()]
    stating = [_versions(c) for c in clauses if stated_figures([c], question)]
    return bool(stating) and all(names and not names & asked for names in stating)


def _interrogative(question: str) -> str:
    """``question`` with the words holding 几 or 多少 that jieba tags no numeral blanked out: 几乎
    ("almost") asks no count."""
    for word, flag in tagged(question):
        if ("几" in word or "多少" in word) and not flag.startswith("m"):
            question = question.replace(word, " " * len(word))
    return question


def says_another_thing(stored: StoredIndex, chosen: Sequence[int], question: str, kind: str) -> bool:
    """The answer's ``chosen`` sentences speak of another version than the one the question asks about,
    or of other names' versions only, or the question asks a date they don't state, or it asks to count
    (its interrogative) and they state no figure of their own, or only other versions' figures. ``kind``:
    the question's learned kind; a list question asks for items, not a count."""
    texts = [render_sentence(stored, stored.sentences[s]) for s in chosen]  # a table row with its header
    if another_version(texts, question) or another_name(texts, question) or undated(texts, question):
        return True
    if not (_COUNT.search(question) and _COUNT.search(_interrogative(question))) or kind == "list":
        return False
    figures = stated_figures(texts, question)
    if not figures or figures_of_others(texts, question):
        return True
    return counts_things(question) and not counted(figures, texts, question)


def undated(texts: Sequence[str], question: str) -> bool:
    """The question asks for a date or a year (哪一年, 几号, "what year", "when exactly") and ``texts``
    state none: no date, no number read as a year, no day said relative to another (发布当天)."""
    if not _ASKS_DATE.search(question):
        return False
    for text in texts:
        found = quantities(text)
        if any(q.kind == "date" for q in found) or relative_days(text):
            return False
        if any(
            q.kind == "number" and q.value is not None and q.value == int(q.value) and 1000 <= q.value <= 2100
            for q in found
        ):
            return False
    return True


def counts_things(question: str) -> bool:
    """The question counts things ("how many employees", 多少人, 几家), not a sum, a share or a date."""
    return _COUNTS_THINGS.search(question) is not None


def counted(figures: Sequence[str], texts: Sequence[str], question: str) -> bool:
    """Whether any of the ``figures`` ``texts`` state is a count of things: a number or a multiple, not
    a sum of money, a share or a date ("How many employees…" is not answered by US$60 billion), unless
    the question counts in money or in percent ("how many dollars", 多少个百分点)."""
    stated = [q for text in texts for q in quantities(text)]
    kinds = {q.kind for q in stated if q.text in figures}
    kinds |= {"number"} if set(figures) - {q.text for q in stated} else set()  # 300MB, 四所: counts read apart
    lowered = question.lower()
    allowed = {"number", "factor"}
    allowed |= {"percent", "fraction"} if any(word in lowered for word in PERCENT_WORDS) else set()
    allowed |= {"money"} if any(word in lowered for word in CURRENCY_WORDS) else set()
    return bool(kinds & allowed)
