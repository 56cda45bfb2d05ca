"""The one-token check before an answer is written (index/generate/answerable.py): its request and
its verdict, over a real HTTP endpoint's replies where a reply is needed."""

from __future__ import annotations

from index.generate.answerable import DECLINE_BELOW, PASSAGES, answerable_messages, answerable_score, declines


def test_the_request_reads_the_best_passages_in_order_then_the_question() -> None:
    passages = ["第一段。", "第二段。", "第三段。"]
    system, user = answerable_messages("Composer 2.5 多少钱？", passages)
    assert system["role"] == "system" and "Reply No if the passage is only about a related topic" in system["content"]
    text = user["content"]
    assert text.index("第一段") < text.index("第二段") < text.index("Composer 2.5 多少钱？")
    assert PASSAGES == 2 and "第三段" not in text
    assert text.rstrip().endswith("Reply Yes or No.")


def test_only_a_reading_below_the_threshold_declines() -> None:
    assert not declines(None)  # no reading: the gates' verdict stands
    assert declines(DECLINE_BELOW - 0.01) and declines(-5.0)
    assert not declines(DECLINE_BELOW) and not declines(5.0)


def test_an_endpoints_reply_is_read_and_its_failure_is_no_verdict() -> None:
    from index.generate.generator import chat_client
    from index.generate.settings import LLMSettings
    from tests.fakeopenai import FakeOpenAI, Reply

    with FakeOpenAI() as fake:
        client = chat_client(LLMSettings(base_url=fake.base_url, model="m", timeout=5))
        fake.script(Reply.text("No"), Reply.text("Yes, it does."), Reply.error(500), Reply.text("Maybe"))
        scores = [answerable_score(client, "m", "Q?", ["P。"], timeout=5) for _ in range(4)]
        client.close()
        requests = [r.json for r in fake.requests if r.method == "POST"]
    assert scores[0] is not None and scores[0] < DECLINE_BELOW
    assert scores[1] is not None and scores[1] > DECLINE_BELOW
    assert scores[2] is None and scores[3] is None  # an error, a reply saying neither
    assert all(r["max_tokens"] == 1 and r["logprobs"] is True for r in requests)
