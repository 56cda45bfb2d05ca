"""The abstention rule on hand-made evidence (index/abstain.py); the engine's use of it is
covered by test_answer.py and its calibration by test_quality.py."""

from __future__ import annotations

import dataclasses

import pytest

from index.abstain import (
    ADJUSTED_FLOOR,
    BACKGROUND_NEAR,
    CHINESE_BACKGROUND_NEAR,
    CHINESE_COVERAGE_FLOOR,
    CHINESE_WEAK_WORDS_FLOOR,
    Evidence,
    _is_word,
    names,
    should_abstain,
    specific_names,
)
from index.lexical import tokenize

ANSWERABLE_EN = Evidence(
    dense_top=0.82,
    adjusted_top=0.030,
    margin=0.1,
    coverage=0.5,
    tokens=4,
    lexical_top=1.5,
    agree=False,
    sentence_top=0.03,
    background_max=0.80,
)


def test_english_needs_both_a_weak_score_and_weak_lexical_evidence() -> None:
    assert not should_abstain(ANSWERABLE_EN, "en")
    weak = dataclasses.replace(ANSWERABLE_EN, adjusted_top=ADJUSTED_FLOOR["en"] - 0.005)
    assert should_abstain(weak, "en")
    assert not should_abstain(dataclasses.replace(weak, coverage=0.8), "en")


def test_a_question_close_to_an_off_topic_one_needs_more_evidence() -> None:
    near = dataclasses.replace(ANSWERABLE_EN, background_max=BACKGROUND_NEAR + 0.03)
    assert should_abstain(near, "en")
    # far from every background question, the plain floor applies: no bonus below it
    far = dataclasses.replace(ANSWERABLE_EN, background_max=0.70, adjusted_top=ADJUSTED_FLOOR["en"] - 0.001)
    assert should_abstain(far, "en")


def test_chinese_uses_the_corrected_cosine_alone() -> None:
    assert should_abstain(dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.02, coverage=1.0), "zh")
    assert not should_abstain(dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.03, coverage=0.0), "zh")


def test_a_chinese_question_as_close_as_a_known_off_topic_one_needs_the_stricter_floor() -> None:
    # "世界上最高的山是哪座？": 世界 and 最高 are in the article, and its corrected cosine 0.03 passed
    asked = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.03, token_coverage=0.5, background_max=0.80)
    assert not should_abstain(asked, "zh")
    assert should_abstain(dataclasses.replace(asked, background_max=CHINESE_BACKGROUND_NEAR), "zh")
    strong = dataclasses.replace(asked, background_max=CHINESE_BACKGROUND_NEAR, adjusted_top=CHINESE_WEAK_WORDS_FLOOR)
    assert not should_abstain(strong, "zh")


def test_nothing_retrieved_abstains() -> None:
    nothing = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.0, sentence_top=0.0, coverage=1.0)
    assert should_abstain(nothing, "en") and should_abstain(nothing, "zh")


@pytest.mark.parametrize(
    ("token", "word"), [("3", False), ("70.2%", False), ("x", False), ("k2.5", True), ("rl", True)]
)
def test_numbers_and_single_letters_are_not_topic_words(token: str, word: bool) -> None:
    assert _is_word(token) is word


def test_near_an_off_topic_question_translated_words_dont_save_it() -> None:
    near = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.025, coverage=1.0, background_max=BACKGROUND_NEAR + 0.01)
    assert should_abstain(near, "en")
    assert not should_abstain(dataclasses.replace(near, background_max=BACKGROUND_NEAR - 0.01), "en")


def test_an_english_question_whose_words_one_passage_has_is_answered() -> None:
    weak = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.016, background_max=BACKGROUND_NEAR + 0.01)
    assert should_abstain(weak, "en")
    assert not should_abstain(dataclasses.replace(weak, one_passage=True), "en")


def test_one_passage_has_every_word_of_the_question_translated(engine) -> None:  # type: ignore[no-untyped-def]
    # 钢板 and 刀 are in one passage; "analogy" asks for the form, not the subject
    result = engine.ask("Can you explain the steel plate / knife analogy?")
    assert not result.abstained and "钢板" in result.answer
    retriever = engine.snapshot.retriever
    tokens = tokenize("steel plate knife capital france")
    assert retriever.passages_with_all(tokens, [0, 1, 2])
    assert not retriever.passages_with_all(tokens, [0, 1, 2, 3])


def test_an_english_question_none_of_whose_words_the_article_has_is_declined() -> None:
    strong = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.06)  # e5 alone would call it on topic
    assert not should_abstain(strong, "en")
    assert should_abstain(dataclasses.replace(strong, coverage=0.0), "en")
    # a question of numbers only has no words to judge by: the dense rule decides
    assert not should_abstain(dataclasses.replace(strong, coverage=0.0, tokens=0), "en")
    assert not should_abstain(dataclasses.replace(strong, coverage=0.0), "zh")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the price of Bitcoin today?", ["Bitcoin"]),
        ("Is Composer better than GPT-5? I wonder.", ["Composer", "GPT-5"]),
        ("what does error E0502 mean in Rust", ["E0502", "Rust"]),
        ("Was it CursorBench v3.1 or SWE-bench?", ["CursorBench", "v3.1", "SWE-bench"]),
        ("Thanks. Who wrote it?", []),  # first words of sentences are capitalised anyway
        ("Quick question: Why?", []),
        ("1M tokens cost how much", []),
        ("Cursor的模型是什么", []),  # Chinese characters are not part of a name
    ],
)
def test_names(question: str, expected: list[str]) -> None:
    assert names(question) == expected


