"""Hybrid retrieval (index/retrieve/retriever.py): fusion arithmetic, and the three modes on the real index."""

from __future__ import annotations

import numpy as np
import pytest

from index.retrieve.retriever import bias_language, lexical_leader, rrf, top_indices
from index.text.tokens import tokenize

SWE_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"


def test_rrf_weights_and_ranks() -> None:
    fused = rrf([[1, 2, 3], [3, 1]], [1.0, 0.5], k=20)
    assert fused[1] == pytest.approx(1 / 21 + 0.5 / 22)
    assert fused[2] == pytest.approx(1 / 22)
    assert fused[3] == pytest.approx(1 / 23 + 0.5 / 21)
    assert rrf([[], []], [1.0, 1.0], k=20) == {}


def test_lexical_leader_is_a_clear_bm25_winner() -> None:
    scores = np.array([0.0, 3.0, 0.8, 1.7])
    assert lexical_leader([1, 3, 2], scores, 1.8) is None  # 3.0 < 1.8 × 1.7
    assert lexical_leader([1, 2], scores, 1.8) == 1
    assert lexical_leader([3], scores, 1.8) == 3  # the only passage sharing a term
    assert lexical_leader([], scores, 1.8) is None


def test_a_clear_lexical_winner_beats_a_few_dense_ranks(engine) -> None:  # type: ignore[no-untyped-def]
    # e5 ranks the 合成数据规模翻 25 倍 passage fourth; BM25 puts it first by a wide margin
    result = engine.search("By how much did Cursor scale up synthetic data?", k=3)
    assert "合成数据规模翻 25 倍" in result.passages[0].text


def test_top_indices() -> None:
    scores = np.array([0.1, 0.9, 0.5, 0.9, 0.0])
    assert top_indices(scores, 3).tolist() == [1, 3, 2]  # ties by position
    assert top_indices(scores, 10).tolist() == [1, 3, 2, 0, 4]
    assert top_indices(scores, 0).tolist() == []
    assert top_indices(np.array([]), 3).tolist() == []


def test_bias_language() -> None:
    assert [bias_language(x) for x in ("zh", "en", "ja", "ko")] == ["zh", "en", "en", "en"]


def _search(engine, question: str, mode: str, k: int = 5):  # type: ignore[no-untyped-def]
    snapshot = engine.snapshot
    vector = engine.embedder.encode_queries([question])[0]
    language = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in question) else "en"
    return snapshot.retriever.search(vector, tokenize(question), k, mode, language)


@pytest.mark.parametrize("mode", ["dense", "lexical", "hybrid"])
def test_every_mode_finds_the_benchmark_table(engine, mode: str) -> None:  # type: ignore[no-untyped-def]
    outcome = _search(engine, SWE_ZH, mode)
    chunks = engine.snapshot.stored.chunks
    texts = [chunks[h.chunk].text for h in outcome.hits]
    assert any("70.2%" in t for t in texts[:3])
    if mode == "hybrid":
        assert "70.2%" in texts[0]
    scores = [h.score for h in outcome.hits]
    assert scores == sorted(scores, reverse=True)
    assert len({h.chunk for h in outcome.hits}) == len(outcome.hits) <= 5


def test_hits_carry_their_evidence(engine) -> None:  # type: ignore[no-untyped-def]
    outcome = _search(engine, SWE_ZH, "hybrid")
    stored = engine.snapshot.stored
    for hit in outcome.hits:
        assert -1.0 <= hit.dense <= 1.0
        assert hit.lexical >= 0
        if hit.chunk in outcome.lexical_order:
            assert hit.lexical > 0
    # sentence scores belong to sentences of the candidate chunks
    for sid in outcome.sentence_scores:
        assert stored.sentences[sid].chunk in set(outcome.dense_order)
    assert set(outcome.lexical_order) <= set(outcome.dense_order)


