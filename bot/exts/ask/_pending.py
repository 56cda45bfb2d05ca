"""Questions in flight: kept in SQLite (pending_questions) from before the acknowledgement until
the answer is out or the asker is told why not, and where each one's answer goes (the
interaction's token, or the message to reply to), so a killed or restarted bot still answers them."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import discord

from bot.delivery import INTERACTION_LIFE, TOKEN_MARGIN, Destination, InteractionDestination, MessageDestination
from bot.feedback import PendingQuestion

if TYPE_CHECKING:
    from bot.client import ArticleBot

log = logging.getLogger(__name__)

MESSAGE_RESUME_SECONDS = 3600.0  # a question message older than this at a restart isn't answered late


class PendingQuestions:
    """The bot's questions in flight, in its feedback database."""

    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot

    async def remember(self, pending: PendingQuestion) -> None:
        """Kept in SQLite until answered: a killed bot answers it after its restart."""
        try:
            await asyncio.to_thread(self.bot.store.save_pending, pending)
        except Exception:  # the answer still goes out; only a crash now would lose it
            log.exception("could not keep question %s in the database", pending.key)

    async def forget(self, key: str) -> None:
        try:
            await asyncio.to_thread(self.bot.store.drop_pending, key)
        except Exception:
            log.exception("could not drop question %s from the database", key)

    def destination(self, pending: PendingQuestion, channel: discord.abc.Messageable | None = None) -> Destination:
        patience = self.bot.settings.delivery_seconds
        if pending.is_interaction:
            assert pending.application_id is not None and pending.token is not None
            return InteractionDestination.of(
                self.bot,
                application_id=pending.application_id,
                token=pending.token,
                interaction_id=int(pending.key.split(":")[1]),
                user_id=pending.user_id,
                channel_id=pending.channel_id,
                ephemeral=pending.ephemeral,
                created_at=pending.created_at,
                patience=patience,
            )
        assert pending.message_id is not None and pending.channel_id is not None
        return MessageDestination.of(
            channel or self.bot.get_partial_messageable(pending.channel_id, guild_id=pending.guild_id),
            pending.message_id,
            channel_id=pending.channel_id,
            guild_id=pending.guild_id,
            patience=patience,
        )

    async def left(self) -> list[PendingQuestion]:
        """The questions a killed or restarted bot left unanswered (none if they can't be read)."""
        try:
            return await asyncio.to_thread(self.bot.store.pending)
        except Exception:
            log.exception("could not read the questions left in flight")
            return []


def age_if_late(pending: PendingQuestion) -> float | None:
    """The question's age if it is too late to answer it now (its token dead, or the question
    stale), else None."""
    age = time.time() - pending.created_at
    late = age > (INTERACTION_LIFE - TOKEN_MARGIN if pending.is_interaction else MESSAGE_RESUME_SECONDS)
    return age if late else None