def test_in_a_chinese_question_latin_words_with_a_capital_or_digit_are_names() -> None:
    assert names("GPT-5 什么时候发布？", "zh") == ["GPT-5"]
    assert names("怎么给 iPhone 换电池？", "zh") == ["iPhone"]
    assert names("这篇文章的 takeaway 是什么", "zh") == []  # an English word mixed in, not a name
    assert names("这篇文章讲了什么", "zh") == []
    assert names("Why 套壳不是原罪？", "zh") == []  # an English function word names nothing


def test_a_question_naming_only_things_the_article_doesnt_is_declined() -> None:
    strong = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.06, coverage=0.8)
    some_known = dataclasses.replace(strong, names=2, unknown_names=("GPT-5",))  # GPT-5 vs Composer
    assert not should_abstain(some_known, "en") and some_known.names_only_unknown == ()
    bitcoin = dataclasses.replace(strong, names=1, unknown_names=("Bitcoin",))
    assert should_abstain(bitcoin, "en") and bitcoin.names_only_unknown == ("Bitcoin",)
    assert should_abstain(dataclasses.replace(strong, names=1, unknown_names=("GPT-5",)), "zh")  # GPT-5 什么时候发布？


def test_a_question_all_of_whose_words_and_names_the_article_has_is_answered() -> None:
    # "Muon 是什么？": corrected cosine 0.020, under the Chinese floor, but Muon is in the article
    muon = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.020, coverage=1.0, token_coverage=1.0, names=1)
    assert not should_abstain(muon, "zh")
    assert should_abstain(dataclasses.replace(muon, token_coverage=0.5), "zh")  # a word it lacks: the floor
    assert should_abstain(dataclasses.replace(muon, names=0), "zh")  # no name: the floor


def test_a_question_none_of_whose_tokens_the_article_has_is_declined() -> None:
    # "比特币现在多少钱一个？" → 比特 币 现在 钱: e5 finds Composer's price close, the corpus has none of them
    strong = dataclasses.replace(ANSWERABLE_EN, adjusted_top=0.06, coverage=0.0)
    assert not should_abstain(strong, "zh")  # "第42行的例子": its words are not in the article, but 第 42 行 are
    assert should_abstain(dataclasses.replace(strong, token_coverage=0.0), "zh")
    pointed = dataclasses.replace(strong, token_coverage=0.0, points_at_section=True)
    assert not should_abstain(pointed, "zh")  # "文章最后一句话说的啥" is about the article


def test_a_chinese_question_most_of_whose_tokens_the_article_lacks_needs_a_better_match() -> None:
    # "哪款降噪耳机好用" → 哪款 降噪 耳机 好用: only 好用 is in the article, and e5 finds the conclusion's 好用的刀
    between = (ADJUSTED_FLOOR["zh"] + CHINESE_WEAK_WORDS_FLOOR) / 2
    weak = dataclasses.replace(ANSWERABLE_EN, adjusted_top=between, token_coverage=0.25)
    assert should_abstain(weak, "zh")
    assert not should_abstain(dataclasses.replace(weak, token_coverage=CHINESE_COVERAGE_FLOOR), "zh")
    assert not should_abstain(dataclasses.replace(weak, adjusted_top=CHINESE_WEAK_WORDS_FLOOR + 0.01), "zh")
    assert not should_abstain(dataclasses.replace(weak, points_at_section=True), "zh")  # 文章最后一句话说的啥


def test_specific_names_are_the_ones_a_few_passages_write(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    found = specific_names(retriever, "Who is the CEO of Moonshot AI?", "en")
    assert frozenset({"ceo"}) in found and frozenset({"moonshot"}) in found
    assert specific_names(retriever, "What did Cursor say about Kimi?", "en") == []  # the article's subject
    assert specific_names(retriever, "What is the price of Bitcoin?", "en") == []  # not in the article at all


def test_the_fields_own_words_are_no_names_unless_part_of_one(engine) -> None:  # type: ignore[no-untyped-def]
    # "AI" asked the answer's passage to write AI, and "the AI competition" got the passage that does
    # (AI 应用) instead of the one about the competition
    retriever = engine.snapshot.retriever
    assert specific_names(retriever, "Where is the AI competition heading?", "en") == []
    assert frozenset({"ai"}) in specific_names(retriever, "Who founded Moonshot AI?", "en")


@pytest.mark.parametrize(
    "question", ["Who is the CEO of Moonshot AI?", "Who founded Moonshot AI?", "Claude Opus 4.7 的 API 价格是多少？"]
)
def test_an_answer_from_passages_that_dont_name_what_was_asked_is_declined(engine, question: str) -> None:  # type: ignore[no-untyped-def]
    # they got Cursor's CEO, Moonshot's open model, Composer 2.5's price: near the question, about another
    assert engine.ask(question).abstained


def test_numbers_written_out_are_not_what_a_question_is_about(engine) -> None:  # type: ignore[no-untyped-def]
    # "three" counted as a word the article lacks, and the question was declined (found in make chat)
    result = engine.ask("What are the three lessons?")
    assert not result.abstained and "透明度正在变成护城河" in result.answer
