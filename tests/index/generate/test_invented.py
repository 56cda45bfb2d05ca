"""The model's short answer after the check's Yes (index/generate/invented.py): what in it no excerpt
states, on a synthetic index's words, and its request over a real HTTP endpoint."""

from __future__ import annotations

import pytest

from index.generate.grounding import Grounding, grounding_of
from index.generate.invented import MAX_TOKENS, SYSTEM, invented, short_answer, short_answer_messages
from tests.index.synthetic import build_stored

EXCERPTS = [
    "马斯克握有 600 亿美元收购的优先权。",
    "最后一次冰河期从距今74000年持续到11600年前。",
    "Composer 2.5 基于 Kimi K2.5，合成数据规模翻 25 倍，价格每百万 token 输入 15 美元、输出 2.50 美元。",
    "这种方法被称为即MBH99）的重建，他们做了三件事。",
]


@pytest.fixture(scope="module")
def grounding() -> Grounding:
    return grounding_of(build_stored())


@pytest.mark.parametrize(
    "reply",
    [
        "74000 years",  # a duration the passage writes as 距今74000年 (no year 4000)
        "$15 input, $2.50 output",
        "15 and 2.5",  # values, whatever they are said of
        "25 times",
        "Composer 2.5",  # a version is a value the excerpts write
        "three things",  # a count in words
        "12.5 dollars more",  # worked out: a gap between two of their numbers
        "MBH99",  # a code glued to Chinese words
        "Kimi K2.5",
        "600",  # the digits of 600 亿 as the passage writes them
        "The Turks and Japan",  # plain names: an English reply names in English what Chinese names in Chinese
        "NONE",
        "",
    ],
)
def test_what_the_excerpts_state_is_no_invention(grounding: Grounding, reply: str) -> None:
    assert invented(reply, EXCERPTS, grounding) == []


@pytest.mark.parametrize(
    ("reply", "made_up"),
    [
        ("1000", ["1000"]),
        ("10 weeks", ["10"]),
        ("2500000 条", ["2500000"]),
        ("They used GRPO.", ["GRPO"]),
        ("MBH98", ["MBH98"]),
        ("74000 years, 7 languages", ["7"]),
    ],
)
def test_a_number_or_code_no_excerpt_states_is_made_up(grounding: Grounding, reply: str, made_up: list[str]) -> None:
    assert invented(reply, EXCERPTS, grounding) == made_up


def test_only_the_first_line_is_read(grounding: Grounding) -> None:
    assert invented("25 times\nabout 1000 more", EXCERPTS, grounding) == []


def test_the_request_reads_the_excerpts_then_the_question() -> None:
    system, user = short_answer_messages("多少 token？", ["第一段。", "第二段。"])
    assert system == {"role": "system", "content": SYSTEM} and "reply exactly NONE" in SYSTEM
    assert user["content"].index("第一段") < user["content"].index("第二段") < user["content"].index("多少 token？")


def test_an_endpoints_reply_is_returned_and_its_failure_is_none() -> None:
    from index.generate.generator import chat_client
    from index.generate.settings import LLMSettings
    from tests.fakeopenai import FakeOpenAI, Reply

    with FakeOpenAI() as fake:
        client = chat_client(LLMSettings(base_url=fake.base_url, model="m", timeout=5))
        fake.script(Reply.text("1000 tokens"), Reply.error(500))
        replies = [short_answer(client, "m", "Q?", ["P。"], timeout=5) for _ in range(2)]
        client.close()
        requests = [r.json for r in fake.requests if r.method == "POST"]
    assert replies == ["1000 tokens", None]
    assert requests[0]["max_tokens"] == MAX_TOKENS and requests[0]["messages"][0]["content"] == SYSTEM
