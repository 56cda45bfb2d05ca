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
    )
    data = json.loads(line)
    assert data["user"] == hash_user(123456789) and "123456789" not in line
    assert len(data["user"]) == 16
    assert data["top_chunks"] == ["a", "b", "c", "d", "e"]
    assert data["latency_ms"] == 23.5 and data["abstained"] is False and data["index_version"] == "v1"
    assert data["guild"] == 1 and data["channel"] == 2 and data["via"] == "slash"