def test_english_words_reach_the_chinese_text_through_the_glossary(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    tokens = tokenize("What was the price?")
    assert tokens == ["price"]
    assert "价格" in retriever.expand(tokens)
    outcome = _search(engine, "What was the price?", "lexical")
    top = engine.snapshot.stored.chunks[outcome.hits[0].chunk]
    assert "价格" in top.text and "15 美元" in top.text


def test_an_english_word_and_its_translations_are_one_term(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    tokens = tokenize("Why do a lot of people think building on an open-source model is standard?")
    groups = retriever.term_groups(tokens)
    assert ["model", "模型"] in groups  # the arXiv quotation has "model", the article 模型
    assert all(len(g) == len(set(g)) for g in groups)
    assert sorted(f for g in groups for f in g) == sorted(
        t for t in dict.fromkeys(retriever.expand(tokens)) if t in retriever.lexical.vocabulary
    )
    # a Chinese question is scored as it always was: its words, and the translations of its Latin ones
    chinese = tokenize("Composer 2.5 的价格是多少")
    assert np.array_equal(retriever.lexical_scores(chinese, "zh"), retriever.lexical.scores(retriever.expand(chinese)))


def test_an_english_question_finds_the_chinese_passage_over_the_english_quotation(engine) -> None:  # type: ignore[no-untyped-def]
    # the arXiv quotation's "training" / "model" outweighed 训练 / 模型 / 优化 / 分片 summed (dev_more m20)
    result = engine.ask("what low-level training optimizations did they use (optimizer, sharding etc)")
    assert not result.abstained and "Muon" in result.answer


def test_a_phrase_translation_weighs_as_the_two_words_it_says(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    groups = retriever.term_groups(tokenize("What's the writer's verdict on value for money?"))
    assert groups.count(["性价比"]) == 2  # "value money" as a phrase
    result = engine.search("In the author's steel-plate analogy, what is it that actually makes the difference?", k=3)
    assert "钢板" in result.passages[0].text  # not the passage where things turn out 完全不同


def test_a_question_with_no_shared_words_still_gets_dense_candidates(engine) -> None:  # type: ignore[no-untyped-def]
    outcome = _search(engine, "天气预报", "hybrid")
    assert outcome.lexical_order == []
    assert len(outcome.hits) == 5


def test_written_form_is_how_the_corpus_writes_a_word(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    assert retriever.written_form("cursor") == "Cursor"
    assert retriever.written_form("spacex") == "SpaceX"
    assert retriever.written_form("swe-bench") == "SWE-bench"
    assert retriever.written_form("bitcoin") is None


def test_a_lower_case_name_in_a_chinese_question_finds_what_its_capitalised_form_does(engine) -> None:  # type: ignore[no-untyped-def]
    for question in ("为啥说cursor是大方承认", "spacex ai跟cursor是啥关系", "cursor一开始错在哪"):
        lower, written = engine.search(question), engine.search(question.replace("cursor", "Cursor"))
        assert [p.chunk_id for p in lower.passages] == [p.chunk_id for p in written.passages]


def test_passage_share(engine) -> None:  # type: ignore[no-untyped-def]
    retriever = engine.snapshot.retriever
    # "model" is in the English quotation only, but as 模型 in most passages: a word of the subject
    assert retriever.passage_share("model") < 0.5 <= retriever.group_share(["model", "模型"])
    assert retriever.passage_share("cursor") > 0.5  # the article's subject: nearly every passage
    assert 0 < retriever.passage_share("钢板") < 0.2  # one passage
    assert retriever.passage_share("比特币") == 0


def test_an_english_word_said_by_its_translation_is_weighed_once(engine) -> None:  # type: ignore[no-untyped-def]
    # "value" and "money" are nowhere in the article and weighed most; with them, 性价比 held too
    # small a share of the question for its sentence to join the answer
    retriever = engine.snapshot.retriever
    weights = retriever.term_weights(tokenize("Is Composer 2.5 good value for money? pinpointing"))
    assert "性价比" in weights
    assert "value" not in weights and "money" not in weights
    assert "pinpointing" in weights  # the article lacks it and nothing translates it: what is asked


def test_the_english_view_ranks_an_english_questions_passages_too() -> None:
    """A third ranking in the fusion (RetrievalParams.gloss_weight): the passages by their sentences'
    English glosses against the question's own vector; a Chinese question's fusion is left alone."""
    import dataclasses

    from index.retrieve.retriever import RetrievalParams, Retriever
    from tests.index.synthetic import build_stored, hashed_vector, sentence_id

    stored = build_stored()
    ticket = sentence_id(stored, "车票价格是 400 元")
    glosses = [f"sentence {i}" for i in range(len(stored.sentences))]
    glosses[ticket] = "The ticket price is 400 yuan."
    viewed = dataclasses.replace(stored, glosses=glosses, gloss_vectors=np.stack([hashed_vector(g) for g in glosses]))
    steered, own = hashed_vector("水果"), hashed_vector("ticket price")  # dense points at the fruit passage
    target = stored.sentences[ticket].chunk

    params = RetrievalParams(gloss_weight=3.0)  # decisive here, where dense and BM25 agree on another passage

    def first(index, language: str, view_vector=own) -> int:  # type: ignore[no-untyped-def]
        return Retriever(index, params).search(steered, [], 5, "hybrid", language, None, view_vector).hits[0].chunk

    assert first(stored, "en") != target  # no view: dense alone
    assert first(viewed, "en") == target
    assert first(viewed, "en", None) != target  # no own vector: nothing to rank the view with
    assert first(viewed, "zh") == first(stored, "zh")
    # the glosses' cosines are kept for the answer steps (features.py): every candidate sentence's
    outcome = Retriever(viewed, params).search(steered, [], 5, "hybrid", "en", None, own)
    assert outcome.view_scores[ticket] == max(outcome.view_scores.values())
    assert Retriever(viewed, params).search(steered, [], 5, "hybrid", "zh", None, own).view_scores == {}
    flat = Retriever(viewed, dataclasses.replace(params, gloss_weight=0.0))
    assert flat.search(steered, [], 5, "hybrid", "en", None, own).hits[0].chunk != target
