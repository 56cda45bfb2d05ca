"""Choosing and composing the answer's units (index/answer/compose.py), on the synthetic index."""

from __future__ import annotations

import re

from index.answer.compose import (
    MAX_ANSWER_CHARS,
    choose,
    compose,
    in_asker_language,
    whole_list,
    widen,
    with_heading,
)
from index.answer.units import counted_paragraphs
from index.build.store import StoredIndex
from tests.index.synthetic import ASKED, DOCUMENT, STRUCTURED, build_stored, sentence_id

# a section whose parts open with claims, led in by ``lead``
CLAIMS = "\n四、启示\n\n{lead}\n\n第一，苹果好卖。\n\n苹果又甜又脆，还有 3 个品种。\n\n第二，梨也不错。\n\n梨很稳定。\n"


def test_the_best_unit_alone_when_the_second_is_far_behind(stored: StoredIndex) -> None:
    best, other = sentence_id(stored, "夜班火车"), sentence_id(stored, "果园在山东烟台")
    assert choose(stored, [(best, 0.9), (other, 0.2)], second_ratio=0.5) == [best]


def test_a_close_second_joins_in_document_order(stored: StoredIndex) -> None:
    best, other = sentence_id(stored, "车票价格是"), sentence_id(stored, "夜班火车")
    assert choose(stored, [(best, 0.6), (other, 0.5)], second_ratio=0.5) == [other, best]


def test_every_sentence_as_close_as_the_second_joins() -> None:
    """Not only the second: a verdict ranked third beside the facts it judges is part of the answer."""
    small = build_stored(DOCUMENT.replace("每年秋天采摘。", "每年秋天采摘。这个价格很划算。"))
    apples, orchard = sentence_id(small, "苹果每斤"), sentence_id(small, "果园在山东烟台")
    verdict = sentence_id(small, "这个价格很划算")
    ranked = [(orchard, 0.6), (apples, 0.35), (verdict, 0.32)]
    assert choose(small, ranked, second_ratio=0.5) == [apples, orchard, verdict]
    assert choose(small, [*ranked[:2], (verdict, 0.2)], second_ratio=0.5) == [apples, orchard]


def test_a_lead_in_brings_its_list(stored: StoredIndex) -> None:
    lead = sentence_id(stored, "果农说了三件事")
    chosen = choose(stored, [(lead, 0.9)], second_ratio=0.5)
    assert chosen == [lead, lead + 1, lead + 2, lead + 3]


def test_a_neighbour_that_leads_in_comes_with_its_list_or_not_at_all(stored: StoredIndex) -> None:
    before, lead = sentence_id(stored, "果园在山东烟台"), sentence_id(stored, "果农说了三件事")
    assert choose(stored, [(before, 0.9)], 0.5, neighbours=[lead]) == [before, lead, lead + 1, lead + 2, lead + 3]
    long = build_stored(DOCUMENT.replace("今年雨水多。", "今年雨水" + "很多" * 200 + "。"))
    before, lead = sentence_id(long, "果园在山东烟台"), sentence_id(long, "果农说了三件事")
    assert choose(long, [(before, 0.9)], 0.5, neighbours=[lead]) == [before]  # its list doesn't fit: not alone


def test_a_lead_in_over_sub_sections_brings_what_each_says() -> None:
    """A sub-section's title-like heading names its item; the sentence under it says what it is."""
    small = build_stored(STRUCTURED.replace("既然说清楚了，我们来看看他们做了什么。", "他们分两步做："), "测试")
    lead = sentence_id(small, "他们分两步做")
    chosen = [small.sentence_text(small.sentences[i]) for i in choose(small, [(lead, 0.9)], second_ratio=0.5)]
    assert chosen == ["他们分两步做：", "阶段一：准备工作", "他们先买了种子。", "阶段二：种植", "然后在春天播种。"]
    text, citations = compose(small, choose(small, [(lead, 0.9)], second_ratio=0.5), "zh")
    assert "阶段一：准备工作 — 他们先买了种子。" in text and len(citations) == 3


