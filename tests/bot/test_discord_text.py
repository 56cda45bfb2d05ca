"""Discord's syntax taken out of questions before the engine sees them (bot/discord_text.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import ArticleBot
from bot.config import BotSettings
from bot.discord_text import without_discord_syntax
from bot.exts.ask._answering import Answerer
from bot.feedback import FeedbackStore
from index import QuestionError


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        ("<@123> 价格是多少？", "价格是多少？"),
        ("<@!1> <@&2> <#3> 价格是多少？", "价格是多少？"),
        ("@everyone @here 价格是多少？", "价格是多少？"),
        ("价格 <:pepe:123456789> 是多少 <a:wave:42>？", "价格 是多少 ？"),
        ("an email@heres.example <@x> <:no id:1>", "an email@heres.example <@x> <:no id:1>"),  # not Discord's
    ],
)
def test_mentions_and_custom_emoji_are_removed(raw: str, plain: str) -> None:
    assert " ".join(without_discord_syntax(raw).split()) == plain


def _answerer(engine, tmp_path: Path) -> Answerer:  # type: ignore[no-untyped-def]
    db = tmp_path / "feedback.sqlite3"
    settings = BotSettings(_env_file=None, index=engine.settings, feedback_db=db)  # type: ignore[call-arg]
    return Answerer(ArticleBot(settings, engine, FeedbackStore(db)))


async def test_a_question_with_a_mention_is_answered_without_it(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result, _ = await _answerer(engine, tmp_path).ask(
        "<@1234567890> Composer 2.5 在 SWE-bench Verified 上的成绩是多少？", None
    )
    assert "70.2%" in result.answer and not result.abstained
    assert "<@" not in result.question


@pytest.mark.parametrize("text", ["<@123>", "<@123> @everyone <:smile:1>"])
async def test_only_discord_syntax_is_an_empty_question(engine, tmp_path: Path, text: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(QuestionError, match="empty"):
        await _answerer(engine, tmp_path).ask(text, None)
