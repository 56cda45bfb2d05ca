"""Shutdown bookkeeping: answers in flight, and work that must not block the process's exit."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class InFlight:
    """Tracks the tasks answering questions, so shutdown can let them finish (within a grace
    period) and abandon the rest with a log line."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[object]] = set()
        self.closing = False

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._tasks.discard(task)

    def __len__(self) -> int:
        return sum(1 for t in self._tasks if not t.done())

    async def drain(self, timeout: float) -> int:
        """Stop accepting, wait up to ``timeout`` s for the tracked tasks, cancel what is left;
        returns how many were abandoned."""
        self.closing = True
        me = asyncio.current_task()
        pending = {t for t in self._tasks if not t.done() and t is not me}
        if not pending:
            return 0
        log.info("waiting up to %.1f s for %d answer(s) in flight", timeout, len(pending))
        _, left = await asyncio.wait(pending, timeout=timeout) if timeout > 0 else (set(), pending)
        for task in left:
            task.cancel()
        if left:
            log.warning("abandoned %d answer(s) in flight at shutdown", len(left))
        return len(left)


async def run_in_daemon_thread(func: Callable[[], T], name: str) -> T:
    """Run blocking ``func`` in a daemon thread. Unlike the default executor (whose threads the
    interpreter joins at exit), a long index build here doesn't hold up a shutdown; the build
    writes atomically, so abandoning it is safe."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(outcome: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(outcome)  # type: ignore[arg-type]

    def work() -> None:
        me = threading.current_thread()
        _workers.add(me)
        outcome: T | None = None
        error: BaseException | None = None
        try:
            outcome = func()
        except BaseException as exc:  # handed to the caller
            error = exc
        finally:
            # Off the list before the caller hears back: a finished worker is never "abandoned".
            _workers.discard(me)
        with contextlib.suppress(RuntimeError):  # the loop may be gone at shutdown
            loop.call_soon_threadsafe(settle, outcome, error)

    thread = threading.Thread(target=work, name=name, daemon=True)
    thread.start()
    return await future


_workers: set[threading.Thread] = set()


def abandoned_workers() -> list[threading.Thread]:
    """Daemon workers still running after their caller gave up (e.g. a rebuild at shutdown)."""
    return [t for t in list(_workers) if t.is_alive()]
