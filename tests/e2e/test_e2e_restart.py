"""A SIGKILL with questions in flight, and a restart that answers them. The faults module's bot
(after its tests: it is killed and restarted here)."""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

import pytest

from tests.e2e.harness import BotUnderTest, embed_text

BOT = "faults"  # the module's bot (conftest.py)
JSON = dict[str, Any]
VERIFIED_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"
VERIFIED_EN = "What is Composer 2.5's score on SWE-bench Verified?"
pytestmark = pytest.mark.slow


def _answers(bot: BotUnderTest, interaction: JSON) -> list[Any]:
    return [
        r
        for r in bot.fake.interaction_responses(interaction)
        if r.method == "PATCH" and r.ok and (r.json or {}).get("components")
    ]


def test_questions_in_flight_at_a_sigkill_are_answered_after_the_restart(bot: BotUnderTest) -> None:
    fake = bot.fake
    original = lambda i: rf"/webhooks/\d+/{re.escape(i['token'])}/messages/@original$"  # noqa: E731
    # Four answers stuck in delivery (Discord failing their edits), one mention reply that Discord
    # stores but answers 502 to, and three questions with nothing in their way.
    stuck = [
        bot.run(
            fake.dispatch_slash(
                "ask",
                {"question": VERIFIED_EN},
                user=bot.user(f"stuck-{n}"),
                prepare=lambda i: fake.fail_next("PATCH", original(i), 500, times=10**6),
            )
        )
        for n in range(4)
    ]
    channel_id = int(bot.run(fake.add_channel("killed-reply"))["id"])
    bot.on_loop(lambda: fake.fail_next("POST", rf"/channels/{channel_id}/messages$", 502, times=10**6, after=True))
    mention = bot.say(f"{fake.bot_mention} {VERIFIED_ZH}", author=bot.user("stuck-mention"), channel_id=channel_id)
    for interaction in stuck:
        bot.wait_until(
            lambda i=interaction: any(r.status == 500 for r in fake.interaction_responses(i)), 60, "a failed edit"
        )
    bot.wait_until(lambda: fake.bot_messages(channel_id), 60, "the reply stored")
    plain = [bot.slash("ask", {"question": VERIFIED_ZH}, user=bot.user(f"plain-{n}")) for n in range(3)]
    for interaction in plain:
        bot.callback(interaction, 5)
    in_flight = bot.query("SELECT key FROM pending_questions")
    assert len(in_flight) >= 5, [r["key"] for r in in_flight]

    assert bot.kill() == -9
    bot.on_loop(fake.clear_faults)
    # And one left by an older run, whose token has died since: not answered, but said.
    late_user = int(bot.user("too-late")["id"])
    db = sqlite3.connect(bot.db_path)
    with db:
        db.execute(
            "INSERT INTO pending_questions (key, via, question, language, user_id, guild_id, channel_id, "
            "application_id, token, created_at) VALUES (?, 'slash', ?, 'en', ?, ?, ?, ?, ?, ?)",
            (
                "interaction:1",
                VERIFIED_EN,
                late_user,
                fake.guild_id,
                fake.channel_id,
                fake.application_id,
                "a-token-dead-for-an-hour",
                time.time() - 3600,
            ),
        )
    db.close()
    bot.restart()
    bot.wait_ready_again()
    bot.wait_log(r"answering \d+ question\(s\) left in flight by the previous run")

    for interaction in [*stuck, *plain]:
        bot.wait_until(lambda i=interaction: _answers(bot, i), 120, f"the answer to {interaction['id']}")
    for interaction in stuck:
        answers = _answers(bot, interaction)
        assert len(answers) == 1 and "70.2%" in embed_text(answers[0].json)
    for interaction in plain:  # answered before the kill, or after the restart: one message either way
        state = fake.interaction_state(interaction)
        assert not state.followup_ids
        assert "70.2%" in embed_text(fake.message(state.original_message_id))
    replies = [
        m
        for m in fake.bot_messages(channel_id)
        if (m.get("message_reference") or {}).get("message_id") == mention["id"]
    ]
    assert len(replies) == 1, "the reply stored before the kill was posted again"
    assert "70.2%" in embed_text(replies[0])
    said = bot.wait_until(
        lambda: [m for m in fake.bot_messages(fake.channel_id) if "restarted before it could answer" in m["content"]],
        30,
        "the lost question said in the channel",
    )
    assert len(said) == 1 and said[0]["content"].startswith(f"<@{late_user}>") and not said[0]["mentions"]
    bot.wait_until(lambda: not bot.query("SELECT key FROM pending_questions"), 30, "no question left in flight")
    assert "Traceback" not in bot.log(), bot.log_tail()
