"""`python -m bot feedback --export FILE`: the votes as CSV or JSON Lines, chosen by the extension."""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path

from bot.feedback._store import FeedbackRow

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
COLUMNS = [
    "answer_id",
    "vote",
    "user_id",
    "guild_id",
    "channel_id",
    "question",
    "answer",
    "chunk_ids",
    "confidence",
    "created_at",
    "updated_at",
]


# OWASP's CSV-injection rule: a spreadsheet runs a cell beginning with one of these as a formula
# (=HYPERLINK(...) in a question would be a live link in votes.csv). Such a cell gets a leading
# apostrophe, which the spreadsheet shows as text. JSON Lines is data for programs: kept raw.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralised(value: object) -> object:
    """A CSV cell that no spreadsheet will evaluate."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class ExportError(ValueError):
    """A bad export target; the message is one line."""


def export_format(path: Path) -> str:
    try:
        return FORMATS[path.suffix.lower()]
    except KeyError:
        raise ExportError(f"can't tell the format of {path.name!r}: use a .csv or .jsonl file name") from None


def write_feedback(rows: list[FeedbackRow], path: Path) -> int:
    """Write the rows (atomically: a temporary file renamed over ``path``); returns the count."""
    kind = export_format(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp")
    with temporary.open("w", encoding="utf-8", newline="") as handle:
        if kind == "csv":
            writer = csv.DictWriter(handle, fieldnames=COLUMNS)
            writer.writeheader()
            for row in rows:
                data = row.as_dict()
                data["chunk_ids"] = " ".join(row.chunk_ids)
                writer.writerow({k: neutralised(data[k]) for k in COLUMNS})
        else:
            for row in rows:
                data = row.as_dict()
                handle.write(json.dumps({k: data[k] for k in COLUMNS}, ensure_ascii=False) + "\n")
    os.replace(temporary, path)
    return len(rows)
