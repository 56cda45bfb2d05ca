"""/article: the article's title, author, date and outline. /help: how to use the bot."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting, messages
from bot.client import ArticleBot
from bot.delivery import NO_MENTIONS, acknowledge, respond_text, send_retrying
from bot.translations import _, language_of_locale
from index import StoredIndex, overview
from index import message as phrase

log = logging.getLogger(__name__)


def article_spec(stored: StoredIndex, lang: str) -> formatting.EmbedSpec:
    """Title, byline and the outline (each section's most central sentence, with its citation)."""
    outline, citations, _ = overview(stored, lang)
    documents = stored.manifest.documents
    meta = documents[0].meta if documents else None
    sources = "\n".join(formatting.citation_name(c) for c in citations)
    fields = [(phrase("article.sources", lang), sources)] if sources else []
    if meta is None:
        return formatting.EmbedSpec(description=outline or "—", fields=fields, color=formatting.INFO_COLOR)
    labels = (phrase("article.author", lang), phrase("article.date", lang))
    byline = " · ".join(
        f"{label}: {value}" for label, value in zip(labels, (meta.author, meta.date), strict=True) if value
    )
    return formatting.EmbedSpec(
        title=meta.title,
        description=f"{byline}\n\n{outline}" if byline else outline,
        fields=fields,
        footer=f"index {stored.version}",
        color=formatting.INFO_COLOR,
    )


def help_spec(bot: ArticleBot) -> formatting.EmbedSpec:
    mention = bot.user.mention if bot.user else "@bot"
    zh, en = messages.help_text(bot.settings, mention)
    title = ""
    documents = bot.engine.snapshot.stored.manifest.documents if bot.engine.loaded else []
    if documents:
        title = documents[0].meta.title
    named = phrase("help.title", "zh", title=title) if title else phrase("help.bot", "zh")
    return formatting.EmbedSpec(
        title=f"{named} · {phrase('help.bot', 'en')}",
        description=f"{zh}\n\n{en}",
        color=formatting.INFO_COLOR,
    )


class InfoCog(commands.Cog):
    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot

    @app_commands.command(name=_("command.article"), description=_("command.article.description"))
    async def article(self, interaction: discord.Interaction[Any]) -> None:
        lang = language_of_locale(interaction.locale)
        if not await acknowledge(interaction, ephemeral=False):
            return
        try:
            stored = self.bot.engine.snapshot.stored
            spec = await asyncio.to_thread(article_spec, stored, lang)
        except Exception:
            log.exception("/article failed")
            await respond_text(interaction, phrase("went_wrong", lang))
            return
        await self._send(interaction, spec)

    @app_commands.command(name=_("command.help"), description=_("command.help.description"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        messages_ = formatting.pack_embeds(help_spec(self.bot))
        await send_retrying(
            lambda: interaction.response.send_message(
                embeds=messages_[0], ephemeral=True, allowed_mentions=NO_MENTIONS
            ),
            "/help response",
        )

    async def _send(self, interaction: discord.Interaction[Any], spec: formatting.EmbedSpec) -> None:
        for i, embeds in enumerate(formatting.pack_embeds(spec)):
            if i == 0:
                await send_retrying(
                    lambda e=embeds: interaction.edit_original_response(embeds=e, allowed_mentions=NO_MENTIONS),
                    "/article response",
                )
            else:
                await send_retrying(
                    lambda e=embeds: interaction.followup.send(embeds=e, allowed_mentions=NO_MENTIONS),
                    "/article followup",
                )
