"""The questions warm-up asks (index/answer/warm.py), on the synthetic index."""

from __future__ import annotations

from index.answer.warm import MIN_HAN, warm_questions
from index.build.store import StoredIndex
from index.retrieve.retriever import Retriever


def test_a_chinese_sentence_of_the_corpus_and_an_english_question_on_its_most_frequent_word(
    stored: StoredIndex, retriever: Retriever
) -> None:
    lexicon = {"火车": "train", "价格": "price"}
    chinese, english = warm_questions(stored, lexicon, retriever.lexical)
    assert chinese in {stored.sentence_text(s).strip() for s in stored.sentences}
    assert sum("\u3400" <= c <= "\u9fff" for c in chinese) >= MIN_HAN
    # 火车 and 价格 are in 3 of the 5 passages each: the first of them in order, every run
    assert english == "What does the article say about price?"
    # 火车 in 3 passages, 高铁 in 1, 飞船 in none
    lexicon = {"高铁": "high-speed rail", "火车": "train", "飞船": "spaceship"}
    assert warm_questions(stored, lexicon, retriever.lexical)[1] == "What does the article say about train?"


def test_without_a_lexicon_word_only_the_chinese_one(stored: StoredIndex, retriever: Retriever) -> None:
    assert len(warm_questions(stored, {}, retriever.lexical)) == 1
