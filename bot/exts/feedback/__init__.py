"""The 👍/👎 buttons: registered at start so clicks on answers sent before a restart still work."""

from __future__ import annotations

import logging

from bot.client import ArticleBot
from bot.feedback import FeedbackButton

log = logging.getLogger(__name__)


async def setup(bot: ArticleBot) -> None:
    if bot.store.closed:
        raise RuntimeError("the feedback store is closed")
    bot.add_dynamic_items(FeedbackButton)
    log.debug("feedback buttons registered; database %s", bot.store.path)
