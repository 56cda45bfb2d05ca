"""SQLite: the answers the bot gave, which messages and threads carry them, and 👍/👎 votes.

Answers are stored so that a vote clicked after a restart can still be recorded with its
question, answer and cited chunks, and so that follow-up context survives a restart. One vote
per user per answer: a second click replaces the first (UNIQUE + upsert).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from index import AskResult

Vote = Literal["up", "down"]
SCHEMA_VERSION = 3  # 2: pending_questions; 3: answers.confidence

_SCHEMA = """
CREATE TABLE IF NOT EXISTS answers (
    answer_id     TEXT PRIMARY KEY,
    question      TEXT NOT NULL,
    context       TEXT,
    answer        TEXT NOT NULL,
    abstained     INTEGER NOT NULL DEFAULT 0,
    language      TEXT NOT NULL DEFAULT '',
    citations     TEXT NOT NULL DEFAULT '[]',
    index_version TEXT NOT NULL DEFAULT '',
    user_id       INTEGER,
    guild_id      INTEGER,
    channel_id    INTEGER,
    created_at    TEXT NOT NULL,
    confidence    REAL
);
CREATE TABLE IF NOT EXISTS answer_messages (
    message_id INTEGER PRIMARY KEY,
    answer_id  TEXT NOT NULL REFERENCES answers(answer_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS answer_threads (
    thread_id  INTEGER PRIMARY KEY,
    answer_id  TEXT NOT NULL REFERENCES answers(answer_id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS feedback (
    id         INTEGER PRIMARY KEY,
    answer_id  TEXT NOT NULL,
    user_id    INTEGER NOT NULL,
    vote       TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    question   TEXT NOT NULL DEFAULT '',
    answer     TEXT NOT NULL DEFAULT '',
    chunk_ids  TEXT NOT NULL DEFAULT '[]',
    guild_id   INTEGER,
    channel_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (answer_id, user_id)
);
CREATE TABLE IF NOT EXISTS pending_questions (
    key            TEXT PRIMARY KEY,   -- interaction:<id> or message:<id>
    via            TEXT NOT NULL,
    question       TEXT NOT NULL,
    context        TEXT,
    language       TEXT NOT NULL,
    user_id        INTEGER NOT NULL,
    guild_id       INTEGER,
    channel_id     INTEGER,
    message_id     INTEGER,            -- the question's message, to reply to
    application_id INTEGER,            -- with token: the interaction's webhook
    token          TEXT,               -- valid 15 minutes; the row goes once the answer is out
    ephemeral      INTEGER NOT NULL DEFAULT 0,
    can_embed      INTEGER NOT NULL DEFAULT 1,
    follow_up      INTEGER NOT NULL DEFAULT 0,
    thread_id      INTEGER,
    created_at     REAL NOT NULL       -- unix time the question was asked
);
"""

_UPSERT_VOTE = """
INSERT INTO feedback (answer_id, user_id, vote, question, answer, chunk_ids, guild_id, channel_id,
                      created_at, updated_at)
VALUES (:answer_id, :user_id, :vote, :question, :answer, :chunk_ids, :guild_id, :channel_id, :at, :at)
ON CONFLICT (answer_id, user_id) DO UPDATE SET
    vote = excluded.vote,
    guild_id = excluded.guild_id,
    channel_id = excluded.channel_id,
    updated_at = excluded.updated_at
"""


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass
class AnswerRecord:
    answer_id: str
    question: str
    answer: str
    context: str | None = None
    abstained: bool = False
    language: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    index_version: str = ""
    user_id: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    created_at: str = field(default_factory=utc_now)
    confidence: float | None = None  # AskResult.confidence: how sure the answer model was

    @property
    def chunk_ids(self) -> list[str]:
        return [str(c["chunk_id"]) for c in self.citations]

    @classmethod
    def from_result(
        cls,
        answer_id: str,
        result: AskResult,
        *,
        context: str | None,
        user_id: int | None,
        guild_id: int | None,
        channel_id: int | None,
    ) -> AnswerRecord:
        citations = [c.model_dump(exclude={"quote"}) for c in result.citations]
        return cls(
            answer_id=answer_id,
            question=result.question,
            answer=result.answer,
            context=context,
            abstained=result.abstained,
            language=result.language,
            citations=citations,
            index_version=result.index_version,
            user_id=user_id,
            guild_id=guild_id,
            channel_id=channel_id,
            confidence=result.confidence,
        )


@dataclass
class PendingQuestion:
    """A question accepted but not yet answered: enough to answer it after a restart, while the
    interaction token lives (or the message can still be replied to)."""

    key: str
    via: str
    question: str
    language: str
    user_id: int
    created_at: float
    context: str | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    message_id: int | None = None
    application_id: int | None = None
    token: str | None = None
    ephemeral: bool = False
    can_embed: bool = True
    follow_up: bool = False
    thread_id: int | None = None

    @property
    def is_interaction(self) -> bool:
        return self.token is not None and self.application_id is not None


_PENDING_COLUMNS = [f for f in PendingQuestion.__dataclass_fields__]
_BOOL_COLUMNS = ("ephemeral", "can_embed", "follow_up")


@dataclass
class FeedbackRow:
    answer_id: str
    user_id: int
    vote: Vote
    question: str
    answer: str
    chunk_ids: list[str]
    guild_id: int | None
    channel_id: int | None
    created_at: str
    updated_at: str
    confidence: float | None = None  # the answer's, as stored with it (None if it isn't)

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


# columns added to a table after its first release: a database made before gets them, empty
_ADDED_COLUMNS = {"answers": {"confidence": "REAL"}}


def _add_missing_columns(db: sqlite3.Connection) -> None:
    for table, columns in _ADDED_COLUMNS.items():
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns.items():
            if name not in present:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")


class FeedbackStore:
    """Thread-safe (one connection behind a lock): the bot calls it from worker threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = sqlite3.connect(
            str(path), check_same_thread=False, isolation_level=None, timeout=10
        )
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA foreign_keys = ON")
            if str(path) != ":memory:":
                self._db.execute("PRAGMA journal_mode = WAL")  # readers (an export) don't block the bot
            self._db.executescript(_SCHEMA)
            _add_missing_columns(self._db)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the feedback store is closed")
        return self._db

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def closed(self) -> bool:
        return self._db is None

    # -- answers ----------------------------------------------------------------------------
    def save_answer(self, record: AnswerRecord) -> None:
        with self._lock:
            self.db.execute(
                """INSERT INTO answers (answer_id, question, context, answer, abstained, language,
                       citations, index_version, user_id, guild_id, channel_id, created_at, confidence)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (answer_id) DO NOTHING""",
                (
                    record.answer_id,
                    record.question,
                    record.context,
                    record.answer,
                    int(record.abstained),
                    record.language,
                    json.dumps(record.citations, ensure_ascii=False),
                    record.index_version,
                    record.user_id,
                    record.guild_id,
                    record.channel_id,
                    record.created_at,
                    record.confidence,
                ),
            )

    def link_messages(self, answer_id: str, message_ids: list[int]) -> None:
        with self._lock:
            self.db.executemany(
                "INSERT OR REPLACE INTO answer_messages (message_id, answer_id) VALUES (?, ?)",
                [(m, answer_id) for m in message_ids],
            )

    def link_thread(self, thread_id: int, answer_id: str) -> None:
        """The thread's latest answer: the next message in the thread follows up on it."""
        with self._lock:
            self.db.execute(
                "INSERT OR REPLACE INTO answer_threads (thread_id, answer_id) VALUES (?, ?)",
                (thread_id, answer_id),
            )

    def answer(self, answer_id: str) -> AnswerRecord | None:
        return self._one("SELECT * FROM answers WHERE answer_id = ?", (answer_id,))

    def answer_for_message(self, message_id: int) -> AnswerRecord | None:
        return self._one(
            "SELECT a.* FROM answers a JOIN answer_messages m USING (answer_id) WHERE m.message_id = ?",
            (message_id,),
        )

    def answer_for_thread(self, thread_id: int) -> AnswerRecord | None:
        return self._one(
            "SELECT a.* FROM answers a JOIN answer_threads t USING (answer_id) WHERE t.thread_id = ?",
            (thread_id,),
        )

    def _one(self, sql: str, params: tuple[Any, ...]) -> AnswerRecord | None:
        with self._lock:
            row = self.db.execute(sql, params).fetchone()
        if row is None:
            return None
        data = dict(row)
        data["abstained"] = bool(data["abstained"])
        data["citations"] = json.loads(data["citations"] or "[]")
        return AnswerRecord(**data)

    # -- questions in flight ----------------------------------------------------------------
    def save_pending(self, pending: PendingQuestion) -> None:
        values = [getattr(pending, c) for c in _PENDING_COLUMNS]
        values = [int(v) if isinstance(v, bool) else v for v in values]
        with self._lock:
            self.db.execute(
                f"INSERT OR REPLACE INTO pending_questions ({', '.join(_PENDING_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_PENDING_COLUMNS))})",
                values,
            )

    def drop_pending(self, key: str) -> None:
        with self._lock:
            self.db.execute("DELETE FROM pending_questions WHERE key = ?", (key,))

    def pending(self) -> list[PendingQuestion]:
        """The questions in flight, oldest first."""
        with self._lock:
            rows = self.db.execute("SELECT * FROM pending_questions ORDER BY created_at, key").fetchall()
        result = []
        for row in rows:
            data = dict(row)
            for column in _BOOL_COLUMNS:
                data[column] = bool(data[column])
            result.append(PendingQuestion(**data))
        return result

    # -- votes ----------------------------------------------------------------------------
    def record_vote(
        self,
        answer_id: str,
        user_id: int,
        vote: Vote,
        *,
        guild_id: int | None,
        channel_id: int | None,
        at: str | None = None,
        fallback_question: str = "",
        fallback_answer: str = "",
    ) -> bool:
        """Store a click; returns True if it replaced the user's earlier vote on this answer.

        Question, answer and chunk ids come from the stored answer; the fallbacks (read off the
        message) are used only if the answer isn't stored (a database lost or replaced)."""
        if vote not in ("up", "down"):
            raise ValueError(f"vote must be 'up' or 'down', not {vote!r}")
        record = self.answer(answer_id)
        params = {
            "answer_id": answer_id,
            "user_id": user_id,
            "vote": vote,
            "question": record.question if record else fallback_question,
            "answer": record.answer if record else fallback_answer,
            "chunk_ids": json.dumps(record.chunk_ids if record else []),
            "guild_id": guild_id,
            "channel_id": channel_id,
            "at": at or utc_now(),
        }
        with self._lock:
            existed = self.db.execute(
                "SELECT 1 FROM feedback WHERE answer_id = ? AND user_id = ?", (answer_id, user_id)
            ).fetchone()
            self.db.execute(_UPSERT_VOTE, params)
        return existed is not None

    def feedback(self) -> list[FeedbackRow]:
        with self._lock:
            rows = self.db.execute(
                "SELECT f.answer_id, f.user_id, f.vote, f.question, f.answer, f.chunk_ids, f.guild_id, "
                "f.channel_id, f.created_at, f.updated_at, a.confidence FROM feedback f "
                "LEFT JOIN answers a USING (answer_id) ORDER BY f.updated_at, f.id"
            ).fetchall()
        result = []
        for row in rows:
            data = dict(row)
            data["chunk_ids"] = json.loads(data["chunk_ids"] or "[]")
            result.append(FeedbackRow(**data))
        return result
