"""Candidates and their features (index/answer/candidates.py, features.py), on the synthetic index."""

from __future__ import annotations

import numpy as np
import pytest

from index.answer.candidates import candidates
from index.answer.features import CANDIDATE_FEATURES, Terms, candidate_matrix, question_terms
from index.build.store import StoredIndex
from index.retrieve.retriever import Retriever, SearchOutcome
from index.text.tokens import tokenize
from tests.index.synthetic import hashed_vector, sentence_id

COLUMN = {name: i for i, name in enumerate(CANDIDATE_FEATURES)}


def search(retriever: Retriever, question: str, language: str = "zh") -> SearchOutcome:
    return retriever.search(hashed_vector(question), tokenize(question), 5, "hybrid", language)


def test_candidates_are_the_statements_of_the_best_passages(stored: StoredIndex, retriever: Retriever) -> None:
    outcome = search(retriever, "夜班火车全程多少小时？")
    found = candidates(stored, outcome, passages=2)
    chunks = [h.chunk for h in outcome.hits[:2]]
    assert {stored.sentences[c.sentence].chunk for c in found} <= set(chunks)
    assert [c.passage_rank for c in found] == sorted(c.passage_rank for c in found)
    texts = [stored.sentence_text(stored.sentences[c.sentence]) for c in found]
    assert "二、火车" not in texts and "——测试文章：水果与火车" not in texts


def test_question_terms_weigh_rare_words_and_know_what_is_absent(retriever: Retriever) -> None:
    question = "夜班火车的卧铺和比特币多少钱？"
    terms = question_terms(retriever, question, tokenize(question), "zh")
    words = {next(iter(g)): w for g, w in zip(terms.groups, terms.weights, strict=True) if len(g) == 1}
    assert "卧铺" in words and "比特" in terms.absent
    assert terms.bigrams and "卧铺" in terms.bigrams
    assert terms.share(frozenset(["卧铺"])) > 0 and terms.share(frozenset()) == 0


def test_an_english_word_counts_through_its_translation(retriever: Retriever) -> None:
    question = "How much does the train ticket cost?"
    terms = question_terms(retriever, question, tokenize(question), "en")
    assert any("火车" in group for group in terms.groups)
    assert not terms.bigrams


def test_feature_matrix(stored: StoredIndex, retriever: Retriever) -> None:
    question = "夜班火车全程多少小时？"
    outcome = search(retriever, question)
    found = candidates(stored, outcome)
    terms = question_terms(retriever, question, tokenize(question), "zh")
    matrix = candidate_matrix(stored, outcome, found, terms, question, "zh")
    assert matrix.shape == (len(found), len(CANDIDATE_FEATURES)) and np.isfinite(matrix).all()
    answer = [c.sentence for c in found].index(sentence_id(stored, "夜班火车从北京开往上海"))
    row = matrix[answer]
    assert row[COLUMN["lex_gap"]] == 0 and row[COLUMN["lex"]] > 0  # it holds most of the question's words
    assert row[COLUMN["bigram"]] == matrix[:, COLUMN["bigram"]].max()
    assert row[COLUMN["asks_number"]] == 1 and row[COLUMN["holds_digit"]] == 1
    assert matrix[:, COLUMN["cos_gap"]].min() == 0  # some candidate is the best by cosine
    assert (matrix[:, COLUMN["english"]] == 0).all()


def test_a_word_every_candidate_holds_weighs_nothing_locally() -> None:
    from index.answer.features import _local_shares

    terms = Terms((frozenset(["火车"]), frozenset(["卧铺"])), (1.0, 1.0), (), 2, frozenset(), frozenset())
    texts = [frozenset(["火车", "卧铺"]), frozenset(["火车"]), frozenset(["火车", "北京"])]
    shares = _local_shares(terms, texts)
    assert shares[0] == 1 and shares[1] == 0 and shares[2] == 0  # 火车 is in all three: it tells none apart
    assert (_local_shares(Terms((), (), (), 0, frozenset(), frozenset()), texts) == 0).all()


def test_no_candidates_no_rows(stored: StoredIndex) -> None:
    empty = SearchOutcome([], {}, [], [])
    terms = Terms((), (), (), 0, frozenset(), frozenset())
    assert candidate_matrix(stored, empty, [], terms, "?", "zh").shape == (0, len(CANDIDATE_FEATURES))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_features_are_the_same_for_the_same_question(stored: StoredIndex, retriever: Retriever, language: str) -> None:
    question = "车票价格是多少？" if language == "zh" else "What does the ticket cost?"
    outcome = search(retriever, question, language)
    found = candidates(stored, outcome)
    terms = question_terms(retriever, question, tokenize(question), language)
    one = candidate_matrix(stored, outcome, found, terms, question, language)
    two = candidate_matrix(stored, outcome, found, terms, question, language)
    assert np.array_equal(one, two)


def test_the_english_view_gives_each_candidate_its_gloss_cosine(stored: StoredIndex, retriever: Retriever) -> None:
    import dataclasses

    question = "How long is the night train ride?"
    tokens = tokenize(question)
    terms = question_terms(retriever, question, tokens, "en")
    own = hashed_vector(question)
    outcome = retriever.search(own, tokens, 5, "hybrid", "en", None, own)
    plain = candidate_matrix(stored, outcome, candidates(stored, outcome), terms, question, "en")
    assert not plain[:, COLUMN["gloss_cos"]].any()  # an index without the view: no cosine to read
    # stand-in glosses: each sentence's own vector, so the expected cosines are known
    viewed = dataclasses.replace(stored, glosses=[""] * len(stored.sentences), gloss_vectors=stored.sentence_vectors)
    seen = Retriever(viewed)
    outcome = seen.search(own, tokens, 5, "hybrid", "en", None, own)
    found = candidates(viewed, outcome)
    matrix = candidate_matrix(viewed, outcome, found, terms, question, "en")
    expected = stored.sentence_vectors[[c.sentence for c in found]] @ own
    assert np.allclose(matrix[:, COLUMN["gloss_cos"]], expected, atol=1e-6) and expected.std() > 0
    assert np.allclose(matrix[:, COLUMN["gloss_gap"]], expected.max() - expected, atol=1e-6)
    unviewed = candidate_matrix(viewed, dataclasses.replace(outcome, view_scores={}), found, terms, question, "en")
    assert not unviewed[:, COLUMN["gloss_cos"]].any()
    assert np.array_equal(
        np.delete(matrix, [COLUMN["gloss_cos"], COLUMN["gloss_gap"]], axis=1),
        np.delete(unviewed, [COLUMN["gloss_cos"], COLUMN["gloss_gap"]], axis=1),
    )  # the view changes its own columns only
    alone = seen.search(own, tokens, 5, "hybrid", "en")  # no vector to compare with the view
    assert not candidate_matrix(viewed, alone, candidates(viewed, alone), terms, question, "en")[
        :, COLUMN["gloss_cos"]
    ].any()
    # a question in the corpus's own language isn't compared with the view
    chinese = seen.search(own, tokens, 5, "hybrid", "zh", None, own)
    zh = candidate_matrix(viewed, chinese, candidates(viewed, chinese), terms, question, "zh")
    assert not zh[:, [COLUMN["gloss_cos"], COLUMN["gloss_gap"]]].any()
