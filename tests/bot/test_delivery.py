"""A failed send is retried once and then given up on, never raised."""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
import discord

from bot.delivery import send_retrying


@dataclass
class Response:  # what discord.HTTPException reads from an aiohttp response
    status: int
    reason: str = "error"


def http_error(status: int) -> discord.HTTPException:
    return discord.HTTPException(Response(status), {"message": "nope", "code": 0})  # type: ignore[arg-type]


async def test_a_failed_send_is_retried_once() -> None:
    calls: list[int] = []

    async def flaky() -> str:
        calls.append(1)
        if len(calls) == 1:
            raise aiohttp.ClientConnectionError("connection reset")
        return "sent"

    assert await send_retrying(flaky, "test send", delay=0) == "sent"
    assert len(calls) == 2


async def test_two_failures_give_up_without_raising() -> None:
    calls: list[int] = []

    async def broken() -> str:
        calls.append(1)
        raise http_error(500)

    assert await send_retrying(broken, "test send", delay=0) is None
    assert len(calls) == 2


async def test_rate_limits_are_left_to_discord_py() -> None:
    calls: list[int] = []

    async def limited() -> str:
        calls.append(1)
        raise http_error(429)

    assert await send_retrying(limited, "test send", delay=0) is None
    assert len(calls) == 1
