"""One bot against one fake Discord, for bench/bot.py: FakeDiscord (tests/fakediscord) in a thread
of this process, ``python -m bot`` as a subprocess pointed at it, and the measurements taken on
them (start-up, memory, /ask dispatched and answered).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
COMMANDS_PUT = re.compile(r"/applications/\d+/(guilds/\d+/)?commands$")
ORIGINAL = re.compile(r"/webhooks/\d+/[^/]+/messages/@original$")
START_TIMEOUT = 300.0


class BotRun:
    """FakeDiscord in a thread of this process and ``python -m bot`` as a subprocess."""

    def __init__(self, corpus: Path, index_source: Path, workdir: Path) -> None:
        from tests.fakediscord import FakeDiscord

        self.workdir = workdir
        (workdir / "cwd").mkdir(parents=True)  # empty: no .env, nothing shadowing our packages
        self.index_dir = workdir / "index"
        shutil.copytree(index_source, self.index_dir)
        self.fake = FakeDiscord(heartbeat_interval_ms=5_000).start_in_thread()
        self.log_path = workdir / "bot.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "DISCORD_", "ARTICLE_", "LLM_"))}
        env.update(self.fake.env())
        env.update(
            HF_HUB_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
            PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
            ARTICLE_CONFIG=str(workdir / "no-article.toml"),
            ARTICLE_INDEX_DIR=str(self.index_dir),
            ARTICLE_CORPUS_DIR=str(corpus),
            BOT_FEEDBACK_DB=str(workdir / "feedback.sqlite3"),
            BOT_GUILD_IDS=str(self.fake.guild_id),
            BOT_COOLDOWN_COUNT="1000",  # one user per ask anyway; never the limit being measured
        )
        with self.log_path.open("wb") as handle:
            self.started = time.monotonic()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bot"],
                cwd=workdir / "cwd",
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=handle,
                stderr=subprocess.STDOUT,
            )

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Until ``predicate()`` is truthy: re-checked on every request or gateway frame, at least
        every 0.1 s; raises if the bot exits or the time is up."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            if self.proc.poll() is not None:
                raise RuntimeError(f"the bot exited ({self.proc.returncode}) waiting for {what}:\n{self.log()[-3000:]}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no {what} within {timeout:.0f} s:\n{self.log()[-3000:]}")
            with contextlib.suppress(TimeoutError):
                return self.fake.call(self.fake.wait_for(predicate, timeout=min(0.1, remaining)), remaining + 30)

    def wait_started(self) -> dict[str, float]:
        """Seconds from spawn to: commands synced, READY, on_ready."""
        synced = self.wait(
            lambda: next(
                (r for r in self.fake.requests if r.method == "PUT" and COMMANDS_PUT.search(r.path) and r.ok), None
            ),
            START_TIMEOUT,
            "command sync",
        )
        ready = self.wait(lambda: self.fake.dispatched("READY"), START_TIMEOUT, "READY")[0]
        self.wait(lambda: "ready as " in self.log(), START_TIMEOUT, "on_ready")
        on_ready = time.monotonic()
        times = {
            "commands_synced": synced.t - self.started,
            "gateway_ready": ready.t - self.started,
            "on_ready": on_ready - self.started,
        }
        times["cold_start"] = max(times["commands_synced"], times["gateway_ready"])
        return times

    def memory_mib(self) -> dict[str, float]:
        fields = {}
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = round(int(value.split()[0]) / 1024, 1)
            elif key == "Threads":
                fields[key] = int(value)
        return {
            "rss": fields.get("VmRSS", 0.0),
            "peak_rss": fields.get("VmHWM", 0.0),
            "threads": fields.get("Threads", 0),
        }

    def burst(self, questions: Sequence[str], tag: str, timeout: float) -> dict[str, Any]:
        """Dispatch one /ask per question at once, each from a new user; wait for every answer."""
        fake = self.fake

        async def users_and_dispatch() -> list[dict[str, Any]]:
            users = [fake.add_user(f"{tag}-{i}") for i in range(len(questions))]
            return list(
                await asyncio.gather(
                    *(
                        fake.dispatch_slash("ask", {"question": q}, user=u)
                        for q, u in zip(questions, users, strict=True)
                    )
                )
            )

        interactions = fake.call(users_and_dispatch(), timeout=60)
        ids = {int(i["id"]) for i in interactions}

        def outcomes() -> dict[int, Any] | None:
            acks: dict[int, Any] = {}
            edits: dict[int, Any] = {}
            deliveries: dict[int, int] = {}  # answer edits (with the feedback buttons) per interaction
            for record in fake.requests:
                iid = record.interaction_id
                if iid not in ids:
                    continue
                if record.callback_type is not None and iid not in acks:
                    acks[iid] = record
                elif record.method == "PATCH" and ORIGINAL.search(record.path) and record.ok and iid not in edits:
                    edits[iid] = record
                if record.method == "PATCH" and record.ok and (record.json or {}).get("components"):
                    deliveries[iid] = deliveries.get(iid, 0) + 1
            done = all(i in edits or (i in acks and not acks[i].ok) for i in ids)
            return {"acks": acks, "edits": edits, "deliveries": deliveries} if done else None

        result = self.wait(outcomes, timeout, f"answers to {len(ids)} concurrent /ask")
        dispatched = {int(i["id"]): fake.interaction_state(i).dispatched_at for i in interactions}
        acks, edits = result["acks"], result["edits"]
        ack_s = [acks[i].t - dispatched[i] for i in ids if i in acks and acks[i].ok]
        answer_s = [edits[i].t - dispatched[i] for i in ids if i in edits]
        span = max(e.t for e in edits.values()) - min(dispatched.values()) if edits else float("nan")
        return {
            "asked": len(ids),
            "answered": len(answer_s),
            "acked_in_time": sum(1 for i in ids if i in acks and acks[i].ok),
            "ack_s": ack_s,
            "answer_s": answer_s,
            "span_s": span,
            "delivered_twice": sum(1 for n in result["deliveries"].values() if n > 1),
        }

    def stop(self) -> tuple[int | None, float]:
        """SIGTERM; (exit code, seconds to exit)."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        elapsed = time.monotonic() - started
        self.fake.stop_in_thread()
        return self.proc.returncode, elapsed


@contextlib.contextmanager
def bot_run(corpus: Path, index_dir: Path, workdir: Path) -> Iterator[BotRun]:
    run = BotRun(corpus, index_dir, workdir)
    try:
        yield run
    finally:
        run.stop()
