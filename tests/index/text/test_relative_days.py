"""Days said relative to an event (index/text/relative_days.py), and the ones an answer says that its
sources don't."""

from __future__ import annotations

import pytest

from index.text.relative_days import relative_days, unstated_relative_days

RELEASE_DAY = "Composer 2.5 发布当天，马斯克在 X 上发了一条帖子。"


@pytest.mark.parametrize(
    ("text", "offsets"),
    [
        ("Musk posted the same day", [0]),
        ("On the day Composer 2.5 launched", [0]),
        ("a day after the launch", [1]),
        ("the next day, and the day before", [1, -1]),
        ("three days later; 2 weeks earlier", [3, -14]),
        ("发布当天", [0]),
        ("发布的前一天", [-1]),
        ("次日", [1]),
        ("三天后，一周前", [3, -7]),
        ("两个星期之后", [14]),
        ("several days later", []),
        ("5 月 18 日前发布", []),  # before the 18th, not 18 days before
        ("a week of work", []),
    ],
)
def test_relative_days_in_either_language(text: str, offsets: list[int]) -> None:
    assert [day.offset for day in relative_days(text)] == offsets


def test_an_answer_may_say_only_the_days_its_sources_say() -> None:
    assert unstated_relative_days("Musk posted on the same day [1].", [RELEASE_DAY]) == []
    assert unstated_relative_days("Musk posted a day after the launch [1].", [RELEASE_DAY]) == ["a day after"]
    assert unstated_relative_days("马斯克在发布的前一天发帖[1]。", [RELEASE_DAY]) == ["前一天"]


def test_the_same_day_of_a_dated_event_and_the_days_between_two_dates() -> None:
    assert unstated_relative_days("It shipped the same day [1].", ["5 月 18 日发布"]) == []
    assert unstated_relative_days("It shipped the next day [1].", ["5 月 18 日发布"]) == ["the next day"]
    assert unstated_relative_days("It shipped the next day [1].", ["5 月 18 日发布，5 月 19 日上线"]) == []