def test_a_list_question_in_a_titled_sub_section_gets_each_sibling_s_opening() -> None:
    """Sub-sections under titles ("阶段一：准备工作") are a list of parts; under claims ("第一，苹果好卖。")
    an argument, whose paragraphs a list question about one of them doesn't want."""
    small = build_stored(STRUCTURED + CLAIMS.format(lead="这件事有两点启示："), "测试")
    stage = sentence_id(small, "他们先买了种子")
    listed = [small.sentence_text(small.sentences[i]) for i in whole_list(small, [stage])]
    assert listed == ["阶段一：准备工作", "他们先买了种子。", "阶段二：种植", "然后在春天播种。"]
    inside = sentence_id(small, "苹果又甜又脆")
    assert whole_list(small, [inside]) == [inside]


def test_a_quote_in_another_language_comes_with_the_articles_rendering_of_it() -> None:
    """For a Chinese asker, an English quote comes with the Chinese paragraph after it (the article's
    own translation, whole); an English asker reads the quote as it is."""
    quoted = "\n二、论坛\n\n有个帖子标题很有意思：\n\n『Apples are fine, the price is not』\n\n"
    quoted += "翻译：苹果没问题；价格有问题。\n\n另外一段。\n"
    small = build_stored(DOCUMENT + quoted)
    quote = sentence_id(small, "『Apples")
    listed = [small.sentence_text(small.sentences[i]) for i in in_asker_language(small, [quote], "zh")]
    assert listed == ["『Apples are fine, the price is not』", "翻译：苹果没问题；", "价格有问题。"]
    assert in_asker_language(small, [quote], "en") == [quote]
    assert in_asker_language(small, [quote], "zh", limit=20) == [quote]  # too long to fit


def test_a_list_item_answers_alone(stored: StoredIndex) -> None:
    item = sentence_id(stored, "• 第二")
    assert choose(stored, [(item, 0.9)], second_ratio=0.5) == [item]


def test_a_question_for_several_things_gets_the_whole_list(stored: StoredIndex) -> None:
    item = sentence_id(stored, "• 第二")
    lead = sentence_id(stored, "果农说了三件事")
    assert whole_list(stored, [item]) == [lead, lead + 1, lead + 2, lead + 3]
    alone = sentence_id(stored, "夜班火车")
    assert whole_list(stored, [alone]) == [alone]  # no list to complete
    assert whole_list(stored, [item], limit=10) == [item]  # too long to fit


def test_nothing_to_choose(stored: StoredIndex) -> None:
    assert choose(stored, [], second_ratio=0.5) == []


def test_compose_cites_each_passage_once_with_exact_spans(stored: StoredIndex) -> None:
    first, second = sentence_id(stored, "夜班火车"), sentence_id(stored, "车票价格是")
    row = sentence_id(stored, "卧铺")
    text, citations = compose(stored, [first, second, row], "zh")
    assert text.startswith("根据文章：") and "卧铺：价格 400 元" in text
    assert {int(n) for n in re.findall(r"\[(\d+)\]", text)} == {c.n for c in citations} == {1, 2}
    for cite in citations:
        chunk = next(c for c in stored.chunks if c.chunk_id == cite.chunk_id)
        assert chunk.text[cite.start - chunk.start : cite.end - chunk.start] == cite.quote
    assert citations[0].quote == "夜班火车从北京开往上海，全程 12 小时。车票价格是 400 元。"


def test_an_english_answer_says_it_quotes(stored: StoredIndex) -> None:
    text, _ = compose(stored, [sentence_id(stored, "夜班火车")], "en")
    assert "夜班火车" in text and "[1]" in text


def test_widen_adds_neighbours_of_the_passage(stored: StoredIndex) -> None:
    best = sentence_id(stored, "夜班火车")
    wider = widen(stored, [best])
    assert best in wider and len(wider) > 1
    assert {stored.sentences[i].chunk for i in wider} == {stored.sentences[best].chunk}
    assert sum(len(stored.sentence_text(stored.sentences[i])) for i in wider) <= MAX_ANSWER_CHARS
    assert widen(stored, [best], limit=5) == [best]


