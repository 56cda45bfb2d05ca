"""Generative answers through the real bot process: FakeDiscord on one side, FakeOpenAI (a local
OpenAI-compatible server with scripted replies) on the other, both on 127.0.0.1.

The module has its own bot, started with LLM_BASE_URL pointing at the fake's /v1 (the harness
strips LLM_* from the inherited environment, so they are passed explicitly). Each test scripts the
fake, asks with /ask and checks the answer edit, and what the fake received: a verified reply is
shown with renumbered [n] markers and one citation field per marker, a reply without markers cited to
the passages that state it; a failing endpoint or an uncited reply no passage grounds falls back to the
extractive answer, and the bot carries on."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.harness import BotUnderTest, assert_never_pings, custom_ids, embed_text, spawn_bot
from tests.fakeopenai import FakeOpenAI, RecordedRequest, Reply

QUESTION = "What is Composer 2.5's SWE-bench Verified score?"
GENERATED = "Composer 2.5 scores 70.2% on SWE-bench Verified [1]."
CHINESE_QUOTE = "70.2%（最高 75.6%）"  # the article's table row, quoted by the extractive answer
SECTION = "三、性能怎么样？值不值"
MODEL = "fake-model"
API_KEY = "e2e-llm-key"
# Generous for a local fake that answers in milliseconds, small enough that a hung request
# could not stall the module; no test waits for them to expire.
YES = Reply.text("Yes")  # the check before an answer, or a second reading: the passages say it
LLM_ENV = {"LLM_MODEL": MODEL, "LLM_API_KEY": API_KEY, "LLM_TIMEOUT": "5", "LLM_DEADLINE": "10"}
PASSAGE = re.compile(r'<passage n="(\d+)" section="([^"]*)">\n(.*?)\n</passage>', re.DOTALL)


# -- the module's servers and bot --------------------------------------------------------------
@pytest.fixture(scope="module")
def llm() -> Iterator[FakeOpenAI]:
    # Unscripted requests fail loudly (and the bot falls back): every test scripts what it needs.
    with FakeOpenAI(default=Reply.error(503, "not scripted")) as fake:
        yield fake


@pytest.fixture(scope="module")
def bot(llm: FakeOpenAI, e2e_index: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotUnderTest]:
    """Overrides conftest's shared ``bot``: this one generates through ``llm``."""
    bot = spawn_bot(e2e_index, tmp_path_factory.mktemp("bot-llm"), {"LLM_BASE_URL": llm.base_url, **LLM_ENV})
    try:
        bot.wait_ready()
    except BaseException:
        bot.stop()
        raise
    yield bot
    code = bot.stop()
    assert code == 0, f"the bot exited with {code}\n{bot.log_tail()}"


@pytest.fixture
def fresh(llm: FakeOpenAI) -> FakeOpenAI:
    """The fake with no script and no recorded requests (the previous test's answer is complete)."""
    llm.reset()
    return llm


# -- helpers -------------------------------------------------------------------------------------
def _ask(bot: BotUnderTest, user: str) -> dict:
    """``/ask QUESTION`` as ``user``: the answer's single embed."""
    interaction, _, _ = bot.ask(QUESTION, user=bot.user(user))
    edit = bot.answer_edit(interaction)
    embeds = edit.json.get("embeds") or []
    assert len(embeds) == 1, f"expected one answer embed: {edit.json}"
    assert edit.json["allowed_mentions"]["parse"] == []
    return edit.json


def _chat_requests(llm: FakeOpenAI) -> list[RecordedRequest]:
    return [r for r in llm.requests if r.method == "POST" and r.path == "/v1/chat/completions"]


def _passages(request: RecordedRequest) -> dict[int, tuple[str, str]]:
    """The passages of the prompt the bot sent: number → (section, text), unescaped."""
    user = request.json["messages"][1]["content"]
    return {int(n): (html.unescape(s), html.unescape(t)) for n, s, t in PASSAGE.findall(user)}


def _flat(text: str) -> str:
    return " ".join(text.split())


def _field(embed: dict, n: int) -> dict:
    fields = [f for f in embed.get("fields") or [] if f["name"].startswith(f"[{n}] ")]
    assert len(fields) == 1, f"expected one citation field [{n}]: {embed.get('fields')}"
    return fields[0]


def _assert_cites(field: dict, passage: tuple[str, str]) -> None:
    """The citation field quotes the passage it stands for."""
    section, text = passage
    assert field["name"].split(" ", 1)[1].startswith(section), (field["name"], section)
    assert _flat(field["value"].rstrip("…"))[:40] in _flat(text), (field["value"], text)


