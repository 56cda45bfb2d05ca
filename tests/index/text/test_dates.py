"""English dates written as the article writes them (index/text/dates.py)."""

from __future__ import annotations

import pytest

from index.text.dates import chinese_dates


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
