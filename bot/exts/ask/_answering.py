"""The path every question takes once accepted: engine (off the event loop), rendering, the
record of the answer (SQLite + follow-up memory), and the one structured log line."""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot import formatting
from bot.conversation import Turn, context_from_store, stored_context
from bot.delivery import Part
from bot.discord_text import without_discord_syntax
from bot.feedback import AnswerRecord
from bot.lifecycle import run_in_daemon_thread
from bot.logs import QUESTIONS_LOGGER, question_line
from index import AskResult, Conversation, PartialHandler

if TYPE_CHECKING:
    from bot.client import ArticleBot

log = logging.getLogger(__name__)
questions_log = logging.getLogger(QUESTIONS_LOGGER)


def new_answer_id() -> str:
    """Random, so ids don't collide across restarts or bot instances sharing a database."""
    return secrets.token_hex(8)


def render(result: AskResult, can_embed: bool = True) -> list[Part]:
    if can_embed:
        return list(formatting.answer_embeds(result))
    return list(formatting.answer_text(result))


@dataclass(frozen=True)
class Asker:
    user_id: int
    guild_id: int | None
    channel_id: int | None
    via: str


class Answerer:
    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot

    async def ask(
        self, text: str, previous: Turn | None, on_partial: PartialHandler | None = None
    ) -> tuple[AskResult, Conversation]:
        """The engine's answer (CPU-bound: run in a worker thread) and the context it was given;
        ``on_partial`` sees a generated answer as it streams (called in that thread).
        Raises QuestionError for unusable questions."""
        context = previous.follow_up_context() if previous else ()
        return await self.ask_in_context(text, context, on_partial), context

    async def ask_in_context(
        self, text: str, context: Conversation, on_partial: PartialHandler | None = None
    ) -> AskResult:
        """The engine's answer given the follow-up ``context``; waits for one of the bot's answer
        slots first, so a burst is computed a few at a time."""
        question = without_discord_syntax(text)  # the engine knows no Discord syntax
        async with self.bot.answer_slots:
            # A daemon thread rather than the default executor, whose threads the interpreter joins
            # at exit: a question stuck behind a rebuild must not hold up a shutdown.
            return await run_in_daemon_thread(
                lambda: self.bot.engine.ask(question, None, context, on_partial=on_partial), "ask"
            )

    # -- follow-up memory -----------------------------------------------------------------
    async def turn_for_message(
        self, message_id: int, resolved: discord.Message | discord.DeletedReferencedMessage | None
    ) -> Turn | None:
        """The turn an answer message belongs to, if ``message_id`` is one of the bot's answers."""
        me = self.bot.user
        if isinstance(resolved, discord.Message) and me is not None and resolved.author.id != me.id:
            return None  # a reply to someone else's message: not a follow-up
        turn = self.bot.conversations.get(message_id)
        if turn is not None:
            return turn
        record = await asyncio.to_thread(self.bot.store.answer_for_message, message_id)
        if record is not None:
            turn = Turn(record.question, context_from_store(record.context), record.answer_id)
            self.bot.conversations.remember([message_id], turn)
            return turn
        if isinstance(resolved, discord.Message) and resolved.embeds and resolved.embeds[0].title:
            # An answer from before the database was reset: its title is the question.
            return Turn(resolved.embeds[0].title)
        return None

    async def turn_for_thread(self, thread: discord.Thread) -> Turn | None:
        """The latest turn of a thread the bot opened for an answer."""
        me = self.bot.user
        if me is None or thread.owner_id != me.id:
            return None
        turn = self.bot.thread_turns.get(thread.id)
        if turn is not None:
            return turn
        record = await asyncio.to_thread(self.bot.store.answer_for_thread, thread.id)
        if record is None:
            return None
        turn = Turn(record.question, context_from_store(record.context), record.answer_id)
        self.bot.thread_turns.remember([thread.id], turn)
        return turn

    async def record(
        self,
        answer_id: str,
        result: AskResult,
        context: Conversation,
        asker: Asker,
        message_ids: list[int],
        thread_id: int | None = None,
    ) -> None:
        """Remember the answer for follow-ups and feedback; a storage failure is logged, not fatal."""
        turn = Turn(result.question, context, answer_id)
        self.bot.conversations.remember(message_ids, turn)
        if thread_id is not None:
            self.bot.thread_turns.remember([thread_id], turn)
        record = AnswerRecord.from_result(
            answer_id,
            result,
            context=stored_context(context),
            user_id=asker.user_id,
            guild_id=asker.guild_id,
            channel_id=asker.channel_id,
        )

        def save() -> None:
            store = self.bot.store
            store.save_answer(record)
            store.link_messages(answer_id, message_ids)
            if thread_id is not None:
                store.link_thread(thread_id, answer_id)

        try:
            await asyncio.to_thread(save)
        except Exception:
            log.exception("could not store answer %s", answer_id)

    # -- logging --------------------------------------------------------------------------
    def log_question(
        self,
        asker: Asker,
        latency_ms: float,
        *,
        result: AskResult | None = None,
        outcome: str = "answered",
        follow_up: bool = False,
        answer_id: str | None = None,
    ) -> None:
        questions_log.info(
            question_line(
                via=asker.via,
                user_id=asker.user_id,
                guild_id=asker.guild_id,
                channel_id=asker.channel_id,
                latency_ms=latency_ms,
                abstained=result.abstained if result else None,
                confidence=result.confidence if result else None,
                hedged=bool(result and result.hedged),
                chunk_ids=[p.chunk_id for p in result.passages] if result else [],
                index_version=result.index_version if result else self._version(),
                follow_up=follow_up,
                outcome=outcome,
                answer_id=answer_id,
            )
        )

    def _version(self) -> str:
        return self.bot.engine.snapshot.version if self.bot.engine.loaded else ""
