"""/article and /help."""

from __future__ import annotations

from bot.client import ArticleBot
from bot.exts.info._cog import InfoCog


async def setup(bot: ArticleBot) -> None:
    await bot.add_cog(InfoCog(bot))
