"""Tokens and BM25 (index/text/tokens.py, index/text/stopwords.py, index/build/lexical.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index.build.lexical import LexicalIndex
from index.text.stopwords import EN_STOPWORDS, ZH_STOPWORDS
from index.text.tokens import tokenize


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
    # "rather than the base" asks nothing: it had made 而是 ("rather") one of a question's words
    assert tokenize("training rather than the base") == ["training", "base"]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("技术报告是哪天发的？", ["技术", "报告", "技术报告", "发"]),  # jieba alone cut 哪/天发/的
        ("Cursor 是哪一年成立的", ["cursor", "一年", "成立"]),
        ("什么时候发布的", ["发布"]),
        ("几月份上线", ["上线"]),
    ],
)
def test_when_words_are_cut_whole_and_dropped(question: str, words: list[str]) -> None:
    assert tokenize(question) == words


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


TEXTS = [
    "Composer 2.5 的价格是 15 美元",
    "马斯克为什么站台",
    "的 了 是",  # only stopwords
    "SWE-bench 上 Composer 2 得分 70.2%，Kimi K2.5 是底座",
    "Cursor 承认 Composer 2 基于开源模型训练",
]
QUERIES = [["价格"], ["composer", "2.5"], ["马斯克", "站台", "价格"], ["kimi", "k2.5", "底座"], ["不在语料里的词"], []]


@pytest.mark.parametrize("mmap", [True, False])
def test_a_saved_lexical_index_loads_with_the_same_vocabulary_and_scores(tmp_path: Path, mmap: bool) -> None:
    from index.build.lexical import LEXICAL_FILES

    built = LexicalIndex(TEXTS)
    built.save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(LEXICAL_FILES.values())
    loaded = LexicalIndex.load(tmp_path, len(TEXTS), mmap=mmap)
    assert loaded.vocabulary == built.vocabulary and "\x00" not in loaded.vocabulary
    assert len(loaded) == len(built) == len(TEXTS)
    assert not hasattr(loaded, "doc_tokens") and not hasattr(built, "doc_tokens")  # token lists aren't kept
    for tokens in [*QUERIES, sorted(built.vocabulary)]:
        assert np.array_equal(loaded.scores(tokens), built.scores(tokens)), tokens
        assert loaded.scores(tokens).dtype == np.float32
    for token in [*built.vocabulary, "不在语料里的词"]:
        assert loaded.document_frequency(token) == built.document_frequency(token), token


def test_document_frequency_counts_the_documents_with_the_token() -> None:
    index = LexicalIndex(["Cursor 的价格", "Cursor 和马斯克", "价格 价格 价格", "别的"])
    assert index.document_frequency("cursor") == 2
    assert index.document_frequency("价格") == 2  # repeats in one document count once
    assert index.document_frequency("马斯克") == 1
    assert index.document_frequency("不在语料里的词") == 0
    assert LexicalIndex([]).document_frequency("价格") == 0


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_an_empty_lexical_index_saves_nothing_and_loads(tmp_path: Path) -> None:
    LexicalIndex([]).save(tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert LexicalIndex.load(tmp_path, 0).scores(["价格"]).shape == (0,)


@pytest.mark.parametrize(
    "breakage",
    ["missing vocabulary", "missing matrix", "other document count", "vocabulary not JSON", "matrix garbage"],
)
def test_a_broken_saved_lexical_index_fails_to_load(tmp_path: Path, breakage: str) -> None:
    from index.build.lexical import LEXICAL_FILES

    LexicalIndex(TEXTS).save(tmp_path)
    size = len(TEXTS)
    if breakage == "missing vocabulary":
        (tmp_path / LEXICAL_FILES["vocab_name"]).unlink()
    elif breakage == "missing matrix":
        (tmp_path / LEXICAL_FILES["data_name"]).unlink()
    elif breakage == "other document count":
        size += 1
    elif breakage == "vocabulary not JSON":
        (tmp_path / LEXICAL_FILES["vocab_name"]).write_text("{oops", encoding="utf-8")
    else:
        (tmp_path / LEXICAL_FILES["indptr_name"]).write_bytes(b"garbage!" * 8)
    with pytest.raises((OSError, ValueError)):
        LexicalIndex.load(tmp_path, size)


def test_documents_with_a_token() -> None:
    index = LexicalIndex(["Cursor 发布了模型", "今天天气很好", "cursor 和 Kimi", "Kimi K2.5"])
    assert index.documents_with("cursor", 10) == [0, 2]
    assert index.documents_with("cursor", 1) == [0]
    assert index.documents_with("不存在", 10) == []


def test_a_group_of_forms_scores_as_one_term() -> None:
    # an English quotation repeats the rare English words; the passage that answers has the Chinese
    # ones, each common: summed, the quotation wins, scored as one term per word it does not
    texts = [
        "We report the training of our model, training and model again",
        "用更强的模型生成高难度训练数据",
        "模型 训练 价格",
        "训练 成本",
        "模型 发布",
        "马斯克 站台",
    ]
    index = LexicalIndex(texts)
    groups = [["model", "模型"], ["generated", "生成"], ["training", "训练"], ["data", "数据"]]
    summed = index.scores([form for group in groups for form in group])
    grouped = index.grouped_scores(groups)
    assert int(np.argmax(summed)) == 0
    assert int(np.argmax(grouped)) == 1
    assert grouped[5] == 0.0


def test_one_token_groups_score_as_plain_bm25() -> None:
    index = LexicalIndex(["Composer 2.5 的价格是 15 美元", "马斯克为什么站台", "价格 价格 马斯克"])
    tokens = ["价格", "马斯克", "nowhere"]
    assert np.allclose(index.scores(tokens), index.grouped_scores([[t] for t in tokens]))
    # the shared idf is BM25's own: a group of one form and an absent one scores as the form
    assert np.allclose(index.scores(["价格"]), index.grouped_scores([["价格", "nowhere"]]))
    assert not LexicalIndex([]).grouped_scores([["价格", "price"]]).size


def test_a_model_names_plural_is_the_name() -> None:
    # "How many H100s…?" was declined: "It never mentions H100s" (the article has 100 万个 H100)
    assert tokenize("H100s and A100s") == ["h100", "a100"]
    assert tokenize("x86s K2s") == ["x86", "k2"]
    assert "k2.5" in tokenize("Kimi K2.5's") and "gpus" in tokenize("GPUs")  # not model-name plurals


def test_the_fields_words_are_cut_whole() -> None:
    # jieba read "的总算力" as 总算 ("at last") + 力, and "compute" → 算力 never met the CEO's 85 % of it
    assert "算力" in tokenize("自家额外训练+RL 占了 85% 的总算力。")
    assert "总算" not in tokenize("自家额外训练+RL 占了 85% 的总算力。")
    assert tokenize("公开源代码") == ["公开", "代码", "源代码"]  # no tech word steals from its neighbours


def test_the_tokenizer_follows_an_edit_of_the_tech_terms(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a rebuild in a running bot after an edit tokenizes with the edited terms, as its glossary is made
    import os

    from index.text import tokens as tokenizer

    terms = tmp_path / "tech_terms.tsv"
    monkeypatch.setattr(tokenizer, "terms_path", lambda: terms)
    terms.write_text("moat\t护城河\n", encoding="utf-8")
    os.utime(terms, ns=(1, 1))
    assert "算力" not in tokenize("占了 85% 的总算力")
    terms.write_text("compute\t算力\n", encoding="utf-8")
    os.utime(terms, ns=(2, 2))
    assert "算力" in tokenize("占了 85% 的总算力")


def test_concurrent_first_questions_make_one_tokenizer() -> None:
    """A cold burst: every thread that needs the tokenizer first gets the same one, made once."""
    import threading

    from index.text import tokens as tokenizer

    tokenizer._jieba_for.cache_clear()
    start = threading.Barrier(8)
    made: list[object] = []

    def first_question() -> None:
        start.wait()
        made.append(tokenizer._jieba())

    threads = [threading.Thread(target=first_question) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 8 and all(t is made[0] for t in made)
    assert tokenizer._jieba_for.cache_info().misses == 1
