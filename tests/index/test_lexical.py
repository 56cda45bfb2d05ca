"""Tokens and BM25 (index/lexical.py)."""

from __future__ import annotations

import numpy as np
import pytest

from index.lexical import EN_STOPWORDS, ZH_STOPWORDS, LexicalIndex, tokenize


@pytest.mark.parametrize(
    ("text", "whole", "parts"),
    [
        ("成绩是 70.2%", ["70.2%"], []),
        ("基于 Kimi K2.5", ["k2.5"], []),
        ("100 万个 H100 等效算力", ["h100"], []),
        ("SWE-bench Verified", ["swe-bench"], ["swe", "bench"]),
        ("成本是其他前沿模型的 1/10", ["1/10"], ["10"]),
        ("kimi-k2p5-rl-0317-s515-fast", ["kimi-k2p5-rl-0317-s515-fast"], ["kimi", "k2p5", "rl", "0317", "s515"]),
        ("composer2.5", ["composer2.5"], ["composer", "2.5"]),
    ],
)
def test_numbers_and_model_names_stay_whole(text: str, whole: list[str], parts: list[str]) -> None:
    tokens = tokenize(text)
    for token in whole + parts:
        assert token in tokens, (token, tokens)


def test_numbers_are_not_cut_at_the_dot() -> None:
    assert {"70", "2", "2%", "k2", "5"}.isdisjoint(tokenize("成绩是 70.2%，基于 K2.5"))


def test_tokens_are_lowercased_and_normalized() -> None:
    assert tokenize("ＳＷＥ－ｂｅｎｃｈ　７０．２％") == tokenize("swe-bench 70.2%")
    assert "cursor" in tokenize("CURSOR")


def test_chinese_is_cut_into_words() -> None:
    tokens = tokenize("马斯克为什么站台")
    assert "马斯克" in tokens and "站台" in tokens
    assert "为什么" not in tokens  # a stopword


def test_stopwords_are_dropped_unless_asked() -> None:
    question = "What is the price of the model? 这篇文章的价格是多少"
    tokens = tokenize(question)
    assert {"what", "is", "the", "of"}.isdisjoint(tokens)
    assert {"的", "是", "多少"}.isdisjoint(tokens)
    assert {"price", "model", "价格"} <= set(tokens)
    everything = tokenize(question, drop_stopwords=False)
    assert {"what", "the", "的", "是"} <= set(everything)
    assert all(t not in EN_STOPWORDS and t not in ZH_STOPWORDS for t in tokens)


def test_only_stopwords_and_punctuation_give_no_tokens() -> None:
    assert tokenize("What is it? 是什么？！") == []
    assert tokenize("…，。！") == []


def test_bm25_scores_the_chunk_that_shares_terms() -> None:
    index = LexicalIndex(["Composer 2.5 的价格是 15 美元", "马斯克为什么站台", "的 了 是"])
    scores = index.scores(tokenize("价格多少"))
    assert scores.shape == (3,)
    assert scores[0] > 0 and scores[1] == 0 and scores[2] == 0
    assert int(np.argmax(index.scores(tokenize("马斯克")))) == 1
    assert not index.scores(["不在语料里的词"]).any()
    assert not index.scores([]).any()
    assert "价格" in index.vocabulary


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_an_empty_lexical_index_scores_nothing() -> None:
    index = LexicalIndex([])
    assert index.scores(["价格"]).shape == (0,)
