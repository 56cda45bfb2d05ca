"""End-to-end harness: a FakeDiscord server on 127.0.0.1 and the real bot (`python -m bot`) as a
subprocess talking to it over real sockets.

* ``e2e_index`` — the index of corpus/, built once per session in a temporary folder (seeded with
  the current version of var/index when there is one, so only what changed is embedded).
* ``spawn_bot(...)`` — a fresh FakeDiscord (its own event loop in a thread), a private copy of the
  corpus and the index, and the bot process; ``BotLauncher`` starts the bots a session needs at
  once (they load torch and the model in parallel) and hands them out when they are up.
* ``BotUnderTest`` — waits (event-driven through the fake's notifier, never blind sleeps) and
  shortcuts to dispatch slash commands, messages and button clicks. The bot's log is attached to
  the report of any failing test that used it.

Only 127.0.0.1 is ever contacted: the fake binds it, and the bot gets its URLs from ``fake.env()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.fakediscord import FakeDiscord, RecordedRequest

T = TypeVar("T")
JSON = dict[str, Any]

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"

START_TIMEOUT = 180.0  # a cold start loads torch and the model: slow on a loaded machine
ANSWER_TIMEOUT = 60.0
ACK_DEADLINE = 3.0  # Discord's window for the first interaction callback
COMMANDS_PUT = r"/applications/\d+/(guilds/\d+/)?commands$"
ORIGINAL = r"/webhooks/\d+/[^/]+/messages/@original$"
CHANNEL_MESSAGES = r"/channels/\d+/messages$"
EPHEMERAL = 1 << 6
# Environment a developer may have set that would change what the bot does.
_FOREIGN_ENV = ("BOT_", "DISCORD_", "ARTICLE_", "LLM_")


# -- the bot ------------------------------------------------------------------------------
def bot_environment(fake: FakeDiscord, root: Path, corpus: Path, index_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_FOREIGN_ENV)}
    env.update(fake.env())
    env.update(
        HF_HUB_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
        PYTHONUNBUFFERED="1",
        ARTICLE_CONFIG=str(root / "no-article.toml"),  # never exists: default index settings
        ARTICLE_INDEX_DIR=str(index_dir),
        ARTICLE_CORPUS_DIR=str(corpus),
        BOT_FEEDBACK_DB=str(root / "feedback.sqlite3"),
        BOT_GUILD_IDS=str(fake.guild_id),
        BOT_POLL_SECONDS="0.5",
        BOT_COOLDOWN_COUNT="5",
        BOT_LOG_LEVEL="INFO",
    )
    env.update(extra)
    return env


@dataclass
class BotUnderTest:
    fake: FakeDiscord
    proc: subprocess.Popen[bytes]
    root: Path
    log_path: Path
    corpus_dir: Path
    index_dir: Path
    db_path: Path
    started_at: float
    ready_after: float = 0.0
    _users: dict[str, JSON] = field(default_factory=dict)
    command: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    cwd: Path | None = None
    starts: int = 1

    # -- the process and its log ----------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 150) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    # -- waiting ------------------------------------------------------------------------
    def run(self, coro: Awaitable[T], timeout: float = 30.0) -> T:
        """Run a coroutine on the fake's event loop (its own thread) and return its result."""
        return self.fake.call(_as_coroutine(coro), timeout=timeout)

    def on_loop(self, func: Callable[[], T]) -> T:
        """Call ``func`` on the fake's loop: its state is not meant to be mutated from two threads."""

        async def call() -> T:
            return func()

        return self.run(call())

    def wait_until(self, predicate: Callable[[], T], timeout: float = ANSWER_TIMEOUT, what: str = "") -> T:
        """Until ``predicate()`` is truthy; re-checked on every request and gateway frame the fake
        records (and at least every 0.25 s, for log lines). Fails early if the bot exits."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            if not self.alive:
                pytest.fail(
                    f"the bot exited (code {self.proc.returncode}) while waiting for {what or predicate}\n"
                    f"--- bot log ---\n{self.log_tail()}"
                )
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                recent = "; ".join(r.summary() for r in self.fake.requests[-8:])
                pytest.fail(f"timed out after {timeout:.0f} s waiting for {what or predicate}; last requests: {recent}")
            with contextlib.suppress(TimeoutError):
                return self.run(self.fake.wait_for(predicate, timeout=min(0.25, remaining)), timeout=remaining + 30)

    def wait_request(
        self,
        method: str,
        path: str,
        *,
        predicate: Callable[[RecordedRequest], bool] | None = None,
        since: int = 0,
        ok: bool | None = True,
        timeout: float = ANSWER_TIMEOUT,
    ) -> RecordedRequest:
        pattern = re.compile(path)

        def find() -> RecordedRequest | None:
            for record in self.fake.requests[since:]:
                if record.method != method or not pattern.search(record.path):
                    continue
                if ok is not None and record.ok != ok:
                    continue
                if predicate is None or predicate(record):
                    return record
            return None

        return self.wait_until(find, timeout, f"{method} {path}")

    def wait_log(self, pattern: str, timeout: float = ANSWER_TIMEOUT, since: int = 0) -> re.Match[str]:
        regex = re.compile(pattern)
        return self.wait_until(lambda: regex.search(self.log(), since), timeout, f"log line /{pattern}/")

    # -- the world ------------------------------------------------------------------------
    def user(self, name: str, permissions: int | None = None) -> JSON:
        """A guild member of that name (created once)."""
        if name not in self._users:
            self._users[name] = self.on_loop(lambda: self.fake.add_user(name, permissions=permissions))
        return self._users[name]

    # -- slash commands -------------------------------------------------------------------
    def slash(self, name: str, options: JSON | None = None, **kwargs: Any) -> JSON:
        return self.run(self.fake.dispatch_slash(name, options or {}, **kwargs))

    def callback(
        self, interaction: JSON, callback_type: int | None = None, timeout: float = ANSWER_TIMEOUT
    ) -> RecordedRequest:
        """The interaction's accepted callback (Discord refuses one later than 3 s: see the fake)."""
        iid = int(interaction["id"])

        def find() -> RecordedRequest | None:
            for record in self.fake.requests:
                if record.interaction_id == iid and record.callback_type is not None and record.ok:
                    return record
            return None

        record = self.wait_until(find, timeout, f"the callback of interaction {iid}")
        if callback_type is not None:
            assert record.callback_type == callback_type, (
                f"callback type {record.callback_type}, expected {callback_type}: {record.json}"
            )
        return record

    def ack_delay(self, interaction: JSON, record: RecordedRequest) -> float:
        state = self.fake.interaction_state(interaction)
        return record.t - state.dispatched_at

    def edited_original(self, interaction: JSON, timeout: float = ANSWER_TIMEOUT) -> RecordedRequest:
        """The first successful edit of the interaction's original response."""
        iid = int(interaction["id"])
        return self.wait_request("PATCH", ORIGINAL, predicate=lambda r: r.interaction_id == iid, timeout=timeout)

    def answer_edit(self, interaction: JSON, timeout: float = ANSWER_TIMEOUT) -> RecordedRequest:
        """The edit that delivers the answer: the one with the feedback buttons (a streamed
        answer is edited a few times before, without them)."""
        iid = int(interaction["id"])
        return self.wait_request(
            "PATCH",
            ORIGINAL,
            predicate=lambda r: r.interaction_id == iid and bool((r.json or {}).get("components")),
            timeout=timeout,
        )

    def ask(
        self, question: str, user: JSON | str | None = None, **kwargs: Any
    ) -> tuple[JSON, RecordedRequest, RecordedRequest]:
        """``/ask question``: (interaction, the deferral, the answer edit). Asserts the 3 s deferral."""
        interaction = self.slash("ask", {"question": question}, user=user, **kwargs)
        ack = self.callback(interaction, 5)
        assert self.ack_delay(interaction, ack) < ACK_DEADLINE
        return interaction, ack, self.edited_original(interaction)

    # -- messages -------------------------------------------------------------------------
    def say(self, content: str, **kwargs: Any) -> JSON:
        return self.run(self.fake.dispatch_message(content, **kwargs))

    def reply_to(self, message: JSON, timeout: float = ANSWER_TIMEOUT) -> RecordedRequest:
        """The bot's first successful message that references ``message``."""
        mid = str(message["id"])
        return self.wait_request(
            "POST",
            CHANNEL_MESSAGES,
            predicate=lambda r: str(((r.json or {}).get("message_reference") or {}).get("message_id")) == mid,
            timeout=timeout,
        )

    # -- the feedback database ------------------------------------------------------------
    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Read the bot's SQLite database from this process (read-only)."""
        db = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=10)
        db.row_factory = sqlite3.Row
        try:
            return db.execute(sql, params).fetchall()
        finally:
            db.close()

    def wait_rows(self, sql: str, params: tuple[Any, ...] = (), timeout: float = ANSWER_TIMEOUT) -> list[sqlite3.Row]:
        """Until the query returns rows (the bot stores an answer just after sending it)."""
        return self.wait_until(lambda: self.query(sql, params), timeout, f"rows for {sql!r} {params}")

    def wait_answer_stored(self, answer_id: str) -> sqlite3.Row:
        return self.wait_rows("SELECT * FROM answers WHERE answer_id = ?", (answer_id,))[0]

    # -- starting and stopping ----------------------------------------------------------
    def wait_ready(self) -> None:
        """Commands synced, the gateway's READY, and discord.py's on_ready (the guilds loaded)."""
        self.wait_request("PUT", COMMANDS_PUT, timeout=START_TIMEOUT)
        self.wait_until(lambda: self.fake.dispatched("READY"), START_TIMEOUT, "READY")
        self.wait_log(r"ready as ", START_TIMEOUT)
        self.ready_after = time.monotonic() - self.started_at

    def kill(self) -> int:
        """SIGKILL: no shutdown code runs, as when the machine or the OOM killer stops it."""
        self.proc.send_signal(signal.SIGKILL)
        return self.proc.wait(30)

    def restart(self) -> None:
        """Start the bot process again against the same fake, database and index (log appended).
        Returns at once; ``wait_ready_again()`` waits for it."""
        assert not self.alive, "stop the bot first"
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                self.command, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )
        self.starts += 1
        self.started_at = time.monotonic()

    def wait_ready_again(self) -> None:
        """The restarted process is up: its own "ready as" line."""
        self.wait_until(
            lambda: self.log().count("ready as ") >= self.starts, START_TIMEOUT, f"start number {self.starts}"
        )
        self.ready_after = time.monotonic() - self.started_at

    def terminate(self, timeout: float = 30.0) -> int:
        if self.alive:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def stop(self) -> int:
        """SIGTERM the bot (if still running) and stop its fake server; the exit code."""
        try:
            return self.terminate()
        finally:
            self.fake.stop_in_thread()


