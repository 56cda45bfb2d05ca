"""Answering questions: /ask, mentions, replies (follow-ups), answer threads, DMs, auto channels."""

from __future__ import annotations

import logging

from bot.client import ArticleBot
from bot.exts.ask._cog import AskCog

log = logging.getLogger(__name__)


async def setup(bot: ArticleBot) -> None:
    settings = bot.settings
    if not bot.intents.message_content:
        if settings.auto_answer_channel_ids:
            log.warning(
                "auto-answer channels are configured but the message content intent is off "
                "(BOT_MESSAGE_CONTENT=false): their messages arrive without text and are ignored"
            )
        if settings.threads:
            log.warning(
                "answer threads are on but the message content intent is off: "
                "follow-ups in threads work only when they mention the bot"
            )
    await bot.add_cog(AskCog(bot))
