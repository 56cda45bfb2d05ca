"""Per-user rate limit: at most ``count`` questions in any ``seconds``-long window (sliding)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable


class SlidingWindowCooldown:
    """Pure bookkeeping; the clock is injectable so tests don't sleep."""

    def __init__(self, count: int, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        if count < 1 or seconds <= 0:
            raise ValueError("count must be >= 1 and seconds > 0")
        self.count = count
        self.seconds = seconds
        self._clock = clock
        self._hits: dict[Hashable, deque[float]] = {}
        self._warned: dict[Hashable, float] = {}  # key → when the wait it was told about ends
        self._calls = 0

    def _window(self, key: Hashable, now: float) -> deque[float]:
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = deque()
        while hits and hits[0] <= now - self.seconds:
            hits.popleft()
        return hits

    def retry_after(self, key: Hashable) -> float:
        """Seconds until ``key`` may ask again without recording anything; 0 if it may now."""
        now = self._clock()
        hits = self._window(key, now)
        if len(hits) < self.count:
            return 0.0
        return max(0.0, hits[0] + self.seconds - now)

    def hit(self, key: Hashable) -> float:
        """Record a question if allowed and return 0; otherwise record nothing and return the
        seconds to wait (a refused attempt doesn't extend the wait)."""
        now = self._clock()
        hits = self._window(key, now)
        if len(hits) >= self.count:
            return max(0.0, hits[0] + self.seconds - now)
        hits.append(now)
        self._calls += 1
        if self._calls % 1000 == 0:
            self._forget_idle(now)
        return 0.0

    def should_warn(self, key: Hashable) -> bool:
        """Whether to tell a refused ``key`` about the wait: once per wait, not once per refusal
        (a public reply per message would let a spammer make the bot spam)."""
        now = self._clock()
        if now < self._warned.get(key, float("-inf")):
            return False
        self._warned[key] = now + self.retry_after(key)
        return True

    def _forget_idle(self, now: float) -> None:
        """Drop users whose window is empty, so memory tracks active users only."""
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - self.seconds]:
            del self._hits[key]
        for key in [k for k, until in self._warned.items() if until <= now]:
            del self._warned[key]

    def __len__(self) -> int:
        return len(self._hits)
