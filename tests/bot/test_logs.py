"""The token never reaches a log line; each question is one structured line."""

from __future__ import annotations

import json
import logging

import pytest

from bot.logs import REDACTED, hash_user, question_line, redact, secrets_of, setup_logging

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_secrets_cover_the_token_and_its_signature() -> None:
    assert secrets_of(TOKEN) == [TOKEN, "abcdefghijklmnopqrstuvwxyz0123456789AB"]
    assert secrets_of(None) == []
    text = f"Authorization: Bot {TOKEN}; sig abcdefghijklmnopqrstuvwxyz0123456789AB"
    assert redact(text, secrets_of(TOKEN)) == f"Authorization: Bot {REDACTED}; sig {REDACTED}"


def test_logging_redacts_messages_arguments_and_tracebacks(capsys: pytest.CaptureFixture[str]) -> None:
    handler = setup_logging(logging.INFO, secrets_of(TOKEN))
    try:
        log = logging.getLogger("discord.client")
        log.info("logging in with %s", TOKEN)
        try:
            raise RuntimeError(f"bad token {TOKEN}")
        except RuntimeError:
            log.exception("login failed")
        logging.getLogger("some.other").warning("token=" + TOKEN)
    finally:
        logging.getLogger().removeHandler(handler)
    err = capsys.readouterr().err
    assert TOKEN not in err
    assert "abcdefghijklmnopqrstuvwxyz0123456789AB" not in err
    assert err.count(REDACTED) == 3  # the message, the exception text, the other logger
    assert "RuntimeError" in err


def test_question_line_is_json_with_a_hashed_user() -> None:
    line = question_line(
        via="slash",
        user_id=123456789,
        guild_id=1,
        channel_id=2,
        latency_ms=23.456,
        abstained=False,
        chunk_ids=["a", "b", "c", "d", "e", "f"],
        index_version="v1",
        confidence=0.75,
        hedged=True,
    )
    data = json.loads(line)
    assert data["user"] == hash_user(123456789) and "123456789" not in line
    assert data["confidence"] == 0.75 and data["hedged"] is True
    assert len(data["user"]) == 16
    assert data["top_chunks"] == ["a", "b", "c", "d", "e"]
    assert data["latency_ms"] == 23.5 and data["abstained"] is False and data["index_version"] == "v1"
    assert data["guild"] == 1 and data["channel"] == 2 and data["via"] == "slash"


async def test_debug_logs_hold_no_interaction_token_and_no_message_text(capsys: pytest.CaptureFixture[str]) -> None:
    """discord.py at DEBUG, over real sockets: it logs webhook URLs (with the interaction token),
    gateway events (with the token and the question) and request bodies (with the answer)."""
    import asyncio

    import discord
    from discord.ext import commands

    from tests.fakediscord import FakeDiscord

    question, answer = "what is my secret question", "the private answer text"
    handler = setup_logging(logging.DEBUG, secrets_of("fake-bot-token"))
    try:
        async with FakeDiscord(heartbeat_interval_ms=250) as fake:
            with fake.patch_discord():
                bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

                @bot.tree.command(name="ask", description="ask")
                async def ask(interaction: discord.Interaction, q: str) -> None:
                    await interaction.response.defer()
                    await interaction.edit_original_response(content=answer)

                await bot.login(fake.token)
                runner = asyncio.create_task(bot.connect())
                await asyncio.wait_for(bot.wait_until_ready(), 10)
                await bot.tree.sync()
                interaction = await fake.dispatch_slash("ask", {"q": question})
                await fake.wait_for_request("PATCH", r"/messages/@original$", status=200)
                await bot.close()
                runner.cancel()
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger().setLevel(logging.WARNING)
    err = capsys.readouterr().err
    assert "WebSocket Event" in err and "has returned" in err  # the DEBUG lines are there
    assert interaction["token"] not in err
    assert question not in err and answer not in err
    assert "fake-bot-token" not in err
