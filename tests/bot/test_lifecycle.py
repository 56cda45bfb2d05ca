"""Shutdown: in-flight answers get a grace period, then are abandoned with a log line."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from bot.lifecycle import InFlight, abandoned_workers, run_in_daemon_thread


async def test_drain_waits_for_quick_answers_and_abandons_slow_ones(caplog: pytest.LogCaptureFixture) -> None:
    inflight = InFlight()
    finished: list[str] = []

    async def answer(name: str, seconds: float) -> None:
        async with inflight.track():
            await asyncio.sleep(seconds)
            finished.append(name)

    quick = asyncio.create_task(answer("quick", 0.05))
    slow = asyncio.create_task(answer("slow", 30))
    await asyncio.sleep(0)
    assert len(inflight) == 2
    with caplog.at_level(logging.INFO, logger="bot.lifecycle"):
        abandoned = await inflight.drain(0.5)
    assert abandoned == 1 and inflight.closing
    assert finished == ["quick"]
    await asyncio.sleep(0)
    assert slow.cancelled() and quick.done()
    assert "abandoned 1 answer(s) in flight at shutdown" in caplog.text
    assert await InFlight().drain(0.1) == 0


async def test_daemon_thread_results_and_errors() -> None:
    assert await run_in_daemon_thread(lambda: threading.current_thread().daemon, "t") is True
    with pytest.raises(ZeroDivisionError):
        await run_in_daemon_thread(lambda: 1 / 0, "t")
    release = threading.Event()
    waiting = asyncio.create_task(run_in_daemon_thread(release.wait, "stuck"))
    await asyncio.sleep(0.05)
    assert [t.name for t in abandoned_workers()] == ["stuck"]
    release.set()
    await waiting
    assert abandoned_workers() == []
