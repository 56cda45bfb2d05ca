from __future__ import annotations

import pytest

from index.answer.figures import (
    another_name,
    another_version,
    counted,
    counts_things,
    figures_of_others,
    says_another_thing,
    stated_figures,
    undated,
)
from index.build.store import StoredIndex
from tests.index.synthetic import sentence_id


def test_a_version_number_and_the_questions_own_numbers_are_no_figures() -> None:
    assert stated_figures(["Composer 2 和 Claude Opus 4.7 都是一个模型。"], "有多少人用？") == []
    assert stated_figures(["销量翻了 2 倍。"], "翻了 2 倍以后卖了多少？") == []
    assert stated_figures(["Composer 2.5 得了 63.2%。"], "Composer 2.5 得了多少分？") == ["63.2%"]
    assert stated_figures(["文件大小约300MB。"], "文件有多大？") == ["300MB"]  # digits first: a unit, not a name


@pytest.mark.parametrize(
    ("question", "kind", "starts", "lacks"),
    [
        ("苹果每斤多少钱？", "fact", "苹果每斤", False),  # the figure is there
        ("果园有多少棵树？", "fact", "果园在山东", True),  # asked, and the answer has no figure
        ("How many trees does the orchard have?", "fact", "果园在山东", True),
        ("How much does the orchard earn a year?", "fact", "果园在山东", True),  # how much: 多少 too
        ("How much is a pound of apples?", "fact", "苹果每斤", False),
        ("果园在哪里？", "fact", "果园在山东", False),  # no figure asked
        ("果园有多少种果树？", "list", "果园在山东", False),  # a list asks for items
        ("果园种了哪几种果树？", "fact", "果园在山东", False),  # 哪几: which ones, not how many
        ("果园每年采摘多久？", "fact", "果园在山东", False),  # an extent is often said in words
        ("为什么说果园几乎都在山东？", "fact", "果园在山东", False),  # 几乎, "almost": no count asked
    ],
)
def test_a_how_many_question_needs_a_figure_in_its_answer(
    stored: StoredIndex, question: str, kind: str, starts: str, lacks: bool
) -> None:
    assert says_another_thing(stored, [sentence_id(stored, starts)], question, kind) is lacks


@pytest.mark.parametrize(
    ("texts", "question", "other"),
    [
        (["基准\tComposer 2.5\nCursorBench\t63.2%"], "Composer 2 在 CursorBench 上多少分？", True),
        (["基准\tComposer 2.5\nCursorBench\t63.2%"], "composer2.5 在 CursorBench 上多少分？", False),
        (["Composer 2 和 2.5 都基于 Kimi K2.5。"], "Composer 2 有多少参数？", False),  # it writes the one asked
        (["自家训练占了 85% 的算力。"], "Composer 2 自家训练占多少？", False),  # no version at all
        (["基准\tComposer 2.5\nCursorBench\t63.2%"], "Composer 2.5 比 Composer 2 高多少？", False),  # compares
        (["《Composer 2/2.5 技术拆解》"], "Composer 2.5 是什么时候发布的？", False),  # 2/2.5: both versions
        (["Composer 2 的技术报告发在 arXiv 上。"], "When will Composer 3 ship?", True),
    ],
)
def test_a_figure_of_another_version_is_not_the_one_asked(texts: list[str], question: str, other: bool) -> None:
    assert another_version(texts, question) is other


@pytest.mark.parametrize(
    ("texts", "question", "other"),
    [
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "What does Zeta 4.7 score on WidgetBench?", True),
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "Acme 3.5 在 WidgetBench 上多少分？", False),  # written
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "zeta 4.7 在 WidgetBench 上多少分？", False),  # typed as no name
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "Is WidgetBench scored above 60?", False),  # a word and a number
        (["Acme 发布了新模型。"], "When will Zeta 5 ship?", False),  # no version said of anything else
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "In 2026, what did it score?", False),  # a sentence's capital
        (["基准\tAcme 3.5\nWidgetBench\t63.2%"], "ZX 4 在 WidgetBench 上多少分？", True),  # capitals: a name
        (["Acme 3.5 对标 Zeta 4.7 水平。"], "How does Acme 3.5 compare with Zeta 4.7?", False),
    ],
)
def test_a_figure_of_another_name_s_version_is_not_the_one_asked(texts: list[str], question: str, other: bool) -> None:
    assert another_name(texts, question) is other


_ROW = "WidgetBench：Acme 3.5 63.2%（最高 64.8%），对比 Zeta 4.7 水平"


@pytest.mark.parametrize(
    ("texts", "question", "others"),
    [
        ([_ROW], "Zeta 4.7 在 WidgetBench 上多少分？", True),  # its cell holds no figure
        ([_ROW], "Acme 3.5 在 WidgetBench 上多少分？", False),
        ([_ROW], "Acme 3.5 比 Zeta 4.7 高多少？", False),  # names the figures' own too
        (["Acme 做出了对标 Zeta 4.7 的模型，成本只有 1/10。"], "它的成本是 Zeta 4.7 的多少？", False),  # said of none
        ([_ROW], "WidgetBench 上最高多少分？", False),  # no version asked
    ],
)
def test_figures_stated_only_of_other_versions_are_not_the_ones_asked(
    texts: list[str], question: str, others: bool
) -> None:
    assert figures_of_others(texts, question) is others


@pytest.mark.parametrize(
    ("texts", "question", "counts"),
    [
        (["马斯克握有 600 亿美元收购 Acme 的优先权。"], "How many employees does Acme have?", False),
        (["马斯克握有 600 亿美元收购 Acme 的优先权。"], "How many dollars would Musk pay?", True),  # counted in money
        (["报告在 2026 年 3 月 27 日发布。"], "Acme 训练了多少天？", False),  # a date counts no days
        (["报告在 2026 年 3 月 27 日发布。"], "报告是几月几号发的？", True),  # 几月几号 asks a date: not counting
        (["用了 100 万个 H100 等效算力。"], "How many GPUs does it use?", True),
        (["合成数据规模翻 25 倍。"], "合成数据翻了多少倍？", True),  # a multiple counts
        (["得分比上一版高 5%。"], "高了几个百分点？", True),  # counted in percent
        (["得分比上一版高 5%。"], "How many users does it have?", False),
    ],
)
def test_a_question_counting_things_is_answered_by_a_count(texts: list[str], question: str, counts: bool) -> None:
    """ "How many employees" is not answered by US$60 billion, nor "多少天" by a date: a count is a number
    or a multiple, or money or a share when the question counts in them."""
    figures = stated_figures(texts, question)
    assert figures
    assert (counted(figures, texts, question) or not counts_things(question)) is counts


@pytest.mark.parametrize(
    ("texts", "question", "missing"),
    [
        (["果园在山东烟台，每年秋天采摘。"], "果园是哪一年建的？", True),
        (["果园在山东烟台，每年秋天采摘。"], "What year was the orchard planted?", True),
        (["果园在 1998 年建成。"], "What year was the orchard planted?", False),  # a year
        (["车票 5 月 18 日开售。"], "车票是几号开售的？", False),
        (["车票开售当天就卖完了。"], "车票哪天卖完的？", False),  # a day said relative to another
        (["果园在山东烟台，每年秋天采摘。"], "果园什么时候采摘？", False),  # "when": a season answers it
        (["果园在山东烟台，每年秋天采摘。"], "What day of the week do they pick?", False),  # a weekday's name would
    ],
)
def test_a_question_asking_a_date_needs_one_in_its_answer(texts: list[str], question: str, missing: bool) -> None:
    assert undated(texts, question) is missing
