"""Admin: /reindex, and hot reload of index builds made from the command line."""

from __future__ import annotations

import logging

from bot.client import ArticleBot
from bot.exts.admin._cog import AdminCog

log = logging.getLogger(__name__)


async def setup(bot: ArticleBot) -> None:
    if not bot.settings.admin_user_ids:
        log.info("no BOT_ADMIN_USER_IDS: /reindex is for members with Manage Server only")
    await bot.add_cog(AdminCog(bot))