async def _as_coroutine(awaitable: Awaitable[T]) -> T:
    return await awaitable


async def gather(*awaitables: Awaitable[Any]) -> list[Any]:
    return list(await asyncio.gather(*awaitables))


def spawn_bot(index_source: Path, root: Path, env: dict[str, str] | None = None) -> BotUnderTest:
    """A fresh FakeDiscord and ``python -m bot`` against it, with its own corpus and index copies.
    Returns at once: ``wait_ready()`` waits for the bot to be up."""
    root.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord(heartbeat_interval_ms=5_000)
    corpus = root / "corpus"
    index_dir = root / "index"
    shutil.copytree(CORPUS, corpus)
    shutil.copytree(index_source, index_dir)
    cwd = root / "cwd"  # empty: no .env, and no folder named like a package (index/, bot/) to shadow ours
    cwd.mkdir()
    fake.start_in_thread()
    log_path = root / "bot.log"
    command = [sys.executable, "-m", "bot"]
    environment = bot_environment(
        fake, root, corpus, index_dir, **{k: v.format(channel_id=fake.channel_id) for k, v in (env or {}).items()}
    )
    try:
        with log_path.open("wb") as log:
            proc = subprocess.Popen(
                command, cwd=cwd, env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
            )
    except BaseException:
        fake.stop_in_thread()
        raise
    return BotUnderTest(
        fake,
        proc,
        root,
        log_path,
        corpus,
        index_dir,
        root / "feedback.sqlite3",
        time.monotonic(),
        command=command,
        env=environment,
        cwd=cwd,
    )


