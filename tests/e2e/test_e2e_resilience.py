"""Network trouble, load and bad input through Discord: the bot keeps answering.

RECONNECT and a dropped socket (resumed, nothing lost), 429 and 5xx on delivery, 50 concurrent
/ask, and questions that can't be answered (empty, too long, emoji only, a bare mention, too many
too fast). The session's shared bot; each test uses its own users.
"""

from __future__ import annotations

import re
import time

from tests.e2e.harness import (
    ACK_DEADLINE,
    CHANNEL_MESSAGES,
    EPHEMERAL,
    ORIGINAL,
    BotUnderTest,
    assert_never_pings,
    embed_text,
    gather,
    percentile,
)

VERIFIED_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
VERIFIED_EN = "What is Composer 2.5's score on SWE-bench Verified?"
LOAD = 50
BOT = "shared"  # the module's bot (conftest.py)


def _answered(bot: BotUnderTest, question: str = VERIFIED_EN, user: str = "check") -> None:
    """The bot is alive and answers a normal question."""
    _, _, edit = bot.ask(question, user=bot.user(user))
    assert "70.2%" in embed_text(edit.json)


# -- the gateway ------------------------------------------------------------------------------
def test_reconnect_request_is_resumed(bot: BotUnderTest) -> None:
    identifies, resumes = len(bot.fake.identifies), len(bot.fake.dispatched("RESUMED"))
    assert bot.run(bot.fake.send_reconnect()) == 1

    bot.wait_until(lambda: len(bot.fake.dispatched("RESUMED")) > resumes, what="RESUMED after op 7")
    assert len(bot.fake.identifies) == identifies, "the bot identified again instead of resuming"
    assert bot.fake.resumes[-1]["session_id"] == bot.fake.dispatched("READY")[-1].data["session_id"]
    _answered(bot, user="after-reconnect")


def test_question_sent_while_the_socket_is_down_is_answered_after_resume(bot: BotUnderTest) -> None:
    resumes = len(bot.fake.dispatched("RESUMED"))
    identifies = len(bot.fake.identifies)
    author = bot.user("lost-and-found")

    async def drop_then_ask() -> tuple[int, bool, dict]:
        dropped = await bot.fake.drop_connections()
        connected = bot.fake.connected
        message = await bot.fake.dispatch_message(f"{bot.fake.bot_mention} {VERIFIED_ZH}", author=author)
        return dropped, connected, message

    dropped, connected, question = bot.run(drop_then_ask())
    assert dropped == 1 and not connected  # dispatched into the session's replay buffer

    reply = bot.reply_to(question)
    assert "70.2%" in embed_text(reply.json)
    assert len(bot.fake.dispatched("RESUMED")) > resumes, "the session was not resumed"
    assert len(bot.fake.identifies) == identifies
    replies = [
        r
        for r in bot.fake.requests_to("POST", CHANNEL_MESSAGES)
        if str((r.json.get("message_reference") or {}).get("message_id")) == question["id"]
    ]
    assert len(replies) == 1, "answered more than once"
    _answered(bot, user="after-drop")


# -- REST failures ----------------------------------------------------------------------------
def test_rate_limited_answer_is_delivered_after_the_wait(bot: BotUnderTest) -> None:
    rule = bot.on_loop(lambda: bot.fake.fail_next("PATCH", ORIGINAL, 429, retry_after=0.5))
    interaction, _, edit = bot.ask(VERIFIED_ZH, user=bot.user("rate-limited"))

    assert rule.hits == 1
    edits = [r for r in bot.fake.interaction_responses(interaction) if r.method == "PATCH"]
    assert [r.status for r in edits] == [429, 200]
    assert edits[1].t - edits[0].t >= 0.45, "retried before Retry-After"
    assert "70.2%" in embed_text(edit.json)
    bot.wait_log("rate limited")


def test_server_error_on_the_answer_is_retried_and_logged(bot: BotUnderTest) -> None:
    bot.on_loop(lambda: bot.fake.fail_next("PATCH", ORIGINAL, 500))
    interaction, _, edit = bot.ask(VERIFIED_ZH, user=bot.user("server-error"))

    edits = [r for r in bot.fake.interaction_responses(interaction) if r.method == "PATCH"]
    assert [r.status for r in edits] == [500, 200], "a 500 is retried once (by discord.py)"
    assert "70.2%" in embed_text(edit.json)
    bot.wait_log(r"Discord answered HTTP 500 to PATCH /api/v10/webhooks/\d+/\*\*\*/messages/@original")
    assert interaction["token"] not in bot.log(), "the interaction token was logged"
    _answered(bot, user="after-500")


