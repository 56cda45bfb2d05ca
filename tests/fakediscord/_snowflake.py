"""Snowflake ids and ISO timestamps shaped like Discord's."""

from __future__ import annotations

import datetime
import threading
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeGenerator:
    """Produces strictly increasing snowflakes based on the wall clock.

    discord.py derives ``created_at`` from ids and sorts by them, so ids must carry a real
    timestamp and must never go backwards, even for many ids inside one millisecond.
    """

    def __init__(self, worker_id: int = 1, process_id: int = 0) -> None:
        self._prefix = ((worker_id & 0x1F) << 17) | ((process_id & 0x1F) << 12)
        self._last = 0
        # The standalone server may be driven from another thread through the control API.
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            candidate = (ms << 22) | self._prefix
            if candidate <= self._last:
                candidate = self._last + 1
            self._last = candidate
            return candidate


def snowflake_datetime(snowflake: int) -> datetime.datetime:
    ms = (int(snowflake) >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.timezone.utc)


def iso_timestamp(when: datetime.datetime | None = None) -> str:
    """Discord's timestamp format: ISO 8601 with microseconds and an explicit UTC offset."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    return when.isoformat(timespec="microseconds")
