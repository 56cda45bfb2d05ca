"""The bot: intents, mention safety, the shared engine and store, extensions, command sync."""

from __future__ import annotations

import asyncio
import logging
import re
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.config import BotSettings
from bot.conversation import ConversationMemory
from bot.cooldown import SlidingWindowCooldown
from bot.delivery import NO_MENTIONS, respond_text
from bot.feedback import FeedbackStore
from bot.lifecycle import InFlight
from bot.translations import CommandTranslator, language_of_locale
from index import Engine
from index import message as phrase

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.exts.feedback", "bot.exts.ask", "bot.exts.info", "bot.exts.admin")


def configure_endpoints(settings: BotSettings) -> None:
    """Point discord.py at the configured REST base and gateway (a local fake server, a proxy).

    Route.BASE is read whenever a Route is built, by the client and by interaction webhooks
    alike (discord/webhook/async_.py builds its requests from the same Route class), so one
    assignment redirects every REST call. A non-sharded client connects to DEFAULT_GATEWAY
    without asking GET /gateway/bot."""
    discord.http.Route.BASE = settings.discord_api_base_url
    if settings.discord_gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
    # The bot never joins voice: discord.py's "PyNaCl/davey is not installed" warnings are noise.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


_URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?]+")


def masked_path(url: Any) -> str:
    """A request path without its interaction token (valid 15 minutes: not for logs)."""
    return _URL_TOKEN.sub(r"\1***", str(getattr(url, "path", url)))


def server_error_trace() -> aiohttp.TraceConfig:
    """Log every 5xx answer from Discord. discord.py retries those quietly (at DEBUG) before
    raising, so without this a flaky API would leave no trace in the bot's log."""

    async def on_request_end(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        status = params.response.status
        if status >= 500:
            log.warning("Discord answered HTTP %s to %s %s", status, params.method, masked_path(params.url))

    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(on_request_end)
    return trace


def make_intents(settings: BotSettings) -> discord.Intents:
    # Guild and DM messages, without the privileged message content intent unless a feature
    # needs every message's text: mentions, replies that ping the bot and DMs carry their
    # content anyway.
    intents = discord.Intents.default()
    intents.message_content = settings.wants_message_content
    intents.members = False
    intents.presences = False
    return intents


class ArticleBot(commands.Bot):
    def __init__(self, settings: BotSettings, engine: Engine, store: FeedbackStore) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # unused: there are no prefix commands
            help_command=None,
            intents=make_intents(settings),
            allowed_mentions=NO_MENTIONS,
            max_messages=1000,
            http_trace=server_error_trace(),
        )
        self.settings = settings
        self.engine = engine
        self.store = store
        self.cooldown = SlidingWindowCooldown(settings.cooldown_count, settings.cooldown_seconds)
        self.conversations = ConversationMemory(settings.conversation_size)  # answer message → turn
        self.thread_turns = ConversationMemory(settings.conversation_size)  # answer thread → latest turn
        self.inflight = InFlight()
        # Questions computed at once: a burst queues here instead of multiplying threads and memory
        # (each computation uses every core anyway).
        self.answer_slots = asyncio.Semaphore(settings.answer_workers)
        self.index_lock = asyncio.Lock()  # one reload or rebuild at a time
        self.synced: list[app_commands.AppCommand] = []
        self.tree.on_error = self._on_app_command_error

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def sync_commands(self) -> None:
        """Guild commands appear at once (for development); global ones can take a while."""
        try:
            if self.settings.guild_ids:
                for guild_id in self.settings.guild_ids:
                    guild = discord.Object(id=guild_id)
                    self.tree.copy_global_to(guild=guild)
                    self.synced = await self.tree.sync(guild=guild)
                    log.info("synced %d commands to guild %s", len(self.synced), guild_id)
            else:
                self.synced = await self.tree.sync()
                log.info("synced %d global commands", len(self.synced))
        except (discord.HTTPException, app_commands.TranslationError) as error:
            # e.g. the bot was invited without the applications.commands scope: mentions still work
            log.error("command sync failed: %s", error)

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info(
            "ready as %s (id %s) in %d guild(s); serving index %s",
            self.user,
            self.user.id,
            len(self.guilds),
            self.engine.snapshot.version,
        )

    async def on_message(self, message: discord.Message, /) -> None:
        """No prefix commands: the ask extension's listener handles messages."""

    async def _on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        log.error("slash command %s failed", interaction.command and interaction.command.name, exc_info=error)
        try:
            await respond_text(interaction, phrase("went_wrong", language_of_locale(interaction.locale)))
        except Exception:
            log.exception("could not tell the user about the failure")

    async def close(self) -> None:
        """Let in-flight answers finish (up to the grace period) while the connection is still up."""
        if not self.inflight.closing:
            await self.inflight.drain(self.settings.shutdown_seconds)
        await super().close()