def test_server_error_discord_py_does_not_retry_is_retried_by_the_bot_and_logged(bot: BotUnderTest) -> None:
    """discord.py retries 500/502/504 itself but raises on a 503; the bot then logs and retries."""
    bot.on_loop(lambda: bot.fake.fail_next("POST", CHANNEL_MESSAGES, 503))
    question = bot.say(f"{bot.fake.bot_mention} {VERIFIED_ZH}", author=bot.user("unavailable"))
    reply = bot.reply_to(question)

    attempts = [
        r
        for r in bot.fake.requests_to("POST", CHANNEL_MESSAGES)
        if str((r.json.get("message_reference") or {}).get("message_id")) == question["id"]
    ]
    assert [r.status for r in attempts] == [503, 200]
    assert "70.2%" in embed_text(reply.json)
    bot.wait_log(rf"reply to message {question['id']} \(part 1 of 1\) failed \(attempt 1\): HTTP 503")
    _answered(bot, user="after-503")


# -- load ----------------------------------------------------------------------------------------
def test_fifty_concurrent_asks_are_all_deferred_in_time_and_answered(bot: BotUnderTest) -> None:
    users = [bot.user(f"load-{i}") for i in range(LOAD)]
    questions = [VERIFIED_ZH if i % 2 else VERIFIED_EN for i in range(LOAD)]
    interactions = bot.run(
        gather(
            *(bot.fake.dispatch_slash("ask", {"question": q}, user=u) for q, u in zip(questions, users, strict=True))
        )
    )

    acks = [bot.callback(i) for i in interactions]
    delays = [bot.ack_delay(i, a) for i, a in zip(interactions, acks, strict=True)]
    assert all(a.callback_type == 5 for a in acks), [a.json for a in acks if a.callback_type != 5]
    assert max(delays) < ACK_DEADLINE, sorted(delays)[-5:]
    edits = [bot.edited_original(i, timeout=120) for i in interactions]
    assert all("70.2%" in embed_text(e.json) for e in edits)
    answered = [e.t - bot.fake.interaction_state(i).dispatched_at for i, e in zip(interactions, edits, strict=True)]
    late = [r for i in interactions for r in bot.fake.interaction_responses(i) if r.status == 404]
    assert not late, "an interaction expired before the bot answered it"
    print(
        f"\n{LOAD} concurrent /ask: deferred p50 {percentile(delays, 50) * 1000:.0f} ms, "
        f"max {max(delays) * 1000:.0f} ms; answered p50 {percentile(answered, 50):.2f} s, "
        f"p95 {percentile(answered, 95):.2f} s, last {max(answered):.2f} s"
    )


# -- bad input --------------------------------------------------------------------------------
def _ephemeral_text(bot: BotUnderTest, question: str, user: str) -> str:
    interaction = bot.slash("ask", {"question": question}, user=bot.user(user))
    response = bot.callback(interaction, 4)
    assert response.payload["flags"] & EPHEMERAL, response.json
    assert response.payload["allowed_mentions"]["parse"] == []
    return response.payload["content"]


def test_blank_question(bot: BotUnderTest) -> None:
    text = _ephemeral_text(bot, "   \n\t ", "blank")
    assert "question is empty" in text and "/ask" in text
    assert "mention" not in text  # advice for /ask, not for a message


def test_five_thousand_characters(bot: BotUnderTest) -> None:
    text = _ephemeral_text(bot, "Composer " * 555 + "?????", "verbose")
    assert "too long" in text and "5000" in text and "1000" in text


def test_only_emoji(bot: BotUnderTest) -> None:
    """Refused privately like every other refusal (it used to be deferred publicly, then edited)."""
    text = _ephemeral_text(bot, "🤔🤔🤔👍", "emoji")
    assert "can't answer" in text and "words" in text


def test_bare_mention(bot: BotUnderTest) -> None:
    question = bot.say(bot.fake.bot_mention, author=bot.user("bare"))
    reply = bot.reply_to(question)
    assert "Put your question after the mention" in reply.json["content"]
    assert reply.json["allowed_mentions"] == {"parse": [], "replied_user": False}


def test_sixth_question_in_a_minute_gets_the_cooldown_message(bot: BotUnderTest) -> None:
    user = bot.user("eager")
    for _ in range(5):
        _, _, edit = bot.ask(VERIFIED_EN, user=user)
        assert "70.2%" in embed_text(edit.json)
    started = time.time()
    text = _ephemeral_text(bot, VERIFIED_EN, "eager")
    match = re.search(r"Try again in (\d+) s \(<t:(\d+):R>\)", text)
    assert match, text
    wait, at = int(match[1]), int(match[2])
    assert 1 <= wait <= 60
    assert started <= at <= time.time() + 61
    assert "5 questions per 60 s" in text
    # Someone else is not held back.
    _answered(bot, user="patient")


def test_bot_survived_everything_and_never_pinged(bot: BotUnderTest) -> None:
    assert bot.alive
    _answered(bot, user="last")
    log = bot.log()
    assert "Traceback" not in log, bot.log_tail()
    assert bot.fake.token not in log
    leaked = [s.id for s in bot.fake.store.interactions.values() if s.token in log]
    assert not leaked, f"interaction tokens of {leaked} are in the log"
    checked = assert_never_pings(bot.fake, at_least=LOAD + 10)
    print(f"\n{checked} message requests checked for allowed_mentions")
