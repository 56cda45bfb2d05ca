"""English dates written as the article writes them (index/text/dates.py)."""

from __future__ import annotations

import pytest

from index.text.dates import arabic_dates, chinese_dates


@pytest.mark.parametrize(
    ("question", "searched"),
    [
        ("What happened on May 18?", "What happened on 5 月 18 日 ?"),
        ("what did cursor publish on march 27th, 2026", "what did cursor publish on 2026 年 3 月 27 日"),
        ("news from 18 May", "news from 5 月 18 日"),
        ("on the 27th of Mar.", "on the 3 月 27 日"),
        ("What did Cursor release in May?", "What did Cursor release in 5 月 ?"),
        ("anything since sept 2026?", "anything since 2026 年 9 月 ?"),
        ("May I ask who Kate is?", "May I ask who Kate is?"),  # not a date: May alone, first
        ("What does the article say about the march of progress?", None),
        ("Composer 2.5 是 5 月 18 日发布的吗？", None),
        ("What is 18 divided by 3?", None),
    ],
)
def test_chinese_dates(question: str, searched: str | None) -> None:
    assert chinese_dates(question) == (searched or question)


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("日期是二〇二六年五月二十日[1]。", "日期是 2026 年 5 月 20 日 [1]。"),
        ("于五月十八日发布", "于 5 月 18 日 发布"),
        ("十二月三十一号", " 12 月 31 日 "),
        ("十一月", " 11 月 "),
        ("一个月后", None),  # no month named
        ("二十七日", None),  # a day alone is no date to read
        ("2026 年 5 月 20 日", None),
    ],
)
def test_arabic_dates(text: str, written: str | None) -> None:
    assert arabic_dates(text) == (text if written is None else written)