# Settings of the bots that don't run with the defaults, by name (a module's ``BOT``);
# "{channel_id}" stands for the fake guild's first text channel.
BOT_SETTINGS: dict[str, dict[str, str]] = {
    "threads": {"BOT_THREADS": "true"},
    "reindex": {"BOT_ADMIN_CHANNEL_ID": "{channel_id}"},
    # A cold burst first, then faults: DEBUG (no token or text may reach even that log), and 30 s of
    # patience so that giving up can be seen (interactions are retried up to 14.5 minutes by
    # default); at last a SIGKILL and a restart (test_e2e_restart.py).
    "faults": {"BOT_LOG_LEVEL": "DEBUG", "BOT_DELIVERY_SECONDS": "30", "BOT_COOLDOWN_COUNT": "3"},
}


class BotLauncher:
    """The bots of a session, by name. ``spawn`` starts one without waiting (so several start in
    parallel, e.g. while another module's tests run); ``get`` waits until it is up, and starts a
    new one if it was stopped (the shutdown test stops one on purpose)."""

    def __init__(self, index_source: Path, tmp: Path) -> None:
        self.index_source = index_source
        self.tmp = tmp
        self.bots: dict[str, BotUnderTest] = {}
        self.stopped: list[BotUnderTest] = []
        self._count = 0

    def spawn(self, name: str) -> BotUnderTest:
        self._count += 1
        bot = spawn_bot(self.index_source, self.tmp / f"bot-{name}-{self._count}", BOT_SETTINGS.get(name))
        self.bots[name] = bot
        return bot

    def get(self, name: str) -> BotUnderTest:
        bot = self.bots.get(name)
        if bot is None or bot.proc.returncode is not None:
            if bot is not None:
                self.stopped.append(bot)
            bot = self.spawn(name)
        if not bot.ready_after:
            bot.wait_ready()
        return bot

    def stop_all(self) -> None:
        for bot in [*self.bots.values(), *self.stopped]:
            code = bot.stop()
            if code not in (0, None):
                print(f"--- bot {bot.root.name} exited with {code}; log ---\n{bot.log_tail()}", file=sys.stderr)


