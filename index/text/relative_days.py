"""Days said relative to an event: "the same day" / 当天 (0), "a day after" / 第二天 (+1), "the day
before" / 前一天 (-1), "three days later" / 三天后 (+3), "a week earlier" / 一周前 (-7). Pure. A
generated answer that moves an event a day ("Musk posted a day after the launch" where the article
says 发布当天) changes a number no digit shows: the verifier compares these offsets.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from index.text.numbers import quantities, zh_numeral

_EN_COUNT = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_COUNT = r"(?P<n>\d+|" + "|".join(_EN_COUNT) + r")"
_EN = (
    (re.compile(r"\b(?:the\s+)?same\s+day\b|\bon\s+the\s+day\b", re.IGNORECASE), 0),
    (re.compile(r"\bthe\s+(?:next|following)\s+day\b|\bthe\s+day\s+after\b", re.IGNORECASE), 1),
    (re.compile(r"\bthe\s+(?:previous|preceding)\s+day\b|\bthe\s+day\s+before\b", re.IGNORECASE), -1),
    (re.compile(rf"\b{_COUNT}\s+(?P<unit>days?|weeks?)\s+(?P<way>after|later|before|earlier|prior)\b", re.I), None),
)  # fmt: skip
_ZH = (
    (re.compile(r"当天|当日|同一天|同一日|同天|同日"), 0),
    (re.compile(r"第二天|次日|翌日|后一天|隔天|隔日"), 1),
    (re.compile(r"前一天|前一日|头一天"), -1),
    (re.compile(r"(?P<n>\d+|[一二两三四五六七八九十]+)\s*个?\s*(?P<unit>天|周|星期)\s*(?P<way>[以之]?[后前])"), None),
)
_BACKWARD = ("before", "earlier", "prior", "前")


@dataclass(frozen=True)
class RelativeDay:
    offset: int  # days after the event it is said of (negative: before)
    text: str


def relative_days(text: str) -> list[RelativeDay]:
    """The days ``text`` says relative to an event, in order."""
    found: list[tuple[int, int, RelativeDay]] = []  # start, end, day
    for pattern, offset in (*_EN, *_ZH):
        for match in pattern.finditer(text):
            value = offset if offset is not None else _counted(match)
            if value is not None and not any(start <= match.start() < end for start, end, _ in found):
                found.append((match.start(), match.end(), RelativeDay(value, match.group())))
    return [day for _, _, day in sorted(found, key=lambda entry: entry[0])]


def _counted(match: re.Match[str]) -> int | None:
    """ "three days later" is +3, 一周前 is -7."""
    number = match.group("n")
    count = int(number) if number.isdigit() else _EN_COUNT.get(number.lower()) or zh_numeral(number)
    if not count:
        return None
    unit = match.group("unit").lower()
    days = count * (7 if unit.startswith("week") or unit in ("周", "星期") else 1)
    return -days if match.group("way").lower().endswith(_BACKWARD) else days


def unstated_relative_days(answer: str, sources: Sequence[str]) -> list[str]:
    """The relative days of ``answer`` its sources don't say: an offset none of them states, or, where
    a source says the day relative to the event, any other ("the same day" of a dated event is not
    checked: its source may give the date instead). Days between two dates the sources give count as
    stated: "a day after" of 5 月 18 日 and 5 月 19 日."""
    said = relative_days(answer)
    if not said:
        return []  # the sources are read only for an answer that says a relative day
    stated = {day.offset for source in sources for day in relative_days(source)} | _date_gaps(sources)
    return [day.text for day in said if day.offset not in stated and (stated or day.offset)]


def _date_gaps(sources: Sequence[str]) -> set[int]:
    """The days between any two days of the year the sources name, either way round."""
    days = set()
    for source in sources:
        for q in quantities(source):
            if q.kind == "date" and q.month and q.day:
                try:
                    days.add(datetime.date(q.year or 2000, q.month, q.day))
                except ValueError:
                    continue
    return {(b - a).days for a, b in itertools.permutations(days, 2)}
