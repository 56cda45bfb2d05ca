"""Answers and votes in SQLite; a second click replaces the first; the export."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.feedback import (
    AnswerRecord,
    ExportError,
    FeedbackButton,
    FeedbackStore,
    export_format,
    feedback_view,
    write_feedback,
)
from index.models import AskResult, Citation

ANSWER_ID = "0123456789abcdef"


def result() -> AskResult:
    citations = [
        Citation(
            n=1,
            chunk_id="chunk-a",
            doc_id="composer-2-5",
            section="三、性能",
            paragraphs=[23],
            start=1,
            end=9,
            quote="SWE-bench Multilingual：Composer 2.5 73.7%",
        ),
        Citation(
            n=2,
            chunk_id="chunk-b",
            doc_id="composer-2-5",
            section="三、性能",
            paragraphs=[24],
            start=10,
            end=20,
            quote="价格上……",
        ),
    ]
    return AskResult(
        question="Multilingual 呢？",
        answer="根据文章：…73.7% [1][2]",
        abstained=False,
        language="zh",
        citations=citations,
        index_version="v1",
        confidence=0.8125,
    )


def stored(tmp_path: Path) -> FeedbackStore:
    store = FeedbackStore(tmp_path / "var" / "feedback.sqlite3")
    record = AnswerRecord.from_result(
        ANSWER_ID,
        result(),
        context="Composer 2.5 在 SWE-bench Verified 上的成绩是多少？",
        user_id=5,
        guild_id=6,
        channel_id=7,
    )
    store.save_answer(record)
    store.link_messages(ANSWER_ID, [111, 112])
    store.link_thread(113, ANSWER_ID)
    return store


def test_answers_are_stored_with_their_messages_and_thread(tmp_path: Path) -> None:
    store = stored(tmp_path)
    record = store.answer_for_message(112)
    assert record is not None and record.answer_id == ANSWER_ID
    assert record.question == "Multilingual 呢？" and record.context.startswith("Composer 2.5")
    assert record.chunk_ids == ["chunk-a", "chunk-b"]
    assert store.answer_for_thread(113) == record
    assert store.answer_for_message(999) is None


def test_a_second_click_replaces_the_first(tmp_path: Path) -> None:
    store = stored(tmp_path)
    assert store.record_vote(ANSWER_ID, 42, "up", guild_id=6, channel_id=7, at="2026-01-01T00:00:00+00:00") is False
    assert store.record_vote(ANSWER_ID, 42, "down", guild_id=6, channel_id=7, at="2026-01-01T00:01:00+00:00") is True
    assert store.record_vote(ANSWER_ID, 43, "up", guild_id=6, channel_id=7) is False
    rows = store.feedback()
    assert [(r.user_id, r.vote) for r in rows] == [(42, "down"), (43, "up")]
    first = rows[0]
    assert first.created_at == "2026-01-01T00:00:00+00:00" and first.updated_at == "2026-01-01T00:01:00+00:00"
    assert first.question == "Multilingual 呢？" and first.answer == result().answer
    assert first.chunk_ids == ["chunk-a", "chunk-b"] and first.guild_id == 6 and first.channel_id == 7
    with pytest.raises(ValueError):
        store.record_vote(ANSWER_ID, 42, "meh", guild_id=None, channel_id=None)  # type: ignore[arg-type]


def test_a_click_after_a_restart_is_completed_from_the_stored_answer(tmp_path: Path) -> None:
    stored(tmp_path).close()
    reopened = FeedbackStore(tmp_path / "var" / "feedback.sqlite3")
    reopened.record_vote(ANSWER_ID, 42, "up", guild_id=None, channel_id=99)
    row = reopened.feedback()[0]
    assert row.question == "Multilingual 呢？" and row.chunk_ids == ["chunk-a", "chunk-b"] and row.guild_id is None
    # an answer the database doesn't know: what the message showed is kept
    reopened.record_vote(
        "fedcba9876543210",
        42,
        "down",
        guild_id=1,
        channel_id=2,
        fallback_question="shown question",
        fallback_answer="shown answer",
    )
    unknown = reopened.feedback()[1]
    assert (unknown.question, unknown.answer, unknown.chunk_ids) == ("shown question", "shown answer", [])


def test_export_csv_and_jsonl(tmp_path: Path) -> None:
    store = stored(tmp_path)
    store.record_vote(ANSWER_ID, 42, "up", guild_id=6, channel_id=7)
    store.record_vote(ANSWER_ID, 43, "down", guild_id=6, channel_id=7)
    rows = store.feedback()

    assert write_feedback(rows, tmp_path / "out" / "fb.csv") == 2
    with (tmp_path / "out" / "fb.csv").open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [(r["user_id"], r["vote"]) for r in table] == [("42", "up"), ("43", "down")]
    assert table[0]["question"] == "Multilingual 呢？" and table[0]["chunk_ids"] == "chunk-a chunk-b"
    assert table[0]["answer"] == result().answer and table[0]["confidence"] == "0.8125"

    assert write_feedback(rows, tmp_path / "fb.jsonl") == 2
    lines = [json.loads(line) for line in (tmp_path / "fb.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[1]["vote"] == "down" and lines[1]["chunk_ids"] == ["chunk-a", "chunk-b"]
    assert lines[1]["confidence"] == 0.8125
    assert set(lines[0]) >= {
        "answer_id",
        "question",
        "answer",
        "chunk_ids",
        "user_id",
        "guild_id",
        "channel_id",
        "created_at",
        "updated_at",
        "vote",
    }

    with pytest.raises(ExportError):
        export_format(tmp_path / "fb.xlsx")


def test_export_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    store = stored(tmp_path)
    store.record_vote(ANSWER_ID, 42, "up", guild_id=6, channel_id=7)
    store.close()
    monkeypatch.setenv("BOT_FEEDBACK_DB", str(tmp_path / "var" / "feedback.sqlite3"))
    assert main(["feedback", "--export", str(tmp_path / "votes.jsonl")]) == 0
    assert "wrote 1 feedback row" in capsys.readouterr().out
    assert json.loads((tmp_path / "votes.jsonl").read_text(encoding="utf-8"))["user_id"] == 42
    assert main(["feedback", "--export", str(tmp_path / "votes.txt")]) == 2
    assert ".csv or .jsonl" in capsys.readouterr().err
    assert main(["feedback", "--export", "x.csv", "--db", str(tmp_path / "missing.sqlite3")]) == 1


async def test_buttons_are_persistent_and_carry_the_answer_id() -> None:
    view = feedback_view(ANSWER_ID)
    assert view.timeout is None and view.is_persistent()
    ids = [item.custom_id for item in view.children]  # type: ignore[attr-defined]
    assert ids == [f"fb:up:{ANSWER_ID}", f"fb:down:{ANSWER_ID}"]
    template: re.Pattern[str] = FeedbackButton.__discord_ui_compiled_template__  # type: ignore[attr-defined]
    match = template.fullmatch(ids[1])
    assert match is not None and match["vote"] == "down" and match["answer"] == ANSWER_ID
    assert all(len(i) <= 100 for i in ids)
    with pytest.raises(ValueError):
        FeedbackButton("up", "not-hex!")


def test_a_database_from_before_the_confidence_column_gains_it(tmp_path: Path) -> None:
    """The answers table of schema 2 had no confidence: opened by this code, its rows stay and the
    column is added, empty for them."""
    path = tmp_path / "feedback.sqlite3"
    with sqlite3.connect(path) as old:
        old.executescript(
            """CREATE TABLE answers (answer_id TEXT PRIMARY KEY, question TEXT NOT NULL, context TEXT,
                   answer TEXT NOT NULL, abstained INTEGER NOT NULL DEFAULT 0, language TEXT NOT NULL DEFAULT '',
                   citations TEXT NOT NULL DEFAULT '[]', index_version TEXT NOT NULL DEFAULT '',
                   user_id INTEGER, guild_id INTEGER, channel_id INTEGER, created_at TEXT NOT NULL);
               INSERT INTO answers (answer_id, question, answer, created_at) VALUES ('old', 'q', 'a', 't');
               PRAGMA user_version = 2;"""
        )
    old.close()
    store = FeedbackStore(path)
    kept = store.answer("old")
    assert kept is not None and (kept.question, kept.confidence) == ("q", None)
    store.record_vote("old", 42, "down", guild_id=None, channel_id=None)
    assert store.feedback()[0].confidence is None
    record = AnswerRecord.from_result(ANSWER_ID, result(), context=None, user_id=5, guild_id=6, channel_id=7)
    store.save_answer(record)
    store.record_vote(ANSWER_ID, 42, "up", guild_id=6, channel_id=7)
    assert [row.confidence for row in store.feedback()] == [None, 0.8125]
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == 3
    store.close()
