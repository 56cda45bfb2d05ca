"""index/text/derived.py: quantities an answer works out from its sources — arithmetic and counts."""

from __future__ import annotations

import pytest

from index.text.bounds import mentions
from index.text.derived import arithmetic, item_counts, lone_numerals, worked_out

TABLE = (
    "基准测试\tComposer 2.5\t对比\n"
    "CursorBench v3.1\t63.2%（最高 64.8%）\tClaude Opus 4.7 水平\n"
    "SWE-bench Verified\t70.2%（最高 75.6%）\t显著提升\n"
    "SWE-bench Multilingual\t73.7%\t行业顶尖"
)
PRICES = "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元、输出 2.50 美元。"


def _stated(text: str):  # type: ignore[no-untyped-def]
    return mentions(text)[-1]


@pytest.mark.parametrize(
    ("answer", "source", "worked"),
    [
        ("64.8% is 1.6 percentage points above the headline", TABLE, True),
        ("最高成绩比常规成绩高出 5.4 个百分点", TABLE, True),
        ("输入价比输出价贵 12.5 美元", PRICES, True),
        ("the gap is 1.7 percentage points", TABLE, False),  # wrong arithmetic
        ("输入价比输出价贵 12.5 人民币", PRICES, False),  # a gap in another currency
        ("up to 1.6 points more", TABLE, False),  # a gap is no bound
        ("a gap of 5.4%", TABLE, False),  # a percentage is a value, not points between two
        ("about 5 points higher", TABLE, True),  # 5.4 rounded, as it says
        ("5 points higher", TABLE, False),  # a gap is exact unless it says it is rounded
        ("$17.50 in total", PRICES, True),
        ("输入价是输出价的 6 倍", PRICES, True),
        ("输入价是输出价的 5 倍", PRICES, False),
        ("roughly 90% cheaper", "成本是其他前沿模型的 1/10。", True),
        ("roughly 80% cheaper", "成本是其他前沿模型的 1/10。", False),
        ("only 0.1 times the cost", "成本是其他前沿模型的 1/10。", True),
        ("ten times the cost", "成本是其他前沿模型的 1/10。", False),  # the inverse, said either way
        ("a total of 133.4%", TABLE, False),  # percentages have no total
    ],
)
def test_arithmetic(answer: str, source: str, worked: bool) -> None:
    assert arithmetic(_stated(answer), mentions(source)) is worked


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (TABLE, {3}),  # three rows under the header row
        ("他们做了三件事：\n\n• 定向 RL\n\n• 合成数据\n\n• 沟通风格校准\n\n这是结尾。", {3}),
        ("DeepSeek、Qwen、Llama，哪个不是被各家「套」来「套」去？", {3}),
        ("1. first\n2. second\nthen prose", {2}),
        ("一句话，没有列举。", set()),
    ],
)
def test_item_counts(text: str, counts: set[int]) -> None:
    assert item_counts(text) == counts


def test_a_count_is_a_plain_whole_number() -> None:
    counts = item_counts(TABLE)
    assert worked_out(_stated("Of the three standard scores"), [], counts)
    assert worked_out(_stated("Composer 2.5 三项基准"), [], counts)
    assert not worked_out(_stated("four benchmarks"), [], counts)
    assert not worked_out(_stated("at least three benchmarks"), [], counts)
    assert not worked_out(_stated("3%"), [], counts)


def test_a_lone_numeral_is_the_number_it_writes() -> None:
    numerals = lone_numerals("阶段二：大规模强化学习（RL）")
    assert numerals == {2}
    assert worked_out(_stated("第二阶段是大规模强化学习"), [], frozenset(), numerals)  # the position it names
    assert not worked_out(_stated("第三阶段是大规模强化学习"), [], frozenset(), numerals)
    assert not worked_out(_stated("做了两件事"), [], frozenset(), numerals)  # a count is no position
    assert not lone_numerals("这三层关系一叠加，统一了一些看法")  # 一 is as often "once", "a"
    assert not lone_numerals("人数七八，方案二三")  # a run of numerals ("seven or eight") is no lone one


def test_an_average_of_a_sources_quantities() -> None:
    known = mentions(TABLE)
    assert arithmetic(_stated("三项主要成绩平均约 69%"), known)  # 63.2, 70.2, 73.7: their best runs left out
    assert arithmetic(_stated("the scores average about 69.5%"), known)  # all five
    assert not arithmetic(_stated("三项主要成绩平均约 72%"), known)
    assert not arithmetic(_stated("平均 69%"), known)  # 69.03 is no exact 69
