"""/ask, and questions asked in messages (mentions, replies, answer threads, DMs, auto channels)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import formatting, messages
from bot.client import ArticleBot
from bot.conversation import Turn
from bot.delivery import Part, reply_parts, reply_text, respond_parts, respond_text
from bot.exts.ask._answering import Answerer, Asker, new_answer_id, render
from bot.exts.ask._gate import Refusal, Verdict, check_question
from bot.exts.ask._preview import Preview
from bot.exts.ask._triggers import Trigger, classify
from bot.feedback import feedback_view
from bot.translations import _, language_of_locale
from index.engine import PartialHandler
from index.models import AskResult
from index.text import QuestionError, detect_language

log = logging.getLogger(__name__)

THREAD_NAME_LIMIT = 100
ANSWERABLE_TYPES = (discord.MessageType.default, discord.MessageType.reply)


def language_for(text: str, locale: discord.Locale | None = None) -> str:
    """The language of the bot's own words: the question's, else the user's client's."""
    if text.strip():
        return "zh" if detect_language(text) == "zh" else "en"
    return language_of_locale(locale)


@dataclass(frozen=True)
class Prepared:
    """An answer ready to send."""

    result: AskResult
    context: str | None
    answer_id: str
    parts: list[Part]
    view: discord.ui.View


class AskCog(commands.Cog):
    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot
        self.answerer = Answerer(bot)

    # -- /ask -------------------------------------------------------------------------------
    @app_commands.command(
        name=_("ask"), description=_("Ask a question about the article (answers cite the paragraphs)")
    )
    @app_commands.rename(question=_("question"), ephemeral=_("ephemeral"))
    @app_commands.describe(question=_("Your question, in Chinese or English"), ephemeral=_("Only you see the answer"))
    async def ask(self, interaction: discord.Interaction[Any], question: str, ephemeral: bool = False) -> None:
        lang = language_for(question, interaction.locale)
        if self.bot.inflight.closing:
            await respond_text(interaction, messages.shutting_down(lang))
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
            text = messages.empty_question(lang) if verdict.refusal is Refusal.EMPTY else self._refusal(verdict, lang)
            await respond_text(interaction, text)
            self.answerer.log_question(asker, 0.0, outcome=f"refused:{verdict.refusal.value}")  # type: ignore[union-attr]
            return
        try:
            # Acknowledge first: Discord drops an interaction not answered within 3 seconds.
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        except discord.HTTPException as error:
            log.warning("could not defer interaction %s: %s", interaction.id, error)
            return
        async with self.bot.inflight.track():
            await self._answer_interaction(interaction, question, ephemeral, lang, asker)

    async def _answer_interaction(
        self, interaction: discord.Interaction[Any], question: str, ephemeral: bool, lang: str, asker: Asker
    ) -> None:
        started = time.perf_counter()
        # /ask inside one of the bot's answer threads follows up on the thread's latest answer,
        # as a plain message there does.
        channel = interaction.channel
        thread = channel if isinstance(channel, discord.Thread) else None
        previous = await self.answerer.turn_for_thread(thread) if thread is not None else None
        follow_up = previous is not None
        preview = self._preview(interaction, question, lang)
        try:
            prepared = await self._prepare(
                question,
                previous,
                asker,
                lang,
                started,
                say=lambda text: respond_text(interaction, text),
                what=f"interaction {interaction.id}",
                on_partial=preview,
            )
        finally:
            if preview is not None:
                await preview.close()  # the answer's edit must come after the last preview's
        if prepared is None:
            return
        try:
            sent = await respond_parts(interaction, prepared.parts, prepared.view, ephemeral)
            await self._finish(
                prepared,
                asker,
                sent,
                started,
                follow_up=follow_up,
                open_thread=not ephemeral,
                # a public answer in the thread becomes the turn the next follow-up builds on
                thread_id=thread.id if follow_up and thread is not None and not ephemeral else None,
            )
        except Exception:  # the answer may already be shown: log, don't overwrite it with an apology
            log.exception("delivering the answer to interaction %s failed", interaction.id)

    def _preview(self, interaction: discord.Interaction[Any], question: str, lang: str) -> Preview | None:
        """Stream a generated answer into the /ask response (LLM_STREAM, on by default)."""
        generator = self.bot.engine.generator
        if generator is None or not generator.settings.stream:
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
                await reply_text(message, messages.shutting_down(language_for(trigger.text)))
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
                await reply_text(message, messages.empty(lang, self.bot.user.mention if self.bot.user else "@bot"))
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
            if trigger.explicit or verdict.refusal in (Refusal.TOO_LONG, Refusal.COOLDOWN):
                await reply_text(message, self._refusal(verdict, lang))
            self.answerer.log_question(
                asker, 0.0, outcome=f"refused:{verdict.refusal.value}", follow_up=trigger.previous is not None
            )
            return

        started = time.perf_counter()
        follow_up = trigger.previous is not None
        prepared = await self._prepare(
            trigger.text,
            trigger.previous,
            asker,
            lang,
            started,
            say=lambda text: reply_text(message, text),
            what=f"message {message.id}",
            can_embed=_can_embed(message),
        )
        if prepared is None:
            return
        channel = message.channel
        me = self.bot.user
        ours = isinstance(channel, discord.Thread) and me is not None and channel.owner_id == me.id
        in_thread = channel.id if ours else None  # the thread's latest answer is what follows up next
        try:
            sent = await reply_parts(message, prepared.parts, prepared.view)
            await self._finish(
                prepared,
                asker,
                sent,
                started,
                follow_up=follow_up,
                open_thread=True,
                thread_id=in_thread,
            )
        except Exception:  # the answer may already be posted: log, don't add an apology under it
            log.exception("delivering the answer to message %s failed", message.id)

    # -- shared -----------------------------------------------------------------------------
    async def _prepare(
        self,
        text: str,
        previous: Turn | None,
        asker: Asker,
        lang: str,
        started: float,
        *,
        say: Callable[[str], Awaitable[object]],
        what: str,
        can_embed: bool = True,
        on_partial: PartialHandler | None = None,
    ) -> Prepared | None:
        """The answer, rendered, with its feedback buttons; or None once the asker was told why
        there is none (``say``) and the question was logged."""
        try:
            result, context = await self.answerer.ask(text, previous, on_partial)
            answer_id = new_answer_id()
            return Prepared(result, context, answer_id, render(result, can_embed), feedback_view(answer_id))
        except QuestionError as error:
            await say(messages.unusable(lang, str(error)))
            outcome = "unusable"
        except Exception:
            log.exception("answering %s failed", what)
            await say(messages.went_wrong(lang))
            outcome = "error"
        self.answerer.log_question(asker, _ms(started), outcome=outcome, follow_up=previous is not None)
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
        if not isinstance(answer.channel, discord.TextChannel):
            return None
        try:
            thread = await answer.create_thread(
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

    def _refusal(self, verdict: Verdict, lang: str) -> str:
        settings = self.bot.settings
        mention = self.bot.user.mention if self.bot.user else "@bot"
        match verdict.refusal:
            case Refusal.DMS_DISABLED:
                return messages.dms_disabled(lang)
            case Refusal.CHANNEL_NOT_ALLOWED:
                return messages.channel_not_allowed(lang, settings.allowed_channel_ids)
            case Refusal.EMPTY:
                return messages.empty(lang, mention)
            case Refusal.TOO_LONG:
                return messages.too_long(lang, verdict.length, settings.max_question_chars)
            case _:
                return messages.cooldown(lang, verdict.retry_after, settings.cooldown_count, settings.cooldown_seconds)


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
