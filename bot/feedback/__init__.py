"""Answers and 👍/👎 feedback: the SQLite store, the persistent buttons, the export."""

from bot.feedback._buttons import FeedbackButton, feedback_view
from bot.feedback._export import ExportError, export_format, write_feedback
from bot.feedback._store import AnswerRecord, FeedbackRow, FeedbackStore, PendingQuestion, Vote

__all__ = [
    "AnswerRecord",
    "ExportError",
    "FeedbackButton",
    "FeedbackRow",
    "FeedbackStore",
    "PendingQuestion",
    "Vote",
    "export_format",
    "feedback_view",
    "write_feedback",
]
