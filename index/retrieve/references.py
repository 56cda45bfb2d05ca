"""Questions that point at a part of the article: "per the conclusion", "in section 5", "结语里",
"文章最后", "第三部分". Pure functions: the reference in a question, and the chunks it points at.

Only explicit references count. 最后 alone is mostly "in the end" (Cursor 最后怎么做的), "at the end"
is the article's end only in a question about the article, and 第一 is a lesson's number
(行业启示第一条), not a section: an item of a list ("the 2nd lesson", 第三点, "the first stage"),
whose list is the one the question retrieves (answer.list_item). A section the question names by its
heading (named_section) is meant more surely than one by position: 最后 is loose about where the end begins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from index.build.store import StoredIndex
from index.text.tokens import tokenize

LAST = -1

_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
    "ninth": 9, "tenth": 10,
}  # fmt: skip
_CN_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_NUMBER = r"(\d{1,2}|" + "|".join(_WORDS) + r")"
_ARTICLE = r"(?:the|this) (?:article|piece|post|text|essay)"

_LAST_EN = re.compile(
    r"\b(?:conclusion|concluding (?:section|part|paragraph|words)|closing (?:section|part|paragraph|words)"
    r"|(?:final|last) (?:section|part|paragraph|sentence|line|words))\b"
    rf"|\b(?:the )?end(?:ing)? of {_ARTICLE}\b|\bhow does {_ARTICLE} end\b|\b(?:{_ARTICLE}|the author) concludes?\b",
    re.IGNORECASE,
)
# "at the end" is the article's end only in a question about the article ("…the article say … at the
# end?"); "Who won at the end?" is not
_AT_THE_END = re.compile(r"\bat the (?:very )?end\b(?!\s+of\b)", re.IGNORECASE)
_ABOUT_ARTICLE = re.compile(r"\b(?:article|author|writer|piece|essay)\b", re.IGNORECASE)
_FIRST_EN = re.compile(
    r"\b(?:introduction|intro|opening (?:section|paragraph|lines?))\b"
    rf"|\b(?:beginning|start) of {_ARTICLE}\b",
    re.IGNORECASE,
)
# "part 2", "the third section", "the second part of the article"; not "the first part of training"
_NTH_EN = re.compile(
    rf"\b(?:section|part|chapter)\s+{_NUMBER}\b|\b{_NUMBER}\s+(?:section|chapter)\b"
    rf"|\b{_NUMBER}\s+part\s+of\s+{_ARTICLE}\b",
    re.IGNORECASE,
)
# "the article's conclusion" is its last section; 结论 alone isn't (我先说结论 opens section 1)
_LAST_ZH = re.compile(
    r"结语|结尾|文末|收尾|(?:文章|全文)(?:的)?最后|最后(?:一|那|这)?(?:句|段|部分|节)"
    r"|(?:文章|全文|本文|作者)(?:的)?(?:最终|最后的?)?结论"
)
_FIRST_ZH = re.compile(r"开头|开篇|(?:文章|全文)(?:的)?(?:一开始|开始)")
_NTH_ZH = re.compile(r"第\s*([一二两三四五六七八九十\d]{1,3})\s*(?:部分|节|章|小节)")
# an ordinal with a noun that names a list's items: "the 2nd lesson", "the first stage", "stage two",
# 第三点, 第一条, 第二个启示; not "the first part of training" (a part is a section) or "第42行"
_ORDINAL_EN = (
    r"\d{1,2}(?:st|nd|rd|th)|" + "|".join(w for w in _WORDS if w.endswith(("st", "nd", "rd", "th"))) + r"|last|final"
)
_ITEM_NOUN_EN = r"(?P<noun>lesson|point|takeaway|stage|phase|step|item|implication|insight|reason|thing|idea)s?"
_ITEM_NOUN_ZH = r"(?P<noun>条|点|项|步|件|阶段|个(?:启示|教训|阶段|步骤|观点|理由|建议|要点))"
_ITEMS = (
    re.compile(rf"\b(?P<n>{_ORDINAL_EN})\s+(?:[a-z-]+\s+)?{_ITEM_NOUN_EN}\b", re.IGNORECASE),  # the 2nd lesson
    re.compile(rf"\b(?P<noun>lesson|point|stage|phase|step)\s+(?P<n>{_NUMBER})\b", re.IGNORECASE),  # stage two
    re.compile(r"第\s*(?P<cn>[一二两三四五六七八九十\d]{1,2})\s*" + _ITEM_NOUN_ZH),  # 第三点, 第二个启示
    re.compile(r"最后一\s*" + _ITEM_NOUN_ZH),  # 最后一条
)
_NUMBERED_HEADING = re.compile(r"^([一二三四五六七八九十]{1,3})、|^(\d{1,2})[.、]")


@dataclass(frozen=True)
class SectionReference:
    position: int  # 1-based: 1 the first top-level section, LAST the last


def chinese_number(text: str) -> int | None:
    """一 … 九十九 (and plain digits) as an int."""
    if text.isdigit():
        return int(text)
    if text == "十":
        return 10
    if "十" in text:
        tens, _, units = text.partition("十")
        return (_CN_DIGITS.get(tens, 1) if tens else 1) * 10 + (_CN_DIGITS.get(units, 0) if units else 0)
    return _CN_DIGITS.get(text) if len(text) == 1 else None


def _english_number(word: str) -> int:
    """ "3", "3rd", "three", "third" → 3."""
    digits = re.match(r"\d+", word)
    return int(digits.group(0)) if digits else _WORDS[word]


def section_reference(question: str) -> SectionReference | None:
    """The top-level section a question explicitly points at, if any."""
    nth = _NTH_EN.search(question)
    if nth:
        return SectionReference(_english_number(next(g for g in nth.groups() if g).lower()))
    nth_zh = _NTH_ZH.search(question)
    if nth_zh:
        number = chinese_number(nth_zh.group(1))
        if number:
            return SectionReference(number)
    at_the_end = _AT_THE_END.search(question) and _ABOUT_ARTICLE.search(question)
    if _LAST_EN.search(question) or _LAST_ZH.search(question) or at_the_end:
        return SectionReference(LAST)
    if _FIRST_EN.search(question) or _FIRST_ZH.search(question):
        return SectionReference(1)
    return None


@dataclass(frozen=True)
class ItemReference:
    position: int  # 1-based, LAST the last
    noun: str  # what the items are called: lesson, stage, 阶段, 点 (picks the list among several)


def item_reference(question: str) -> ItemReference | None:
    """The list item a question points at ("the 2nd lesson", "stage two", 第三点), if any."""
    for pattern in _ITEMS:
        if match := pattern.search(question):
            found = match.groupdict()
            noun = found["noun"].lower().removeprefix("个")
            if found.get("cn"):
                position = chinese_number(found["cn"])
                return ItemReference(position, noun) if position else None
            english = found.get("n")  # none in "最后一条"
            if english is None or english.lower() in ("last", "final"):
                return ItemReference(LAST, noun)
            return ItemReference(_english_number(english.lower()), noun)
    return None


def referenced_chunks(stored: StoredIndex, reference: SectionReference) -> list[int]:
    """The chunks, in document order, of the section each document has at that position: by its
    heading's number when the headings are numbered (五、 is section 5, 结语 the last), else by order."""
    found: list[int] = []
    for tops in stored.top_sections.values():
        headings = list(tops)
        if reference.position == LAST:
            found += tops[headings[-1]]
            continue
        numbered = {n: h for h in headings if (n := _heading_number(h)) is not None}
        if numbered:
            heading = numbered.get(reference.position)
        else:
            heading = headings[reference.position - 1] if reference.position <= len(headings) else None
        if heading is not None:
            found += tops[heading]
    return found


def named_section(stored: StoredIndex, words: frozenset[str]) -> list[int]:
    """The chunks of the one top-level section whose heading the question names: every word of two or
    more in its heading (its number aside) is among ``words``, the question's words in the corpus's
    forms ("给行业的三条启示" names 六、对行业的启示). [] when none or more than one is named."""
    named = [
        chunks
        for tops in stored.top_sections.values()
        for heading, chunks in tops.items()
        if len(own := _heading_words(heading)) >= 2 and own <= words
    ]
    return named[0] if len(named) == 1 else []


def _heading_words(heading: str) -> frozenset[str]:
    return frozenset(w for w in tokenize(_NUMBERED_HEADING.sub("", heading)) if len(w) > 1)


def _heading_number(heading: str) -> int | None:
    match = _NUMBERED_HEADING.match(heading)
    if not match:
        return None
    return chinese_number(match.group(1)) if match.group(1) else int(match.group(2))