# -- assertions shared by the modules ------------------------------------------------------
MESSAGE_KEYS = ("content", "embeds", "components", "attachments")


def carries_message(record: RecordedRequest) -> bool:
    """A request that creates or edits a message (so could ping someone)."""
    payload = record.payload
    return isinstance(payload, dict) and any(key in payload for key in MESSAGE_KEYS)


def assert_never_pings(fake: FakeDiscord, at_least: int = 1) -> int:
    """Every message the bot sent or edited suppresses pings: ``allowed_mentions`` with
    ``parse: []``, no users or roles allowed, no reply ping; and nothing it posted mentions anyone."""
    checked = 0
    for record in list(fake.requests):
        if record.method not in ("POST", "PATCH") or not carries_message(record):
            continue
        allowed = record.payload.get("allowed_mentions")
        where = f"{record.method} {record.route}: {record.payload}"
        assert isinstance(allowed, dict), f"no allowed_mentions in {where}"
        assert allowed.get("parse") == [], where
        assert not allowed.get("users") and not allowed.get("roles"), where
        assert not allowed.get("replied_user"), where
        checked += 1
    assert checked >= at_least, f"only {checked} message requests recorded"
    for message in fake.bot_messages():
        assert not message["mention_everyone"], message
        assert message["mentions"] == [] and message["mention_roles"] == [], message
    return checked


def embed_text(payload: JSON) -> str:
    """Everything a reader sees in a message: content, embed titles, descriptions, fields, footers."""
    parts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for item in embed.get("fields") or []:
            parts += [item.get("name") or "", item.get("value") or ""]
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(parts)


def custom_ids(payload: JSON) -> list[str]:
    return [
        c["custom_id"]
        for row in payload.get("components") or []
        for c in row.get("components") or []
        if "custom_id" in c
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)
