"""Retrying a send: backoff until a deadline, Retry-After honoured, 4xx not retried, never raised."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import aiohttp
import discord

from bot.delivery import INTERACTION_LIFE, TOKEN_MARGIN, nonce_for, send_patiently, send_retrying, token_deadline


@dataclass
class Response:  # what discord.HTTPException reads from an aiohttp response
    status: int
    reason: str = "error"
    headers: dict[str, str] = field(default_factory=dict)


def http_error(status: int, headers: dict[str, str] | None = None, code: int = 0) -> discord.HTTPException:
    return discord.HTTPException(Response(status, headers=headers or {}), {"message": "nope", "code": code})  # type: ignore[arg-type]


async def test_a_failed_send_is_retried_until_it_goes_through() -> None:
    calls: list[float] = []

    async def flaky() -> str:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise aiohttp.ClientConnectionError("connection reset")
        if len(calls) < 4:
            raise http_error(500)
        return "sent"

    assert await send_patiently(flaky, "test send", time.monotonic() + 10, delay=0.02) == "sent"
    assert len(calls) == 4
    gaps = [b - a for a, b in itertools.pairwise(calls)]
    assert gaps[1] >= 0.035 and gaps[2] >= 0.075, gaps  # the pause doubles


async def test_it_gives_up_at_the_deadline_without_raising() -> None:
    calls: list[int] = []

    async def broken() -> str:
        calls.append(1)
        raise http_error(500)

    started = time.monotonic()
    assert await send_patiently(broken, "test send", started + 0.3, delay=0.05) is None
    assert 2 <= len(calls) <= 4 and time.monotonic() - started < 0.4


async def test_a_refusal_is_not_retried() -> None:
    calls: list[int] = []

    async def forbidden() -> str:
        calls.append(1)
        raise http_error(403, code=50013)

    assert await send_retrying(forbidden, "test send", delay=0.01) is None
    assert len(calls) == 1


async def test_a_rate_limit_without_via_is_waited_out() -> None:
    """discord.py raises a 429 that lacks Discord's Via header (it takes it for a Cloudflare ban)."""
    calls: list[float] = []

    async def limited() -> str:
        calls.append(time.monotonic())
        if len(calls) == 1:
            raise http_error(429, {"Retry-After": "1", "X-RateLimit-Reset-After": "0.25"})
        return "sent"

    assert await send_patiently(limited, "test send", time.monotonic() + 5, delay=0.01) == "sent"
    assert calls[1] - calls[0] >= 0.24


async def test_a_rate_limit_longer_than_the_deadline_gives_up_at_once() -> None:
    calls: list[int] = []

    async def limited() -> str:
        calls.append(1)
        raise http_error(429, {"Retry-After": "60"})

    started = time.monotonic()
    assert await send_patiently(limited, "test send", started + 1, delay=0.01) is None
    assert calls == [1] and time.monotonic() - started < 0.5


def test_nonces_are_fixed_per_question_and_part() -> None:
    assert nonce_for("message:1", 0) == nonce_for("message:1", 0)
    assert len({nonce_for("message:1", 0), nonce_for("message:1", 1), nonce_for("message:2", 0)}) == 3
    assert 0 < nonce_for("message:1", "failed") < 2**63


def test_an_interaction_is_delivered_to_only_while_its_token_lives() -> None:
    now = time.time()
    assert token_deadline(now, 60) - time.monotonic() > 59  # patience first
    left = token_deadline(now - 600, 3600) - time.monotonic()
    assert abs(left - (INTERACTION_LIFE - 600 - TOKEN_MARGIN)) < 1  # never past the token's life
    assert token_deadline(now - 3600, 60) <= time.monotonic()
