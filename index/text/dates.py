"""English dates written as a Chinese article writes them: "May 18" → "5 月 18 日", "March 27th,
2026" → "2026 年 3 月 27 日", "in May" → "in 5 月". Pure: the question is searched with its dates so
written, so "What happened on May 18?" finds "5 月 18 日 Cursor 发布 Composer 2.5" by its numbers
instead of being declined for naming "May", a capitalised word the article never has. Chinese
dates in numerals ("二〇二六年五月二十日") are written in digits the same way (arabic_dates).
"""

from __future__ import annotations

import re

from index.text.numbers import zh_numeral

_MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}  # fmt: skip
_MONTH = r"(?P<m>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")(?:\.|\b)"
_DAY = r"(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:19|20)\d\d)"
_DATES = (
    re.compile(rf"\b{_MONTH}\s+{_DAY}\b(?:,?\s+{_YEAR}\b)?", re.IGNORECASE),  # May 18, March 27th, 2026
    re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}(?:,?\s+{_YEAR}\b)?", re.IGNORECASE),  # 18 May, 27th of March
    re.compile(rf"\b{_MONTH}\s+{_YEAR}\b", re.IGNORECASE),  # May 2026
    # a month alone only after a word that makes it one: "in May", not "May I ask…"
    re.compile(
        rf"\b(?P<w>in|since|before|after|until|till|by|during|early|late|mid)(?P<s>[\s-]){_MONTH}", re.IGNORECASE
    ),
)


def _chinese(match: re.Match[str]) -> str:
    parts = match.groupdict()
    month = _MONTHS[parts["m"].lower()]
    text = f"{month} 月"
    if parts.get("d"):
        text += f" {int(parts['d'])} 日"
    if parts.get("y"):
        text = f"{parts['y']} 年 {text}"
    return f"{parts['w']}{parts['s']}{text} " if parts.get("w") else f" {text} "


def chinese_dates(question: str) -> str:
    """The question with its English dates in Chinese form; unchanged when it has none."""
    changed = 0
    for pattern in _DATES:
        question, n = pattern.subn(_chinese, question)
        changed += n
    return re.sub(r" {2,}", " ", question).strip() if changed else question


_ZH_DATE = re.compile(
    r"(?:(?P<y>[〇零一二三四五六七八九]{4})\s*年\s*)?(?P<m>十[一二]?|[一二三四五六七八九])\s*月"
    r"(?:\s*(?P<d>[一二三]?十[一二三四五六七八九]?|[一二三四五六七八九])\s*[日号])?"
)


def _digits(match: re.Match[str]) -> str:
    year, month, day = match.group("y"), match.group("m"), match.group("d")
    text = f"{zh_numeral(month)} 月" + (f" {zh_numeral(day)} 日" if day else "")
    return f" {zh_numeral(year)} 年 {text} " if year else f" {text} "


def arabic_dates(text: str) -> str:
    """The text with its Chinese dates in numerals written in digits ("五月十八日" → "5 月 18 日"), as a
    generated answer may write the date its source gives in digits; unchanged when it has none."""
    changed, n = _ZH_DATE.subn(_digits, text)
    return re.sub(r" {2,}", " ", changed) if n else text
