"""index/generate/judge.py: the model's second reading of a generated answer, read from its token's
log-probabilities or its reply, and what the generator does with it, over real sockets to the fake
OpenAI-compatible server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from index.generate.generator import Generator
from index.generate.grounding import PassageVerifier, grounding_of
from index.generate.judge import RESCUE, SURE, VETO, accepted, judge_messages, support_score
from index.generate.outcome import GeneratedAnswer, GenerationFailure
from index.generate.settings import LLMSettings
from tests.fakeopenai import FakeOpenAI, Reply
from tests.index.support import passage

SHIPPED = "5 月 18 日 Cursor 发布 Composer 2.5 时，官方博客又重复了一遍："
# right; its words are not the dictionary's, and no quantity the checks verify anchors it
REWORDED = "Cursor's blog restated it at the model's debut [1]."
REVERSED = "Cursor 发布 Composer 2.5 时，官方博客没有再提这件事 [1]。"  # wrong in meaning only


def _completion(tops: list[tuple[str, float]], content: str = "") -> dict:
    entries = [{"token": t, "logprob": p} for t, p in tops]
    return {
        "choices": [
            {
                "index": 0,
                "finish_reason": "length",
                "message": {"role": "assistant", "content": content or tops[0][0]},
                "logprobs": {"content": [{"token": tops[0][0], "logprob": tops[0][1], "top_logprobs": entries}]},
            }
        ],
        "object": "chat.completion",
        "model": "fake-model",
    }


def test_the_score_is_the_log_odds_of_yes() -> None:
    assert support_score(_completion([("Yes", -0.4), ("No", -1.3), ("Let", -3.0)])) == pytest.approx(0.9)
    assert support_score(_completion([(" no", -0.2), ("Yes", -2.0)])) == pytest.approx(-1.8)
    # a word outside the top ones is taken as a little less likely than the least of them
    assert support_score(_completion([("Yes", -0.1), ("The", -4.0)])) == pytest.approx(4.9)


def test_without_log_probabilities_the_reply_says_it() -> None:
    reply = {"choices": [{"message": {"content": "Yes."}}]}
    namespace = SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content="No"), logprobs=None)])
    assert support_score(reply) == SURE and support_score(namespace) == -SURE
    assert support_score({"choices": [{"message": {"content": "Maybe"}}]}) is None
    assert support_score({"choices": []}) is None


def test_a_grounded_answer_stays_unless_refused_and_a_reworded_one_needs_support() -> None:
    assert accepted(None, grounded=True) and not accepted(None, grounded=False)
    assert accepted(VETO, grounded=True) and not accepted(VETO - 0.01, grounded=True)
    assert accepted(RESCUE, grounded=False) and not accepted(RESCUE - 0.01, grounded=False)


def test_the_request_holds_the_cited_passages_the_question_and_the_answer() -> None:
    one = judge_messages("When?", REWORDED, {1: SHIPPED})[1]["content"]
    assert one.startswith(f"Passage:\n{SHIPPED}\n") and "Question: When?" in one and REWORDED in one
    two = judge_messages("When?", "A [1]. B [2].", {2: "乙", 1: "甲"})[1]["content"]
    assert "[1] 甲\n\n[2] 乙" in two


# -- through the generator ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module")
def verifier(engine) -> PassageVerifier:  # type: ignore[no-untyped-def]
    return PassageVerifier(grounding_of(engine.snapshot.stored))


def _generate(fake: FakeOpenAI, verifier: PassageVerifier, reply: str, *then: Reply, judge: bool = True):  # type: ignore[no-untyped-def]
    language = "zh" if reply == REVERSED else "en"
    fake.reset()
    fake.script(Reply.text(reply), *then)
    settings = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10, judge=judge)
    generator = Generator(settings)
    try:
        return generator.generate("When did Composer 2.5 ship?", [passage(SHIPPED)], language, verifier)
    finally:
        generator.close()


def test_a_reworded_right_answer_the_reading_supports_is_shown(fake: FakeOpenAI, verifier: PassageVerifier) -> None:
    assert verifier.wording_only(REWORDED, [SimpleNamespace(text=SHIPPED)])
    body = json.dumps(_completion([("Yes", -0.1), ("No", -2.5)]))
    outcome = _generate(fake, verifier, REWORDED, Reply.raw(body))
    assert isinstance(outcome, GeneratedAnswer) and outcome.text == REWORDED
    reading = fake.requests[1].json
    assert reading["max_tokens"] == 1 and reading["logprobs"] is True and SHIPPED in reading["messages"][1]["content"]


def test_without_the_reading_the_word_check_decides(fake: FakeOpenAI, verifier: PassageVerifier) -> None:
    outcome = _generate(fake, verifier, REWORDED, Reply.text("Yes"), judge=False)
    assert isinstance(outcome, GenerationFailure) and outcome.detail.startswith("sentence not in the cited passages")
    assert len(fake.requests) == 1


def test_a_reading_that_refuses_hides_a_grounded_answer(fake: FakeOpenAI, verifier: PassageVerifier) -> None:
    assert verifier.problem(REVERSED, [SimpleNamespace(text=SHIPPED)]) is None  # the words are all there
    outcome = _generate(fake, verifier, REVERSED, Reply.raw(json.dumps(_completion([("No", -0.2), ("Yes", -1.9)]))))
    assert isinstance(outcome, GenerationFailure) and outcome.reason == "ungrounded", outcome
    assert outcome.detail == "second reading: no (-1.70)"


def test_a_failed_reading_leaves_the_lexical_verdict(fake: FakeOpenAI, verifier: PassageVerifier) -> None:
    outcome = _generate(fake, verifier, REVERSED, Reply.error(500))
    assert isinstance(outcome, GeneratedAnswer)
    outcome = _generate(fake, verifier, REWORDED, Reply.text("I think so"))
    assert isinstance(outcome, GenerationFailure)


def test_a_wrong_number_is_never_read_again(fake: FakeOpenAI, verifier: PassageVerifier) -> None:
    outcome = _generate(fake, verifier, "It shipped on May 19 [1].", Reply.text("Yes"))
    assert isinstance(outcome, GenerationFailure) and outcome.detail.startswith("number not in the cited passages")
    assert len(fake.requests) == 1
