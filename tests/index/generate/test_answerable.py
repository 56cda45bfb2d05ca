"""The one-token check before an answer is written (index/generate/answerable.py): its request and
its verdict, over a real HTTP endpoint's replies where a reply is needed."""

from __future__ import annotations

from index.generate.answerable import (
    DECLINE_BELOW,
    REACH,
    SENTENCES,
    answerable_messages,
    answerable_score,
    declines,
    excerpts,
)
from tests.index.synthetic import build_stored, sentence_id


def test_the_request_reads_the_excerpts_in_order_then_the_question() -> None:
    system, user = answerable_messages("Composer 2.5 多少钱？", ["第一段。", "第二段。"])
    assert system["role"] == "system" and "Reply No if the passage is only about a related topic" in system["content"]
    text = user["content"]
    assert text.index("第一段") < text.index("第二段") < text.index("Composer 2.5 多少钱？")
    assert text.rstrip().endswith("Reply Yes or No.")


def test_the_model_reads_the_best_sentences_with_their_neighbours_in_the_articles_order() -> None:
    stored = build_stored()
    price, apples, sleeper, title = (
        sentence_id(stored, text) for text in ("车票价格是", "苹果每斤", "卧铺", "——测试文章")
    )
    assert (SENTENCES, REACH) == (3, 1)
    read = excerpts(stored, [price, apples, sleeper, title])  # a fourth sentence is not read
    assert read[0].startswith("一、水果") and read[0].endswith("每年秋天采摘。")
    # the ticket price with the sentence before it: the table after it is another passage, its own excerpt
    assert read[1] == "夜班火车从北京开往上海，全程 12 小时。车票价格是 400 元。"
    assert read[2].startswith("项目") and read[2].endswith("5 小时")
    assert len(read) == 3 and not any("Alice" in text or "测试文章" in text for text in read)


def test_neighbouring_best_sentences_are_read_once() -> None:
    stored = build_stored()
    second, first = sentence_id(stored, "• 第二"), sentence_id(stored, "• 第一")
    read = excerpts(stored, [second, first])
    assert len(read) == 1 and read[0].startswith("果农说了三件事：") and read[0].endswith("销量翻了 2 倍。")


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
