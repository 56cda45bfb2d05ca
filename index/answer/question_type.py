"""What kind of thing a question asks for, and what kinds of thing a sentence holds: the
answer-type features of the sentence scorer. Interrogatives of Chinese and English, not words of
any question set: the scorer learns from public data how much each pairing matters.
"""

from __future__ import annotations

import re
from functools import lru_cache

# the order decides between two matches ("how many years" asks for a number, "what year" a date)
ASKED = ("number", "date", "person", "place", "reason", "method", "yesno", "entity")
_ASKED_PATTERNS: dict[str, re.Pattern[str]] = {
    "number": re.compile(
        r"多少|几(?![月号时])|多[大长久高远重深宽]|百分之|比例|占比"
        r"|\bhow (?:many|much|long|old|large|big|far|high|tall|often|deep|wide)\b"
        r"|\bwhat (?:percentage|proportion|share|number|amount|size)\b",
        re.IGNORECASE,
    ),
    "date": re.compile(
        r"什么时候|何时|哪一?年|哪一?天|几月|几号|几时|什么时间|哪个时期|哪个世纪|哪个朝代|什么年代"
        r"|\bwhen\b|\b(?:what|which) (?:year|date|day|month|century|decade|time|period|era)\b",
        re.IGNORECASE,
    ),
    "person": re.compile(
        r"谁|哪位|什么人|哪个人|哪些人|\bwho(?:m|se)?\b|\bwhich (?:person|people|man|woman)\b", re.IGNORECASE
    ),
    "place": re.compile(
        r"哪里|哪儿|在哪|什么地方|哪个国家|哪个城市|哪座|哪个地区|何处|何地|\bwhere\b"
        r"|\b(?:what|which) (?:country|city|place|region|state|area|location|continent|town)\b",
        re.IGNORECASE,
    ),
    "reason": re.compile(
        r"为什么|为何|为啥|何故|原因|\bwhy\b|\bhow come\b|\bwhat (?:caused|causes|reason)\b", re.IGNORECASE
    ),
    "method": re.compile(r"怎么|怎样|如何|\bhow\b", re.IGNORECASE),
    "yesno": re.compile(
        r"是否|是不是|有没有|能不能|会不会|吗\s*[?？]?\s*$"
        r"|^\s*(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had)\b",
        re.IGNORECASE,
    ),
    "entity": re.compile(r"什么|哪|啥|\bwhat\b|\bwhich\b", re.IGNORECASE),
}


def asked_type(question: str) -> str:
    """The first kind of answer the question's interrogatives ask for ("other" when none does)."""
    for name in ASKED:
        if _ASKED_PATTERNS[name].search(question):
            return name
    return "other"


def asked_vector(question: str) -> list[float]:
    """One-hot of asked_type over ASKED + other."""
    kind = asked_type(question)
    return [1.0 if kind == name else 0.0 for name in (*ASKED, "other")]


# what a sentence holds
HELD = ("digit", "year", "date", "percent", "latin", "quoted", "reason", "colon_end", "table_row", "bullet")
_HELD_PATTERNS: dict[str, re.Pattern[str]] = {
    "digit": re.compile(r"\d|[零一二两三四五六七八九十百千万亿]{2,}"),
    "year": re.compile(r"(?<!\d)(?:1[0-9]|20)\d\d(?!\d)|世纪|年代"),
    "date": re.compile(
        r"\d+\s*[年月日号]|[一二三四五六七八九十]+月|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
        re.IGNORECASE,
    ),
    "percent": re.compile(r"%|％|百分之|成(?![为功立员])"),
    "latin": re.compile(r"[A-Za-z]{2,}"),
    "quoted": re.compile(r"[「『“《\"]"),
    "reason": re.compile(r"因为|由于|所以|因此|为了|导致|原因|之所以|\bbecause\b|\bdue to\b"),
    "colon_end": re.compile(r"[：:]\s*$"),
    "table_row": re.compile(r"\t"),
    "bullet": re.compile(r"^\s*(?:[•·\-*–]|\d+[.、)]|[一二三四五六七八九十]+、|第[一二三四五六七八九十]+[，、,])"),
}


@lru_cache(maxsize=131072)
def held_vector(text: str) -> tuple[float, ...]:
    """What a sentence holds, one flag per HELD (read once per sentence, not once per question)."""
    return tuple(1.0 if _HELD_PATTERNS[name].search(text) else 0.0 for name in HELD)


# English pronouns, personal and demonstrative (a closed class): a sentence opening with one speaks of
# what the sentence before it named ("This is paving the way…", "It was founded…")
_EN_PRONOUNS = frozenset(
    ["this", "that", "these", "those", "it", "its", "they", "their", "them", "he", "his", "him", "she", "her", "such"]
)
_OPENING = re.compile(r"^[\s•·\-*–「『“\"(（]*(?P<word>[A-Za-z]+|[\u3400-\u9fff]{1,4})")


@lru_cache(maxsize=131072)
def opens_with_pronoun(text: str) -> bool:
    """The sentence opens with a pronoun (jieba's tag r for Chinese: 这, 他们, 该; an English personal
    or demonstrative one): it goes on about what the sentence before it named, as a conclusion or an
    explanation does ("这是在为潜在的收购铺路")."""
    opening = _OPENING.match(text)
    if opening is None:
        return False
    word = opening.group("word")
    if word.isascii():
        return word.lower() in _EN_PRONOUNS
    import jieba.posseg

    first = next(iter(jieba.posseg.cut(word)), None)
    return first is not None and first.flag == "r"
