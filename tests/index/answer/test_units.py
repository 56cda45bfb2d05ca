"""The document structure answers are built from (index/answer/units.py), on the synthetic index."""

from __future__ import annotations

from index.answer.units import (
    citation_for,
    is_heading,
    is_lead_in,
    list_items,
    own_lead,
    question_and_answer,
    render_sentence,
    summed_list,
    table_rows,
)
from index.build.store import StoredIndex
from tests.index.synthetic import ASKED, STRUCTURED, build_stored, sentence_id


def test_title_byline_and_headings_are_no_answers(stored: StoredIndex) -> None:
    headings = {
        stored.sentence_text(stored.sentences[i]) for i in range(len(stored.sentences)) if is_heading(stored, i)
    }
    assert headings == {"——测试文章：水果与火车", "Alice | 2026年1月2日", "一、水果", "二、火车", "项目\t价格\t时长"}


def test_a_document_without_a_byline_keeps_its_first_paragraph() -> None:
    """The first paragraph after a title line is a byline only when it is one (short, dated): an
    article whose text starts right after its title answers from that text."""
    from tests.index.synthetic import build_stored

    text = "Warsaw\n\n华沙是波兰的首都，位于维斯瓦河畔，人口约一百八十万。\n\n华沙有许多博物馆。\n"
    small = build_stored(text, "Warsaw")
    first = sentence_id(small, "华沙是波兰的首都")
    assert not is_heading(small, first)
    assert is_heading(small, 0)


def test_a_table_row_reads_with_its_header(stored: StoredIndex) -> None:
    row = stored.sentences[sentence_id(stored, "卧铺")]
    assert render_sentence(stored, row) == "卧铺：价格 400 元，时长 12 小时"


def test_a_lead_in_opens_its_list(stored: StoredIndex) -> None:
    lead = sentence_id(stored, "果农说了三件事")
    assert is_lead_in(stored, lead) and own_lead(stored, lead) == lead
    items = list_items(stored, lead)
    assert [stored.sentence_text(stored.sentences[i])[:4] for i in items] == ["• 第一", "• 第二", "• 第三"]
    assert own_lead(stored, items[1]) == lead  # an item belongs to its lead-in's list


def test_table_rows_of_a_row(stored: StoredIndex) -> None:
    rows = table_rows(stored, sentence_id(stored, "高铁"))
    assert [stored.sentence_text(stored.sentences[i])[:2] for i in rows] == ["卧铺", "高铁"]


def test_a_citation_points_at_the_exact_source_span(stored: StoredIndex) -> None:
    sid = sentence_id(stored, "果园在山东烟台")
    cite = citation_for(stored, 1, stored.sentences[sid])
    chunk = stored.chunks[stored.sentences[sid].chunk]
    assert cite.quote == "果园在山东烟台，每年秋天采摘。"
    assert chunk.text[cite.start - chunk.start : cite.end - chunk.start] == cite.quote
    assert cite.paragraphs == [4]


def test_a_paragraph_of_its_own_over_a_table_leads_into_it() -> None:
    small = build_stored(STRUCTURED, "测试")
    leads = [small.sentence_text(small.sentences[i]) for i in range(len(small.sentences)) if is_lead_in(small, i)]
    assert leads == ["光说不行，我们来看看收成。"]
    over_table = sentence_id(small, "光说不行")
    rows = [small.sentence_text(small.sentences[i]).split("\t")[0] for i in table_rows(small, over_table)]
    assert rows == ["苹果", "梨"]


def test_a_paragraph_before_sub_sections_a_plain_paragraph_or_a_longer_one_before_a_table_leads_into_nothing(
    stored: StoredIndex,
) -> None:
    small = build_stored(STRUCTURED, "测试")
    assert not is_lead_in(small, sentence_id(small, "既然说清楚了"))  # sub-sections: passages of their own
    assert not is_lead_in(small, sentence_id(small, "收成不错"))  # followed by the next section
    assert not is_lead_in(small, sentence_id(small, "这里还有一件事"))  # over a plain paragraph
    assert not is_lead_in(stored, sentence_id(stored, "车票价格是"))  # its paragraph has two sentences
    assert not is_lead_in(small, sentence_id(small, "苹果"))  # a row is no lead-in


def test_the_articles_own_question_comes_with_its_answer() -> None:
    """ "我的看法？" is answered by the sentence after it; an answer comes with its question, and with
    what the question points back at ("苹果卖得很好。这意味着什么？意味着果农赚了钱。")."""
    small = build_stored(STRUCTURED + ASKED, "测试")

    def unit(starts: str) -> list[str]:
        return [small.sentence_text(small.sentences[i]) for i in question_and_answer(small, sentence_id(small, starts))]

    assert unit("我的看法") == unit("果园还会扩大") == ["我的看法？", "果园还会扩大。"]
    assert unit("意味着果农") == unit("这意味着什么") == ["苹果卖得很好。", "这意味着什么？", "意味着果农赚了钱。"]
    assert unit("苹果卖得很好") == []  # no question of the article's is about it from before
    assert question_and_answer(small, sentence_id(small, "四、看法")) == []  # a heading is no question


def test_a_question_ending_its_passage_has_no_answer_there() -> None:
    small = build_stored(STRUCTURED + "\n四、看法\n\n苹果卖得很好。谁会不喜欢呢？\n", "测试")
    assert question_and_answer(small, sentence_id(small, "谁会不喜欢")) == []


def test_a_sentence_summing_up_the_list_before_it_by_its_count_comes_with_the_list() -> None:
    summed = "\n四、收成\n\n收成好有几个原因：\n\n• 今年雨水多。\n\n• 价格上涨了。\n\n这{n}条原因一叠加，果农赚了钱。\n"
    small = build_stored(STRUCTURED + summed.format(n="两"), "测试")
    lead, total = sentence_id(small, "收成好有几个原因"), sentence_id(small, "这两条原因")
    assert summed_list(small, total) == list(range(lead, total + 1))
    assert summed_list(small, sentence_id(small, "• 价格上涨了")) == []  # an item sums nothing up
    other = build_stored(STRUCTURED + summed.format(n="三"), "测试")  # a count the list doesn't have
    assert summed_list(other, sentence_id(other, "这三条原因")) == []
