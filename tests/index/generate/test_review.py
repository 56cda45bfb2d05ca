"""index/generate/review.py: a sentence cited to the wrong given passage is pointed at the one that
states it, an answer without markers cited where each sentence is grounded, checked as any other;
then the reading (tests/index/generate/test_judge.py)."""

from __future__ import annotations

import pytest

from index.generate.grounding import PassageVerifier, grounding_of
from index.generate.outcome import GeneratedAnswer, GenerationFailure
from index.generate.review import cited_where_grounded, recited, reviewed
from tests.index.support import passage

SHIPPED = "5 月 18 日 Cursor 发布 Composer 2.5 时，官方博客又重复了一遍："
PRICE = "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元、输出 2.50 美元。"


PASSAGES = [passage(PRICE, 1), passage(SHIPPED, 2)]


@pytest.fixture(scope="module")
def verifier(engine) -> PassageVerifier:  # type: ignore[no-untyped-def]
    return PassageVerifier(grounding_of(engine.snapshot.stored))


def test_a_sentence_is_cited_to_the_given_passage_that_states_it(verifier: PassageVerifier) -> None:
    text = "Composer 2.5 shipped on May 18 [1]. Input costs $15 per million tokens [1]."
    assert (
        recited(text, PASSAGES, verifier)
        == "Composer 2.5 shipped on May 18 [2]. Input costs $15 per million tokens [1]."
    )


def test_a_sentence_no_passage_states_keeps_its_marker(verifier: PassageVerifier) -> None:
    text = "Composer 2.5 shipped on May 19 [1]. Input costs $15 per million tokens [2]."
    assert (
        recited(text, PASSAGES, verifier)
        == "Composer 2.5 shipped on May 19 [1]. Input costs $15 per million tokens [1]."
    )


def test_a_refused_answer_is_shown_once_its_citation_is_right(verifier: PassageVerifier) -> None:
    raw = "Composer 2.5 的输出价是每百万 token 2.50 美元 [2]。"
    refused = GenerationFailure("ungrounded", "number not in the cited passages: 2.50 美元")
    outcome = reviewed(refused, raw, PASSAGES, "zh", "m", verifier, read=None)
    assert isinstance(outcome, GeneratedAnswer) and outcome.text == raw.replace("[2]", "[1]") and outcome.cited == [1]
    doubted = reviewed(refused, raw, PASSAGES, "zh", "m", verifier, read=lambda text, cited: -3.0)
    assert isinstance(doubted, GenerationFailure) and doubted.detail == "second reading: no (-3.00)"
    assert reviewed(refused, raw.replace("2.50", "3.50"), PASSAGES, "zh", "m", verifier, read=None) == refused


def test_only_an_answer_refused_for_its_grounding_is_reviewed(verifier: PassageVerifier) -> None:
    cut = GenerationFailure("length", "finish_reason=length")  # a reply cut short is never shown
    reworded = "Cursor's blog restated it at the model's debut [2]."
    assert verifier.wording_only(reworded, PASSAGES)
    assert reviewed(cut, reworded, PASSAGES, "en", "m", verifier, read=lambda text, cited: 5.0) == cut


def test_an_answer_without_markers_is_cited_where_each_sentence_is_grounded(verifier: PassageVerifier) -> None:
    text = "Composer 2.5 shipped on May 18. 输入每百万 token 15 美元。"
    cited = "Composer 2.5 shipped on May 18 [2]. 输入每百万 token 15 美元[1]。"
    assert cited_where_grounded(text, PASSAGES, verifier) == cited
    assert cited_where_grounded("Composer 2.5 shipped on May 19.", PASSAGES, verifier) is None
    assert cited_where_grounded("It shipped on May 18. Python is supported.", PASSAGES, verifier) is None


def test_an_uncited_answer_is_shown_once_cited_and_read(verifier: PassageVerifier) -> None:
    uncited = GenerationFailure("uncited", "no [n] naming a supplied passage")
    raw = "Output costs $2.50 per million tokens."
    outcome = reviewed(uncited, raw, PASSAGES, "en", "m", verifier, read=lambda text, cited: 2.0)
    assert outcome == GeneratedAnswer("Output costs $2.50 per million tokens [1].", [1], False, "m")
    doubted = reviewed(uncited, raw, PASSAGES, "en", "m", verifier, read=lambda text, cited: -3.0)
    assert isinstance(doubted, GenerationFailure) and doubted.reason == "ungrounded"
    made_up = "Output costs $3.50 per million tokens."
    assert reviewed(uncited, made_up, PASSAGES, "en", "m", verifier, read=lambda text, cited: 2.0) == uncited
