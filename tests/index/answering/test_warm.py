"""The questions warm-up asks (index/answering/warm.py), on the synthetic index."""

from __future__ import annotations

from index.answering.warm import MIN_HAN, warm_questions
from index.store import StoredIndex


def test_a_chinese_sentence_of_the_corpus_and_an_english_question_on_its_most_frequent_word(
    stored: StoredIndex,
) -> None:
    lexicon = {"火车": "train", "价格": "price"}
    chinese, english = warm_questions(stored, lexicon)
    assert chinese in {stored.sentence_text(s).strip() for s in stored.sentences}
    assert sum("\u3400" <= c <= "\u9fff" for c in chinese) >= MIN_HAN
    assert english == "What does the article say about train?"  # 火车 is the more frequent


def test_without_a_lexicon_word_only_the_chinese_one(stored: StoredIndex) -> None:
    assert len(warm_questions(stored, {})) == 1
