"""Quantities in Chinese and English text, as canonical values, and their English renderings (issue #23).

One normaliser for two jobs: the English answer line renders what the article states exactly
(index/text/amounts.py: 600 亿美元 → US$60 billion, 100 万个 → 1 million, 25 倍 → 25×), and
verification checks that every number a model wrote occurs in the passages it cites, with its
magnitude: "320 billion" is not 320 亿 (32 billion), "100,000" is not 100 万.

Numbers inside a name (K2.5, H100, v3.1, kimi-k2p5-0317) are part of the name, not quantities.
Pure functions; decimals are exact (``Decimal``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Literal

from index.text.numerals import ZH_DIGITS, neighbours, zh_number, zh_numeral

Kind = Literal["number", "percent", "factor", "money", "date", "fraction", "ordinal"]

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_MONTH_OF = {name.lower(): i for i, name in enumerate(MONTHS, 1)} | {
    name[:3].lower(): i for i, name in enumerate(MONTHS, 1)
}
_MONTH_OF["sept"] = 9

_MAGNITUDES = {
    "万亿": 10**12, "千亿": 10**11, "百亿": 10**10, "亿": 10**8, "千万": 10**7, "百万": 10**6, "十万": 10**5,
    "万": 10**4, "千": 10**3, "百": 100,
    "trillion": 10**12, "billion": 10**9, "bn": 10**9, "b": 10**9, "million": 10**6, "m": 10**6,
    "thousand": 10**3, "hundred": 100, "k": 10**3,
}  # fmt: skip
_EN_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90}  # fmt: skip
_EN_WORDS = {
    **{k: v for k, v in _EN_UNITS.items() if k != "one"}, **_EN_TENS,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "hundred": 100,
}  # fmt: skip
# forty-two, ninety nine; two and a half
_EN_WORDS |= {f"{t}{sep}{u}": tv + uv for t, tv in _EN_TENS.items() for u, uv in _EN_UNITS.items() for sep in "- "}
_EN_HALVES = {f"{w} and a half": Decimal(v) + Decimal("0.5") for w, v in {**_EN_WORDS, "one": 1}.items() if v < 100}
# "one" is left out on its own: "one of the co-founders", "the one that…" count nothing
_CURRENCY_BEFORE = {"us$": "USD", "usd": "USD", "$": "USD", "cn¥": "CNY", "rmb": "CNY", "¥": "CNY", "￥": "CNY"}
_CURRENCY_AFTER = {"美元": "USD", "美金": "USD", "元": "CNY", "人民币": "CNY", "块": "CNY", "dollars": "USD",
                   "dollar": "USD", "usd": "USD", "yuan": "CNY", "rmb": "CNY"}  # fmt: skip
CURRENCY_WORDS = frozenset(_CURRENCY_AFTER) | {"钱"}  # what an amount of money is counted in ("how many dollars")
_FACTOR = ("倍", "×", "x", "times", "-fold", "fold")
_PERCENT = ("%", "％", "percent", "per cent")
PERCENT_WORDS = (*_PERCENT, "percentage", "百分")  # what a share is counted in ("how many percentage points")
# what an ordinal numbers, by its measure word: 第 42 行 is line 42, 第三章 chapter 3 (grammar, not vocabulary)
ORDINAL_NOUNS = {"行": "line", "页": "page", "章": "chapter", "节": "section", "条": "item", "步": "step",
                 "名": "place", "轮": "round", "次": "time", "天": "day", "年": "year", "层": "layer"}  # fmt: skip
# before a magnitude, "some": 几千 "several thousand", 数百万 "millions"
_SOME = ("几", "数")
# measure words a Chinese numeral counts with (三件事, 两个阶段); digits need none
MEASURE_WORDS = "个件点条项种步层家位名类次轮倍年月日天周岁人款句段章节部份张台块"

_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_ZH_NUMERAL = r"[零〇一二两三四五六七八九十百千]+(?:点[零〇一二三四五六七八九]+)?"  # 六十三点二 is 63.2
_MAG_ZH = "万亿|千亿|百亿|亿|千万|百万|十万|万|千"  # 百 after digits is rare and ambiguous (100 百?)
_MAG_EN = r"trillion|billion|million|thousand|bn|[bBmMkK](?![A-Za-z])"
_UNIT = (
    r"美元|美金|人民币|元|块|倍|%|％|×|x(?![A-Za-z])|times\b|-?fold\b|percent\b|per cent\b"
    r"|dollars?\b|USD\b|yuan\b|RMB\b"
)
_EN_NUMBER_WORD = "|".join(sorted([*_EN_WORDS, *_EN_HALVES], key=len, reverse=True))
_MONTH_NAMES = "|".join(sorted(_MONTH_OF, key=len, reverse=True))

_DATE = re.compile(
    r"(?<![\d.])(?P<zy>\d{4})\s*年\s*(?P<zm>\d{1,2})\s*月(?:\s*(?P<zd>\d{1,2})\s*[日号])?"
    r"|(?<![\d年])(?P<zm2>\d{1,2})\s*月\s*(?P<zd2>\d{1,2})\s*[日号]"
    r"|(?<![\d.])(?P<zy3>\d{4})\s*年(?!\s*\d{1,2}\s*月)(?!代)"  # 74000年 is no year 4000
    rf"|\b(?P<em>{_MONTH_NAMES})\.?\s+(?P<ed>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<ey>\d{{4}})\b)?"
    rf"|\b(?P<ed2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<em2>{_MONTH_NAMES})\b\.?(?:,?\s+(?P<ey2>\d{{4}})\b)?"
    rf"|\b(?P<em3>{_MONTH_NAMES})\b\.?,?\s+(?P<ey3>\d{{4}})\b"
    r"|\b(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})\b"
    r"|\b(?P<sy>\d{4})/(?P<sm>\d{1,2})/(?P<sd>\d{1,2})\b|\b(?P<um>\d{1,2})/(?P<ud>\d{1,2})/(?P<uy>\d{4})\b",
    re.IGNORECASE,
)
_PERCENT_ZH = re.compile(r"百分之(?P<n>" + _ZH_NUMERAL + r"|" + _DIGITS + ")")
# tenths: 六成 is 60%, 两成出头 a little over 20% (not 三五成群, "in groups", nor the idiom 一成不变, "unchanging")
_TENTHS_ZH = re.compile(
    r"(?<![零〇一二两三四五六七八九十百千万亿])(?P<n>[一二两三四五六七八九])成(?P<half>半)?(?!不变)"
)  # a name holding 三成 (石田三成) reads as one: no dictionary of names here
_FRACTION = re.compile(
    r"(?<![\d.,/])(?P<a>\d+)\s*/\s*(?P<b>\d+)(?!\d|\.\d|\s*/)"
    rf"|(?P<zb>{_ZH_NUMERAL})分之(?P<za>{_ZH_NUMERAL})"
)
# a tenth, one-fifth, two thirds, half, 一半: shares written in words
_PARTS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
          "ninth": 9, "tenth": 10, "hundredth": 100, "thousandth": 1000}  # fmt: skip
_FRACTION_WORDS = re.compile(
    rf"(?<!and )\b(?P<n>a|one|{'|'.join(k for k, v in _EN_UNITS.items() if v > 1)})"
    rf"[\s-]+(?P<part>{'|'.join(_PARTS)})s?\b"
    r"|(?P<zh>一半|半数)"
    r"|(?<!\ba )(?<!\bone )\b(?P<bare>half)\b(?!-)",  # "at half the cost" as 一半 is; "half-life" a word
    re.IGNORECASE,
)
# per million (tokens): the unit of a rate, as 每百万 is
_PER_MAGNITUDE_EN = re.compile(r"\bper\s+(?:a\s+|one\s+)?(?P<mag>trillion|billion|million|thousand|hundred)\b", re.I)
_QUANTITY = re.compile(
    r"(?P<cur>US\$|CN¥|\$|¥|￥|\bUSD\s?|\bRMB\s?)?"
    rf"(?P<ord>第\s*)?(?P<num>{_DIGITS}|{_ZH_NUMERAL}|\b(?:{_EN_NUMBER_WORD}|one|a)\b)"
    rf"(?:[\s-]*(?P<mag>{_MAG_ZH}|{_MAG_EN}))?"  # sixty-billion-dollar
    rf"(?:[\s-]*(?P<unit>{_UNIT}))?"
    r"(?P<suffix>st\b|nd\b|rd\b|th\b)?",
    re.IGNORECASE,
)
_ORDINAL_UNITS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                  "eighth": 8, "ninth": 9}  # fmt: skip
_ORDINAL_WORDS = {**_ORDINAL_UNITS, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
                  "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
                  "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50}  # fmt: skip
_ORDINAL = re.compile(
    rf"\b(?:(?P<tens>{'|'.join(_EN_TENS)})[\s-])?(?P<unit>{'|'.join(sorted(_ORDINAL_WORDS, key=len, reverse=True))})\b",
    re.IGNORECASE,
)
_MONTH_WORD = "|".join(sorted({m.capitalize() for m in _MONTH_OF}, key=len, reverse=True))  # "may" is a verb
# an ordinal word beside a month is the day of a date ("the nineteenth of May", "May the 19th"), not a word
_MONTH_AFTER = re.compile(rf"\s+(?:of\s+)?(?:{_MONTH_WORD})\b")
_MONTH_BEFORE = re.compile(rf"\b(?:{_MONTH_WORD})\.?\s+(?:the\s+)?$")
# a decade: 20世纪80年代, 1990年代, the 1980s
_DECADE = re.compile(r"(?P<c>\d{1,2})\s*世纪\s*(?P<d>\d)0\s*年代|(?P<zy>\d{3}0)\s*年代|\b(?P<ey>\d{3}0)['’]?s\b")
_HEADING_ORDINAL = re.compile(r"(?:^|\n)\s*([一二三四五六七八九十]+)、")
_PER_MAGNITUDE = re.compile(r"每\s*(?P<mag>百万|千万|万亿|亿|万|千|百)")
# a word with letters and digits in it is a name (K2.5, H100, v3.1, kimi-k2p5-rl-0317)
_IDENTIFIER = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-.]*[A-Za-z0-9]")
# the cents after "two dollars": "fifty", "50 cents"; not a count of something ("5 dollars 30 tokens")
_CENTS = re.compile(
    rf"\s+(?:and\s+)?(?P<n>{_EN_NUMBER_WORD}|\d{{2}})\b(?:\s+cents?\b|(?=\s*(?:[^\w\s]|$|(?:per|for|each|an?)\b)))",
    re.IGNORECASE,
)
_UNIT_SUFFIXED = re.compile(rf"(?:{_DIGITS})(?:{_MAG_EN}|x|-?fold|st|nd|rd|th|bn)", re.IGNORECASE)


@dataclass(frozen=True)
class Quantity:
    """A number as stated: ``value`` with its magnitude applied (600 亿 → 60000000000; a percentage
    in percent; a fraction as its percentage), what kind it is, and where it was written."""

    kind: Kind
    value: Decimal | None  # None for a date
    start: int
    end: int
    text: str
    currency: str = ""  # "USD", "CNY" for money
    places: int = 0  # decimal places as written, when no magnitude changed them (2.50 → 2)
    scaled: bool = False  # a magnitude word was applied (万, 亿, million …)
    year: int | None = None
    month: int | None = None
    day: int | None = None
    per: bool = False  # "每百万": a rate's unit, not an amount
    measure: str = ""  # an ordinal's measure word: 第 42 行 → 行
    spelled: bool = False  # an English ordinal word ("first"), not a day: as often a word as a number


_DIGIT_WORDS = {"zero": 0, "oh": 0, "one": 1, **_EN_UNITS}
_SPELLED_DECIMAL = re.compile(
    rf"\b(?P<whole>{'|'.join(sorted([*_EN_WORDS, 'one', 'zero'], key=len, reverse=True))})\s+point"
    rf"(?P<digits>(?:[\s-]+(?:{'|'.join(_DIGIT_WORDS)})\b)+)",
    re.IGNORECASE,
)


def digit_decimals(text: str) -> str:
    """The text with its decimals spelled out in words written in digits ("seventy point two percent"
    → "70.2 percent"), as a generated answer may say a score its source writes in digits."""

    def digits(match: re.Match[str]) -> str:
        whole = match.group("whole").lower()
        value = 0 if whole == "zero" else 1 if whole == "one" else _EN_WORDS[whole]
        places = "".join(str(_DIGIT_WORDS[w.lower()]) for w in re.findall(r"[A-Za-z]+", match.group("digits")))
        return f"{value}.{places}"

    return _SPELLED_DECIMAL.sub(digits, text)


def _decimal(text: str) -> tuple[Decimal, int] | None:
    plain = text.replace(",", "")
    try:
        value = Decimal(plain)
    except InvalidOperation:
        return None
    places = len(plain.split(".")[1]) if "." in plain else 0
    return value, places


def _name_spans(text: str) -> list[tuple[int, int]]:
    """Where digits belong to a name: a word mixing letters and digits that is no number with a
    unit (25x, 1.5B, 3rd)."""
    spans = []
    for match in _IDENTIFIER.finditer(text):
        word = match.group()
        if re.search(r"\d", word) and re.search(r"[A-Za-z]", word) and not _UNIT_SUFFIXED.fullmatch(word):
            spans.append(match.span())
    return spans


def identifiers(text: str) -> list[str]:
    """The words of ``text`` that mix letters and digits: names and codes (K2.5, H100, kimi-k2p5-0317)."""
    return [text[a:b] for a, b in _name_spans(text)]


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(start < span[1] and span[0] < end for start, end in spans)


def _date(match: re.Match[str]) -> Quantity:
    g = match.groupdict()
    year = g["zy"] or g["zy3"] or g["ey"] or g["ey2"] or g["ey3"] or g["iy"] or g["sy"] or g["uy"]
    month_text = g["zm"] or g["zm2"] or g["im"] or g["sm"] or g["um"]
    day = g["zd"] or g["zd2"] or g["ed"] or g["ed2"] or g["id"] or g["sd"] or g["ud"]
    if g["um"] and int(g["um"]) > 12:  # 27/3/2026: day first
        month_text, day = g["ud"], g["um"]
    month = int(month_text) if month_text else None
    name = g["em"] or g["em2"] or g["em3"]
    if name:
        month = _MONTH_OF[name.lower().rstrip(".")]
    return Quantity(
        "date", None, match.start(), match.end(), match.group(), year=int(year) if year else None,
        month=month, day=int(day) if day else None,
    )  # fmt: skip


def _valid_date(q: Quantity) -> bool:
    return (q.month is None or 1 <= q.month <= 12) and (q.day is None or 1 <= q.day <= 31)


def _number(match: re.Match[str], text: str) -> Quantity | None:
    g = match.groupdict()
    num, mag, unit = g["num"], (g["mag"] or ""), (g["unit"] or "").strip()
    chinese = bool(re.fullmatch(_ZH_NUMERAL, num))
    word = num.lower() in _EN_WORDS or num.lower() in _EN_HALVES or num.lower() in ("one", "a")
    if chinese:
        number = zh_number(num)
        following = text[match.end() : match.end() + 1]
        counted = bool(mag or unit or g["ord"]) or (following and following in MEASURE_WORDS)
        if number is None or not counted or (num in ("千", "百", "十") and not (mag or unit)):
            return None
        if num in ("零", "〇") and not (mag or unit):
            return None  # no one counts zero things with a measure word: 零件, 零部件 are "parts"
        if text[max(0, match.start("num") - 1) : match.start("num")] in _SOME or neighbours(num):
            return None  # an estimate, not an amount: 几千元 "several thousand yuan", 两三年 "two or three years"
        value, places = number, 0
    elif word:
        if num.lower() in ("one", "a") and not mag:
            return None  # "one of them", "a model": no quantity without a magnitude (a million)
        value, places = _EN_HALVES.get(num.lower(), Decimal(_EN_WORDS.get(num.lower(), 1))), 0
    else:
        parsed = _decimal(num)
        if parsed is None:
            return None
        value, places = parsed
    scaled = False
    if mag:
        if mag[:1].isupper() and len(mag) == 1 and mag not in "BMK":
            return None
        value *= _MAGNITUDES[mag.lower()]
        scaled = True
    kind: Kind = "number"
    currency = _CURRENCY_BEFORE.get((g["cur"] or "").strip().lower(), "")
    lowered = unit.lower()
    if lowered in _CURRENCY_AFTER:
        currency = currency or _CURRENCY_AFTER[lowered]
    if currency:
        kind = "money"
    elif lowered in _PERCENT:
        kind = "percent"
    elif lowered in _FACTOR:
        kind = "factor"
    elif g["ord"] or g["suffix"]:
        kind = "ordinal"
    end = match.end() if (unit or g["suffix"]) else match.start("mag") + len(mag) if mag else match.end("num")
    start = match.start("cur") if g["cur"] else match.start("ord") if g["ord"] else match.start("num")
    measure = ""
    if kind == "ordinal" and g["ord"]:
        following = text[end:].lstrip()[:1]
        if following in ORDINAL_NOUNS:
            measure = following
            end = text.index(following, end) + 1
    return Quantity(
        kind, value, start, end, text[start:end], currency, 0 if scaled else places, scaled, measure=measure
    )


def quantities(text: str) -> list[Quantity]:
    """Every quantity in ``text`` (Chinese or English), in order: dates, percentages, fractions,
    money, factors, counts, ordinals and plain numbers."""
    names = _name_spans(text)
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []

    def add(q: Quantity) -> None:
        if not _inside((q.start, q.end), taken) and not _inside((q.start, q.end), names):
            found.append(q)
            taken.append((q.start, q.end))

    for match in _DECADE.finditer(text):  # before the names: "1980s" mixes digits and a letter
        g = match.groupdict()
        year = int(g["zy"] or g["ey"]) if g["zy"] or g["ey"] else (int(g["c"]) - 1) * 100 + int(g["d"]) * 10
        found.append(Quantity("date", None, match.start(), match.end(), match.group(), year=year))
        taken.append((match.start(), match.end()))
    for match in _DATE.finditer(text):
        q = _date(match)
        if _valid_date(q):
            add(q)

    for match in _PERCENT_ZH.finditer(text):
        n = match.group("n")
        parsed = _decimal(n)
        number = zh_number(n) if re.fullmatch(_ZH_NUMERAL, n) else parsed[0] if parsed else None
        if number is not None:
            add(Quantity("percent", number, match.start(), match.end(), match.group()))
    for match in _TENTHS_ZH.finditer(text):
        tenths = ZH_DIGITS[match.group("n")] * 10 + (5 if match.group("half") else 0)  # 三成半: 35%
        add(Quantity("percent", Decimal(tenths), match.start(), match.end(), match.group()))
    for match in _FRACTION.finditer(text):
        if match.group("a"):
            a, b = int(match.group("a")), int(match.group("b"))
        else:
            a, b = zh_numeral(match.group("za")) or 0, zh_numeral(match.group("zb")) or 0
        if b and a < b:  # 1/10; 24/7 and 2/2 are no share
            add(Quantity("fraction", Decimal(a) * 100 / Decimal(b), match.start(), match.end(), match.group()))
    for match in _FRACTION_WORDS.finditer(text):
        if match.group("zh") or match.group("bare"):
            share = Decimal(50)
        else:
            count = 1 if match.group("n").lower() in ("a", "one") else _EN_UNITS[match.group("n").lower()]
            share = Decimal(count) * 100 / _PARTS[match.group("part").lower()]
        add(Quantity("fraction", share, match.start(), match.end(), match.group()))
    for match in _ORDINAL.finditer(text):  # after the fractions: "one-fifth" is no fifth
        tens = _EN_TENS.get((match.group("tens") or "").lower(), 0)
        value = tens + _ORDINAL_WORDS[match.group("unit").lower()]
        if not tens or match.group("unit").lower() in _ORDINAL_UNITS:
            dated = _MONTH_AFTER.match(text, match.end()) or _MONTH_BEFORE.search(text[: match.start()])
            add(Quantity("ordinal", Decimal(value), match.start(), match.end(), match.group(), spelled=not dated))
    for match in _HEADING_ORDINAL.finditer(text):  # 六、对行业的启示: the sixth heading
        n = zh_numeral(match.group(1))
        if n:
            add(Quantity("ordinal", Decimal(n), match.start(1), match.end(1), match.group(1)))
    for match in [*_PER_MAGNITUDE.finditer(text), *_PER_MAGNITUDE_EN.finditer(text)]:
        mag = match.group("mag")
        value = Decimal(_MAGNITUDES[mag.lower()])
        add(Quantity("number", value, match.start("mag"), match.end(), mag, scaled=True, per=True))
    for match in _QUANTITY.finditer(text):
        if not match.group("num"):
            continue
        q = _number(match, text)
        if q is not None:
            add(q)
    return _with_cents(sorted(found, key=lambda q: q.start), text)


def _with_cents(found: list[Quantity], text: str) -> list[Quantity]:
    """Dollars said with their cents after them: "two dollars fifty", "2 dollars and 50 cents" is 2.50."""
    merged: list[Quantity] = []
    for q in found:
        last = merged[-1] if merged else None
        cents = _CENTS.match(text, last.end) if last is not None else None
        if (
            last is not None
            and cents is not None
            and cents.end("n") == q.end
            and last.kind == "money"
            and re.search(r"dollars?$", last.text, re.IGNORECASE)
            and q.kind == "number"
            and q.value is not None
            and q.value == q.value.to_integral_value()
            and 0 < q.value < 100
        ):
            assert last.value is not None
            end = cents.end()
            merged[-1] = replace(last, value=last.value + q.value / 100, end=end, text=text[last.start : end], places=2)
            continue
        merged.append(q)
    return merged


__all__ = [
    "CURRENCY_WORDS",
    "MEASURE_WORDS",
    "MONTHS",
    "ORDINAL_NOUNS",
    "PERCENT_WORDS",
    "Quantity",
    "digit_decimals",
    "identifiers",
    "quantities",
    "zh_numeral",
]
