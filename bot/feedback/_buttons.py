"""👍/👎 buttons that keep working after a restart.

Each button is a DynamicItem whose custom id carries the vote and the answer id
(``fb:up:<answer_id>``); the bot registers the class at start, so a click on any answer the bot
ever sent is routed here, and the stored answer completes the feedback row.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, Protocol, cast

import discord

from bot.delivery import NO_MENTIONS, send_retrying
from bot.feedback._store import FeedbackStore, Vote
from bot.translations import language_of_locale
from index import message as phrase


class _Storing(Protocol):
    """What a vote needs of the client (bot.client.ArticleBot): its store. Named so, not imported,
    the feedback package stays below the client that uses it."""

    store: FeedbackStore


log = logging.getLogger(__name__)

ANSWER_ID = re.compile(r"^[0-9a-f]{8,32}$")
_EMOJI: dict[str, str] = {"up": "👍", "down": "👎"}


class FeedbackButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"fb:(?P<vote>up|down):(?P<answer>[0-9a-f]{8,32})"
):
    def __init__(self, vote: Vote, answer_id: str) -> None:
        if not ANSWER_ID.match(answer_id):
            raise ValueError(f"bad answer id {answer_id!r}")
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                emoji=_EMOJI[vote],
                custom_id=f"fb:{vote}:{answer_id}",
            )
        )
        self.vote: Vote = vote
        self.answer_id = answer_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> FeedbackButton:
        return cls(cast(Vote, match["vote"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = cast(_Storing, interaction.client)
        lang = language_of_locale(interaction.locale)
        question, answer = _read_message(interaction.message)
        try:
            replaced = await asyncio.to_thread(
                bot.store.record_vote,
                self.answer_id,
                interaction.user.id,
                self.vote,
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                fallback_question=question,
                fallback_answer=answer,
            )
        except Exception:
            log.exception("could not store feedback for answer %s", self.answer_id)
            text = phrase("feedback.failed", lang)
        else:
            log.info(
                "feedback answer=%s vote=%s replaced=%s guild=%s channel=%s",
                self.answer_id,
                self.vote,
                replaced,
                interaction.guild_id,
                interaction.channel_id,
            )
            text = phrase(f"feedback.thanks.{self.vote}", lang)
        await send_retrying(
            lambda: interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS),
            f"feedback acknowledgement {interaction.id}",
        )


def _read_message(message: discord.Message | None) -> tuple[str, str]:
    """The question (embed title) and answer (description) shown on the clicked message."""
    if message is None or not message.embeds:
        return "", (message.content if message else "")
    embed = message.embeds[0]
    return embed.title or "", embed.description or ""


def feedback_view(answer_id: str) -> discord.ui.View:
    """The two buttons for one answer (timeout None: persistent)."""
    view = discord.ui.View(timeout=None)
    view.add_item(FeedbackButton("up", answer_id))
    view.add_item(FeedbackButton("down", answer_id))
    return view