# -- tests -----------------------------------------------------------------------------------------
def test_a_cited_reply_is_the_answer_with_its_citation(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    fresh.script(YES, Reply.text(GENERATED), YES)
    payload = _ask(bot, "llm-asker")
    embed = payload["embeds"][0]

    # What the user sees: the model's English sentence, its [1] marker, one citation field.
    assert embed["title"] == QUESTION
    assert embed["description"] == GENERATED
    assert [f["name"].split(" ", 1)[0] for f in embed["fields"]] == ["[1]"], embed["fields"]
    cited = _field(embed, 1)
    assert SECTION in cited["name"] and "¶26" in cited["name"], cited
    assert "70.2%" in cited["value"]
    assert "Kate" in embed["footer"]["text"]
    assert [i.split(":")[1] for i in custom_ids(payload)] == ["up", "down"]

    # What the model was sent: first its check, one token: do the best passages answer the question?
    # Then a chat completion, system rules first, then the passages (delimited, numbered) and the
    # question; the configured model and key. Then its second reading: one token, the answer beside
    # the passage it cites.
    check, request, reading = _chat_requests(fresh)
    assert len(fresh.requests) == 3
    assert check.json["max_tokens"] == 1 and QUESTION in check.json["messages"][1]["content"]
    assert "70.2%" in check.json["messages"][1]["content"]
    assert reading.json["max_tokens"] == 1 and reading.json["logprobs"] is True
    assert GENERATED in reading.json["messages"][1]["content"] and "70.2%" in reading.json["messages"][1]["content"]
    body = request.json
    assert body["model"] == MODEL
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert "numbered passages" in body["messages"][0]["content"]
    user = body["messages"][1]["content"]
    assert user.index("<passages>") < user.index('<passage n="1"') < user.index("</passages>")
    assert user.index("</passages>") < user.index(f"<question>\n{QUESTION}\n</question>")
    assert request.headers.get("Authorization") == f"Bearer {API_KEY}"
    passages = _passages(request)
    assert passages and sorted(passages) == list(range(1, len(passages) + 1)), sorted(passages)
    assert "70.2%" in passages[1][1], "the reply cites [1]: passage 1 of the prompt must hold the score"
    _assert_cites(cited, passages[1])

    # What the bot stored is the generated answer too; the key never reaches the log.
    row = bot.wait_answer_stored(custom_ids(payload)[0].split(":")[2])
    assert row["answer"] == GENERATED and row["question"] == QUESTION
    assert API_KEY not in bot.log()


def test_a_reply_without_markers_is_cited_to_the_passage_that_states_it(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    fresh.script(YES, Reply.text(GENERATED.replace(" [1]", "")), YES)
    embed = _ask(bot, "llm-uncited")["embeds"][0]
    assert embed["description"] == GENERATED
    _assert_cites(_field(embed, 1), _passages(_chat_requests(fresh)[1])[1])
    assert len(fresh.requests) == 3  # the check, the answer, its second reading


def test_markers_are_renumbered_in_order_of_appearance(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    """The model cites passages 2 and 1 (in that order): the user sees [1] and [2], and each field
    quotes the passage its marker stood for in the prompt. (Each sentence is one its passage
    supports: an ungrounded one would not be shown, index/generate/grounding.py.)"""
    fresh.script(
        YES,
        Reply.text(
            "Composer 2.5 builds on the same open checkpoint as Composer 2 [2]. "
            "It scores 70.2% on SWE-bench Verified [1]."
        ),
    )
    embed = _ask(bot, "renumber-asker")["embeds"][0]

    expected = (
        "Composer 2.5 builds on the same open checkpoint as Composer 2 [1]. It scores 70.2% on SWE-bench Verified [2]."
    )
    assert embed["description"] == expected
    assert [f["name"].split(" ", 1)[0] for f in embed["fields"]] == ["[1]", "[2]"], embed["fields"]
    request = _chat_requests(fresh)[1]  # after the check; then its second reading
    passages = _passages(request)
    assert len(passages) >= 3, f"the prompt has {len(passages)} passages"
    _assert_cites(_field(embed, 1), passages[2])
    _assert_cites(_field(embed, 2), passages[1])
    assert "70.2%" in _field(embed, 2)["value"]


@pytest.mark.parametrize(
    ("replies", "reason"),
    [
        pytest.param((YES, Reply.error(500)), r"http_status: HTTP 500", id="http-500"),
        # no marker, and no passage states it: nothing to cite it to
        pytest.param((YES, Reply.text("Composer 2.5 scores 80.2% on SWE-bench Verified.")), r"uncited: ", id="uncited"),
        pytest.param((YES, Reply.text(GENERATED), Reply.text("No")), r"ungrounded: second reading", id="read-again"),
    ],
)
def test_a_failed_generation_falls_back_to_the_extractive_answer(
    bot: BotUnderTest, fresh: FakeOpenAI, replies: tuple[Reply, ...], reason: str
) -> None:
    fresh.script(*replies)
    log_from = len(bot.log())
    embed = _ask(bot, f"fallback-{reason.split(':')[0]}")["embeds"][0]

    # The extractive answer: the article quoted in Chinese, cited, nothing of the failed reply.
    assert re.search(r"(Quoted|Translated) from the Chinese original", embed["description"]), embed["description"]
    assert CHINESE_QUOTE in embed["description"] and "[1]" in embed["description"]
    assert "Composer 2.5 scores" not in embed_text({"embeds": [embed]}), "a refused reply is never shown"
    cited = _field(embed, 1)
    assert SECTION in cited["name"] and "70.2%" in cited["value"], cited

    # The endpoint was asked after the check (a 500 is retried once within the deadline), one log line says why.
    assert 2 <= len(_chat_requests(fresh)) <= 3, [r.path for r in fresh.requests]
    bot.wait_log(rf"LLM answer unavailable \({reason}.*using the extractive answer", timeout=10, since=log_from)
    assert bot.alive
    assert "Traceback" not in bot.log()[log_from:], bot.log_tail()


def test_generation_works_again_after_failures(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    fresh.script(YES, Reply.text(GENERATED), YES)
    embed = _ask(bot, "after-failure")["embeds"][0]
    assert embed["description"] == GENERATED
    assert len(_chat_requests(fresh)) == 3  # the check, the answer and its second reading


def test_a_no_from_the_check_declines_and_nothing_is_written(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    fresh.script(Reply.text("No"))
    embed = _ask(bot, "check-declined")["embeds"][0]
    assert "doesn't say" in embed["description"], embed["description"]
    assert [r.json["max_tokens"] for r in _chat_requests(fresh)] == [1]  # the check alone
    assert bot.alive


def test_no_message_of_the_module_could_ping(bot: BotUnderTest) -> None:
    """Last in the module: every message-bearing request the bot made, whatever the test."""
    assert bot.alive
    assert_never_pings(bot.fake, at_least=5)


def test_a_streamed_answer_is_shown_as_it_is_written(bot: BotUnderTest, fresh: FakeOpenAI) -> None:
    """LLM_STREAM (on by default): the /ask response is edited with the text so far, at most about
    once a second and never after the answer itself; the answer is the same as unstreamed."""
    long = (
        "Composer 2.5 scores 70.2% on SWE-bench Verified, and up to 75.6% [1]. "
        "On SWE-bench Multilingual it scores 73.7%, top of the industry [1]."
    )
    fresh.script(YES, Reply.text(long, chunk_size=8, chunk_delay=0.15))  # about 3 s of deltas
    interaction, _, _ = bot.ask(QUESTION, user=bot.user("stream-watcher"))
    final = bot.answer_edit(interaction)

    assert _chat_requests(fresh)[1].json.get("stream") is True  # after the check
    edits = [r for r in bot.fake.interaction_responses(interaction) if r.method == "PATCH" and r.ok]
    assert edits[-1] is final, "a preview landed after the answer"
    previews = edits[:-1]
    assert len(previews) >= 2, [e.json for e in edits]
    texts = [p.json["embeds"][0]["description"] for p in previews]
    assert all(t.endswith(" ▌") for t in texts), texts
    shown = [t.removesuffix(" ▌") for t in texts]
    assert all(long.startswith(t) for t in shown), shown  # the answer so far, growing
    assert all(len(a) < len(b) for a, b in itertools.pairwise(shown)), shown
    assert previews[0].json["embeds"][0]["footer"]["text"] == "Writing the answer…"
    assert not any(p.json.get("components") for p in previews), "no feedback buttons on a preview"
    # About once a second (Discord rate-limits message edits): the generator hands over at most
    # one partial text a second, so the previews can't outnumber the seconds the stream took
    # (the gaps between the edits themselves shift with the machine's load).
    streaming_for = final.t - previews[0].t
    assert len(previews) <= streaming_for + 1, (len(previews), streaming_for)
    assert all(p.json["allowed_mentions"]["parse"] == [] for p in previews)
    embed = final.json["embeds"][0]
    assert embed["description"] == long and "▌" not in embed["description"]
    assert [f["name"].split(" ", 1)[0] for f in embed["fields"]] == ["[1]"]