def test_with_heading_only_for_a_sentence_pointing_back(stored: StoredIndex) -> None:
    best = sentence_id(stored, "夜班火车")
    assert with_heading(stored, [best]) == [best]


def test_a_sections_claim_comes_with_the_paragraph_that_says_why() -> None:
    """A section's claim (第一，苹果好卖。) comes with the paragraph under it, whole: it says why."""
    claims = "\n四、启示\n\n第一，苹果好卖。\n\n苹果又甜又脆。价格也不贵。还有 3 个品种。\n\n"
    claims += "第二，梨也不错。\n\n梨很稳定。\n"
    small = build_stored(STRUCTURED + claims, "测试")
    claim = sentence_id(small, "第一，苹果好卖")
    chosen = [small.sentence_text(small.sentences[i]) for i in choose(small, [(claim, 0.9)], second_ratio=0.5)]
    assert chosen == ["第一，苹果好卖。", "苹果又甜又脆。", "价格也不贵。", "还有 3 个品种。"]
    long = build_stored(STRUCTURED + claims.replace("价格也不贵。", "价格" + "也不贵" * 140 + "。"), "测试")
    claim = sentence_id(long, "第一，苹果好卖")
    assert len(choose(long, [(claim, 0.9)], second_ratio=0.5)) == 2  # as much of it as fits


def test_a_list_question_on_the_words_before_a_section_s_claims_gets_the_claims() -> None:
    """"我觉得这件事有两点启示。" ends its section's own text right before its parts: for a list question,
    the claims that open them are what it introduces."""
    small = build_stored(STRUCTURED + CLAIMS.format(lead="我觉得这件事有两点启示。"), "测试")
    lead = sentence_id(small, "我觉得这件事有两点启示")
    listed = [small.sentence_text(small.sentences[i]) for i in whole_list(small, [lead])]
    assert listed == ["我觉得这件事有两点启示。", "第一，苹果好卖。", "第二，梨也不错。"]


def test_a_list_question_on_a_sentence_counting_the_paragraphs_after_it_gets_their_openings() -> None:
    """"我总结了三条经验。" over three paragraphs of its passage: their first sentences are its items. A
    count the paragraphs after it don't reach, or a sentence with two numbers, is no lead-in."""
    lessons = "\n四、经验\n\n我总结了三条经验。\n\n首先，早点播种。这样收成好。\n\n"
    lessons += "其次，少用农药。\n\n最后，多看天气。\n"
    small = build_stored(STRUCTURED + lessons, "测试")
    lead = sentence_id(small, "我总结了三条经验")
    listed = [small.sentence_text(small.sentences[i]) for i in whole_list(small, [lead])]
    assert listed == ["我总结了三条经验。", "首先，早点播种。", "其次，少用农药。", "最后，多看天气。"]
    assert counted_paragraphs(small, lead) == [lead + 1, lead + 3, lead + 4]
    four = build_stored(STRUCTURED + lessons.replace("三条", "四条"), "测试")
    assert counted_paragraphs(four, sentence_id(four, "我总结了四条经验")) == []
    two = build_stored(STRUCTURED + lessons.replace("我总结了三条经验", "我和 2 位同事总结了三条经验"), "测试")
    assert counted_paragraphs(two, sentence_id(two, "我和 2 位")) == []


def test_the_articles_own_question_is_never_an_answer_alone() -> None:
    """Chosen, "这意味着什么？" comes with what it asks about and its answer, and its answer with both:
    read alone, "意味着果农赚了钱。" says nothing of what it means, nor why."""
    small = build_stored(STRUCTURED + ASKED, "测试")
    for starts in ("这意味着什么", "意味着果农"):
        best = sentence_id(small, starts)
        chosen = [small.sentence_text(small.sentences[i]) for i in choose(small, [(best, 0.9)], second_ratio=0.5)]
        assert chosen == ["苹果卖得很好。", "这意味着什么？", "意味着果农赚了钱。"]
    alone = sentence_id(small, "苹果卖得很好")
    assert choose(small, [(alone, 0.9)], second_ratio=0.5) == [alone]
