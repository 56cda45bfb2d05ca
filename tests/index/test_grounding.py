"""index/grounding.py, and a generated answer checked before it is shown: wrong answers of the kind
a real 1.5B model wrote, fed through the fake OpenAI-compatible server, end in the English line."""

from __future__ import annotations

import re

import pytest

from index.english_answer import lexicon_of
from index.grounding import Grounding, sentences
from index.lexicon import english_vocabulary
from index.llm_settings import LLMSettings
from tests.fakeopenai import FakeOpenAI, Reply

CJK = re.compile(r"[\u3400-\u9fff]")
COMPUTE = "Cursor 还和 SpaceX AI 合作，用了 Colossus 2 的 100 万个 H100 等效算力。"
DATA = "合成数据规模翻 25 倍：用更强的模型生成高难度训练数据，再让 Composer 2.5 在这些数据上训练。"
BUYOUT = "更微妙的是，马斯克 reportedly 握有 600 亿美元收购 Cursor 的优先权。"
RUMOUR = (
    "最近圈子里在传一个消息：Cursor 的新模型 Composer 2 底层其实是用月之暗面（Moonshot）开源的 Kimi K2.5 做的。"
    "我先说结论：传闻属实。"
)


@pytest.fixture(scope="module")
def grounding(engine) -> Grounding:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    return Grounding(lexicon_of(stored), stored.glossary, english_vocabulary())


@pytest.mark.parametrize(
    ("answer", "source", "problem"),
    [
        ("Cursor used 1 million H100-equivalent GPUs from SpaceX AI's Colossus 2 [1].", COMPUTE, None),
        ("Cursor used 100,000 H100s [1].", COMPUTE, "number not in the cited passages: 100,000"),
        ("Cursor used 100 million H100s [1].", COMPUTE, "number not in the cited passages: 100 million"),
        ("Musk reportedly holds a right of first refusal to acquire Cursor for US$60 billion [1].", BUYOUT, None),
        ("Musk can buy Cursor for $600 billion [1].", BUYOUT, "number not in the cited passages: $600 billion"),
        ("Musk can buy Cursor for 600 dollars [1].", BUYOUT, "number not in the cited passages: 600 dollars"),
        ("Cursor's editor supports Python and JavaScript [1].", RUMOUR, "name not in the cited passages: Python"),
        ("Cursor scaled up its synthetic data 25 times [1].", DATA, None),
        ("Composer 2.5 is 25 times larger [1].", DATA, "number not in the cited passages: 25 times larger"),
        ("Yes, the rumour is true: Composer 2 is built on Moonshot's Kimi K2.5 [1].", RUMOUR, None),
        ("The rumour came from Moonshot's founder Yang Zhilin [1].", RUMOUR, "name not in the cited passages: Yang"),
    ],
)
def test_problems(grounding: Grounding, answer: str, source: str, problem: str | None) -> None:
    found = grounding.first_problem(answer, {1: source})
    assert (found or "").startswith(problem or "") and (found is None) == (problem is None), found


def test_a_name_may_come_through_the_lexicon(grounding: Grounding) -> None:
    assert "Musk" in grounding.names("Cursor said that Musk backs it [1].")
    assert grounding.name_supported("Musk", [BUYOUT])  # 马斯克 → Elon Musk


def test_sentence_initial_words_are_no_names(grounding: Grounding) -> None:
    assert grounding.names("The article says so. However, Cursor did [1].") == ["Cursor"]


def test_sentences_keep_their_markers() -> None:
    assert sentences("One fact [1]. Two facts. [2][3] Three") == ["One fact [1].", "Two facts. [2][3]", "Three"]


def test_a_preview_shows_grounded_sentences_only(grounding: Grounding) -> None:
    text = "Cursor used Colossus 2 [1]. It used 100,000 H100s [1]. Then more"
    assert grounding.grounded_prefix(text, {1: COMPUTE}) == "Cursor used Colossus 2 [1]."


# -- through the generator, at the protocol level ---------------------------------------------------
WRONG = [
    ("How many H100 equivalents did Cursor get from SpaceX AI?", "Cursor used 100,000 H100s from Colossus 2 [1]."),
    ("How much would Musk pay to buy Cursor?", "Musk holds the right to acquire Cursor for 600 billion dollars [1]."),
    ("What is Composer 2 built on?", "Composer 2 is built on Kimi K2.5, and Cursor's editor supports Python [1]."),
    ("By how much did Cursor scale up its synthetic data?", "Composer 2.5 is 25 times larger than Composer 2 [1]."),
]


@pytest.fixture(scope="module")
def writer(engine):  # type: ignore[no-untyped-def]
    from index.engine import Engine

    with FakeOpenAI() as fake:
        llm = LLMSettings(base_url=fake.base_url, model="fake-model", timeout=5, deadline=10, passages=2)
        made = Engine(engine.settings, embedder=engine.embedder, llm=llm)
        try:
            yield made, fake
        finally:
            assert made.generator is not None
            made.generator.close()


@pytest.mark.parametrize(("question", "reply"), WRONG)
def test_a_wrong_answer_is_never_shown(writer, question: str, reply: str) -> None:  # type: ignore[no-untyped-def]
    engine, fake = writer
    fake.script(Reply.text(reply, chunk_size=5, chunk_delay=0.01))
    partials: list[str] = []
    result = engine.ask(question, on_partial=partials.append)
    assert result.generator == "extractive" and (result.generation or "").startswith("ungrounded"), result.generation
    opening = result.answer.split("\n")[0]
    assert opening and not CJK.search(opening), opening  # the English line stands
    assert "Quoted from the Chinese original" in result.answer
    wrong = sentences(reply)[-1].split(" [")[0]
    assert all(wrong not in p for p in partials), partials


def test_a_grounded_answer_is_shown_as_it_streams(writer) -> None:  # type: ignore[no-untyped-def]
    engine, fake = writer
    reply = "Cursor used Colossus 2 through SpaceX AI [1]. It had 1 million H100-equivalent compute [1]."
    fake.script(Reply.text(reply, chunk_size=5, chunk_delay=0.01))
    partials: list[str] = []
    result = engine.ask("How many H100 equivalents did Cursor get from SpaceX AI?", on_partial=partials.append)
    assert result.generation == "shown" and result.answer == reply, result.generation
    assert all(reply.startswith(p) for p in partials)
