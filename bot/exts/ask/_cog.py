"""/ask, and questions asked in messages (mentions, replies, answer threads, DMs, auto channels)."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting
from bot.client import ArticleBot
from bot.conversation import context_from_store, stored_context
from bot.delivery import (
    Destination,
    Part,
    acknowledge,
    deliver,
    reply_text,
    respond_text,
)
from bot.discord_text import without_discord_syntax
from bot.exts.ask._answering import Answerer, Asker, new_answer_id, render
from bot.exts.ask._gate import Refusal, Verdict, check_question, refusal_text
from bot.exts.ask._pending import PendingQuestions, age_if_late
from bot.exts.ask._preview import Preview
from bot.exts.ask._triggers import Trigger, classify
from bot.feedback import PendingQuestion, feedback_view
from bot.translations import _, language_of_locale
from index import AskResult, Conversation, QuestionError, asked_language, validate_question
from index import message as phrase

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
ANSWERABLE_TYPES = (discord.MessageType.default, discord.MessageType.reply)


def language_for(text: str, locale: discord.Locale | None = None) -> str:
    """The language of the bot's own words: the question's, else the user's client's."""
    if text.strip():
        return "zh" if asked_language(text) == "zh" else "en"
    return language_of_locale(locale)


@dataclass(frozen=True)
class Prepared:
    """An answer ready to send."""

    result: AskResult
    context: Conversation
    answer_id: str
    parts: list[Part]
    view: discord.ui.View


class AskCog(commands.Cog):
    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot
        self.answerer = Answerer(bot)
        self.pending = PendingQuestions(bot)
        self._resuming: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        # Questions a killed or restarted bot left unanswered: answered now, first in line.
        self._resuming = asyncio.create_task(self._resume_pending(), name="resume-pending-questions")

    async def cog_unload(self) -> None:
        if self._resuming is not None and not self._resuming.done():
            self._resuming.cancel()

    # -- /ask -------------------------------------------------------------------------------
    @app_commands.command(name=_("command.ask"), description=_("command.ask.description"))
    @app_commands.rename(question=_("command.ask.question"), ephemeral=_("command.ask.ephemeral"))
    @app_commands.describe(
        question=_("command.ask.question.description"), ephemeral=_("command.ask.ephemeral.description")
    )
    async def ask(self, interaction: discord.Interaction[Any], question: str, ephemeral: bool = False) -> None:
        lang = language_for(question, interaction.locale)
        if self.bot.inflight.closing:
            await respond_text(interaction, phrase("shutting_down", lang))
            return
        asker = Asker(interaction.user.id, interaction.guild_id, interaction.channel_id, "slash")
        verdict = check_question(
            self.bot.settings,
            self.bot.cooldown,
            user_id=interaction.user.id,
            text=question,
            is_dm=interaction.guild_id is None,
            channel_id=interaction.channel_id,
            parent_id=getattr(interaction.channel, "parent_id", None),
        )
        if not verdict.ok:
            # The mention-oriented "empty" text would tell a /ask user to write after a mention.
            text = (
                phrase("ask.empty_question", lang)
                if verdict.refusal is Refusal.EMPTY
                else refusal_text(verdict, self.bot.settings, lang, self._mention())
            )
            await respond_text(interaction, text)
            self.answerer.log_question(asker, 0.0, outcome=f"refused:{verdict.refusal.value}")  # type: ignore[union-attr]
            return
        try:
            # emoji only and the like: refused privately, like the rest (as the engine will see it)
            validate_question(without_discord_syntax(question))
        except QuestionError as error:
            await respond_text(interaction, phrase("ask.unusable", lang, reason=str(error)))
            self.answerer.log_question(asker, 0.0, outcome="unusable")
            return
        async with self.bot.inflight.track():
            try:
                # Kept before it is acknowledged: a kill right after the deferral can't lose it.
                pending = await self._pending_interaction(interaction, question, ephemeral, lang)
                await self.pending.remember(pending)
                if not await acknowledge(interaction, ephemeral):
                    await self.pending.forget(pending.key)
                    return
                await self._answer(
                    pending, self.pending.destination(pending), self._preview(interaction, question, lang)
                )
            except Exception:  # never let one question take anything else down
                log.exception("answering interaction %s failed", interaction.id)

    async def _pending_interaction(
        self, interaction: discord.Interaction[Any], question: str, ephemeral: bool, lang: str
    ) -> PendingQuestion:
        # /ask inside one of the bot's answer threads follows up on the thread's latest answer,
        # as a plain message there does.
        channel = interaction.channel
        thread = channel if isinstance(channel, discord.Thread) else None
        previous = await self.answerer.turn_for_thread(thread) if thread is not None else None
        return PendingQuestion(
            key=f"interaction:{interaction.id}",
            via="slash",
            question=question,
            language=lang,
            user_id=interaction.user.id,
            created_at=interaction.created_at.timestamp(),
            context=stored_context(previous.follow_up_context()) if previous else None,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            application_id=interaction.application_id,
            token=interaction.token,
            ephemeral=ephemeral,
            follow_up=previous is not None,
            # a public answer in the thread becomes the turn the next follow-up builds on
            thread_id=thread.id if previous is not None and thread is not None and not ephemeral else None,
        )

    def _preview(self, interaction: discord.Interaction[Any], question: str, lang: str) -> Preview | None:
        """Stream a generated answer into the /ask response (LLM_STREAM, on by default)."""
        generator = self.bot.engine.generator
        if generator is None or not (generator.settings.stream and generator.settings.write):
            return None
        return Preview(interaction, question, lang, asyncio.get_running_loop())

    # -- messages --------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        me = self.bot.user
        if me is None or message.author.bot or message.webhook_id is not None or message.author.id == me.id:
            return  # never answer bots (including ourselves): no loops
        if message.type not in ANSWERABLE_TYPES:
            return
        trigger = await self._trigger(message, me.id)
        if trigger is None:
            return
        if self.bot.inflight.closing:
            if trigger.explicit:
                await reply_text(message, phrase("shutting_down", language_for(trigger.text)))
            return
        async with self.bot.inflight.track():
            try:
                await self._answer_message(message, trigger)
            except Exception:  # never let one message take anything else down
                log.exception("answering message %s failed", message.id)

    async def _trigger(self, message: discord.Message, bot_id: int) -> Trigger | None:
        channel = message.channel
        replied = None
        reference = message.reference
        if reference is not None and reference.message_id is not None and reference.channel_id == channel.id:
            replied = await self.answerer.turn_for_message(reference.message_id, reference.resolved)
        thread_turn = await self.answerer.turn_for_thread(channel) if isinstance(channel, discord.Thread) else None
        return classify(
            message.content or "",
            bot_id=bot_id,
            is_dm=message.guild is None,
            in_auto_channel=channel.id in self.bot.settings.auto_answer_channel_ids,
            replied_turn=replied,
            thread_turn=thread_turn,
        )

    async def _answer_message(self, message: discord.Message, trigger: Trigger) -> None:
        lang = language_for(trigger.text, message.guild.preferred_locale if message.guild else None)
        asker = Asker(message.author.id, message.guild.id if message.guild else None, message.channel.id, trigger.via)
        if not trigger.text:
            if trigger.via == "mention":
                await reply_text(
                    message, phrase("ask.empty", lang, mention=self.bot.user.mention if self.bot.user else "@bot")
                )
            else:  # no text: most likely the message content intent is off
                log.debug("message %s via %s has no content; ignored", message.id, trigger.via)
            return
        verdict = check_question(
            self.bot.settings,
            self.bot.cooldown,
            user_id=message.author.id,
            text=trigger.text,
            is_dm=message.guild is None,
            channel_id=message.channel.id,
            parent_id=getattr(message.channel, "parent_id", None),
        )
        if not verdict.ok:
            assert verdict.refusal is not None
            if self._should_say(verdict, trigger, message.author.id):
                await reply_text(message, refusal_text(verdict, self.bot.settings, lang, self._mention()))
            self.answerer.log_question(
                asker, 0.0, outcome=f"refused:{verdict.refusal.value}", follow_up=trigger.previous is not None
            )
            return

        channel = message.channel
        me = self.bot.user
        ours = isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id
        pending = PendingQuestion(
            key=f"message:{message.id}",
            via=trigger.via,
            question=trigger.text,
            language=lang,
            user_id=message.author.id,
            created_at=message.created_at.timestamp(),
            context=stored_context(trigger.previous.follow_up_context()) if trigger.previous else None,
            guild_id=message.guild.id if message.guild else None,
            channel_id=channel.id,
            message_id=message.id,
            can_embed=_can_embed(message),
            follow_up=trigger.previous is not None,
            thread_id=channel.id if ours else None,  # the thread's latest answer is what follows up next
        )
        await self.pending.remember(pending)
        await self._answer(pending, self.pending.destination(pending, channel))

    def _should_say(self, verdict: Verdict, trigger: Trigger, user_id: int) -> bool:
        """Refusals are said to whoever addressed the bot; in an auto-answer channel only the
        length and the cooldown are. The cooldown is said once per wait, not once per message:
        a spammer doesn't get the bot to spam the channel back."""
        if verdict.refusal is Refusal.COOLDOWN:
            return self.bot.cooldown.should_warn(user_id)
        return trigger.explicit or verdict.refusal is Refusal.TOO_LONG

    # -- questions in flight ------------------------------------------------------------------
    async def _resume_pending(self) -> None:
        left = await self.pending.left()
        if left:
            log.info("answering %d question(s) left in flight by the previous run", len(left))
            await asyncio.gather(*(self._resume(pending) for pending in left))

    async def _resume(self, pending: PendingQuestion) -> None:
        async with self.bot.inflight.track():
            try:
                destination = self.pending.destination(pending)
                age = age_if_late(pending)
                if age is not None:  # the token is dead (or the question stale): say so, don't answer
                    log.warning("question %s is %.0f s old: too late to answer it", pending.key, age)
                    await destination.tell_failure(phrase("ask.lost_at_restart", pending.language))
                    await self.pending.forget(pending.key)
                    return
                await self._answer(pending, destination)
            except Exception:
                log.exception("answering question %s left in flight failed", pending.key)

    # -- answering ----------------------------------------------------------------------------
    async def _answer(self, pending: PendingQuestion, destination: Destination, preview: Preview | None = None) -> None:
        """Compute, deliver, record; the question is forgotten once delivered or the asker told
        why not. Cancelled (at shutdown) it stays remembered, for the next start."""
        started = time.perf_counter()
        lang = pending.language
        asker = Asker(pending.user_id, pending.guild_id, pending.channel_id, pending.via)
        prepared = await self._prepare(pending, destination, asker, started, preview)
        if prepared is None:
            await self.pending.forget(pending.key)
            return
        try:
            failure = phrase("ask.undelivered", lang)
            sent = await deliver(destination, prepared.parts, prepared.view, failure_text=failure)
            await self.pending.forget(pending.key)
            await self._finish(
                prepared,
                asker,
                sent,
                started,
                follow_up=pending.follow_up,
                open_thread=not pending.ephemeral,
                thread_id=pending.thread_id,
            )
        except Exception:  # the answer may already be shown: log, don't add an apology under it
            log.exception("delivering the answer to %s failed", pending.key)
            await self.pending.forget(pending.key)

    # -- shared -----------------------------------------------------------------------------
    async def _prepare(
        self,
        pending: PendingQuestion,
        destination: Destination,
        asker: Asker,
        started: float,
        preview: Preview | None = None,
    ) -> Prepared | None:
        """The answer, rendered, with its feedback buttons; or None once the asker was told why
        there is none and the question was logged."""
        lang = pending.language
        context = context_from_store(pending.context)
        try:
            try:
                result = await self.answerer.ask_in_context(pending.question, context, preview)
            finally:
                if preview is not None:
                    await preview.close()  # the answer's edit must come after the last preview's
            answer_id = new_answer_id()
            return Prepared(result, context, answer_id, render(result, pending.can_embed), feedback_view(answer_id))
        except QuestionError as error:
            await deliver(destination, [phrase("ask.unusable", lang, reason=str(error))])
            outcome = "unusable"
        except Exception:
            log.exception("answering %s failed", pending.key)
            await deliver(destination, [phrase("went_wrong", lang)])
            outcome = "error"
        self.answerer.log_question(asker, _ms(started), outcome=outcome, follow_up=pending.follow_up)
        return None

    async def _finish(
        self,
        prepared: Prepared,
        asker: Asker,
        sent: list[discord.Message],
        started: float,
        *,
        follow_up: bool,
        open_thread: bool,
        thread_id: int | None = None,
    ) -> None:
        result, answer_id = prepared.result, prepared.answer_id
        if not sent:
            self.answerer.log_question(
                asker,
                _ms(started),
                result=result,
                outcome="undelivered",
                follow_up=follow_up,
                answer_id=answer_id,
            )
            return
        if open_thread and thread_id is None and self.bot.settings.threads:
            thread_id = await self._open_thread(sent[0], result.question)
        await self.answerer.record(answer_id, result, prepared.context, asker, [m.id for m in sent], thread_id)
        self.answerer.log_question(asker, _ms(started), result=result, follow_up=follow_up, answer_id=answer_id)

    async def _open_thread(self, answer: discord.Message, question: str) -> int | None:
        """A thread on the answer for follow-ups (only in plain text channels)."""
        # A message returned by a webhook (the interaction's) knows its channel only by id.
        channel = self.bot.get_channel(answer.channel.id)
        if not isinstance(channel, discord.TextChannel):
            return None
        try:
            thread = await channel.get_partial_message(answer.id).create_thread(
                name=formatting.truncate(" ".join(formatting.echo_safe(question).split()), THREAD_NAME_LIMIT),
                auto_archive_duration=1440,
            )
        except discord.HTTPException as error:  # e.g. no Create Public Threads permission
            log.warning("could not open a thread on answer %s: %s", answer.id, error)
            return None
        except Exception:  # optional: the answer is delivered, so it still gets recorded
            log.exception("could not open a thread on answer %s", answer.id)
            return None
        return thread.id

    def _mention(self) -> str:
        return self.bot.user.mention if self.bot.user else "@bot"


def _can_embed(message: discord.Message) -> bool:
    """Without Embed Links, Discord silently drops embeds: answer in plain text then."""
    guild = message.guild
    if guild is None or guild.me is None:
        return True
    try:
        return message.channel.permissions_for(guild.me).embed_links  # type: ignore[union-attr,arg-type]
    except Exception:  # incomplete cache: assume the usual invite permissions
        return True


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000
