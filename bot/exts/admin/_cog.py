"""/reindex, and the watcher that picks up builds made from the command line."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.client import ArticleBot
from bot.delivery import acknowledge, respond_text, send_text
from bot.exts.admin._permissions import interaction_is_admin
from bot.exts.admin._reload import ReloadOutcome, rebuild_and_swap, reload_if_new
from bot.lifecycle import run_in_daemon_thread
from bot.translations import _, language_of_locale
from index import IndexLoadError
from index import message as phrase

log = logging.getLogger(__name__)


class AdminCog(commands.Cog):
    def __init__(self, bot: ArticleBot) -> None:
        self.bot = bot
        self.poll_problem: str | None = None  # why the last poll couldn't look, already logged
        self.rebuilding = False  # a /reindex is running (the watcher's polls hold the lock too, briefly)
        self.watch_index.change_interval(seconds=bot.settings.poll_seconds)

    async def cog_load(self) -> None:
        self.watch_index.start()

    async def cog_unload(self) -> None:
        self.watch_index.cancel()

    # -- /reindex -------------------------------------------------------------------------
    @app_commands.command(name=_("command.reindex"), description=_("command.reindex.description"))
    @app_commands.rename(force=_("command.reindex.force"))
    @app_commands.describe(force=_("command.reindex.force.description"))
    async def reindex(self, interaction: discord.Interaction[Any], force: bool = False) -> None:
        lang = language_of_locale(interaction.locale)
        if not interaction_is_admin(interaction, self.bot.settings.admin_user_ids):
            log.info("reindex refused for user %s (not an admin)", interaction.user.id)
            await respond_text(interaction, phrase("admin.not_admin", lang))
            return
        if self.rebuilding:  # another /reindex; a poll of the watcher is only waited for
            await respond_text(interaction, phrase("admin.busy", lang))
            return
        self.rebuilding = True
        try:
            if not await acknowledge(interaction, ephemeral=True):
                return
            log.info("reindex (force=%s) started by user %s", force, interaction.user.id)
            async with self.bot.index_lock:
                # A daemon thread: a shutdown doesn't wait for a long build (builds are atomic).
                outcome = await run_in_daemon_thread(lambda: rebuild_and_swap(self.bot.engine, force), "reindex")
        finally:
            self.rebuilding = False
        self._log(outcome)
        await respond_text(interaction, self._describe(outcome, lang))

    def _describe(self, outcome: ReloadOutcome, lang: str) -> str:
        match outcome.status:
            case "rebuilt":
                return phrase("admin.rebuilt", lang, summary=outcome.summary, version=outcome.serving)
            case "unchanged" | "reloaded":
                return phrase("admin.unchanged", lang, summary=outcome.summary, version=outcome.serving)
            case "rejected":
                return phrase("admin.rejected", lang, reason=outcome.reason, version=outcome.serving)
            case _:
                return phrase("admin.failed", lang, reason=outcome.reason, version=outcome.serving)

    def _log(self, outcome: ReloadOutcome) -> None:
        if outcome.status == "rejected":
            log.error("index %s rejected, still serving %s: %s", outcome.version, outcome.serving, outcome.reason)
        elif outcome.status == "failed":
            log.error("index rebuild failed, still serving %s: %s", outcome.serving, outcome.reason)
        elif outcome.status in ("rebuilt", "reloaded"):
            log.info("now serving index %s (%s)", outcome.serving, outcome.summary or outcome.status)
        else:
            log.info("index unchanged, serving %s", outcome.serving)

    def _serving(self) -> str:
        return self.bot.engine.snapshot.version if self.bot.engine.loaded else "nothing"

    # -- the watcher ------------------------------------------------------------------------
    @tasks.loop(seconds=5.0)
    async def watch_index(self) -> None:
        """Notice `python -m index build` finishing: CURRENT names a new version."""
        if self.bot.index_lock.locked():
            return  # a /reindex is running and will swap itself
        try:
            async with self.bot.index_lock:
                outcome = await asyncio.to_thread(reload_if_new, self.bot.engine)
        except IndexLoadError as error:  # e.g. a CURRENT that names nothing: said once, not every poll
            if str(error) != self.poll_problem:
                self.poll_problem = str(error)
                log.error("can't check for a new index build (still serving %s): %s", self._serving(), error)
            return
        except Exception:  # a failing poll must not stop the loop (tasks.loop ends on exceptions)
            log.exception("checking for a new index build failed")
            return
        if self.poll_problem is not None:
            self.poll_problem = None
            log.info("the index folder is readable again")
        if outcome is not None:
            self._log(outcome)
            await self._tell_admins(outcome)

    async def _tell_admins(self, outcome: ReloadOutcome) -> None:
        """A build from the command line has no one to answer: say in the admin channel (if one is
        configured) that it is served, or why it was rejected. /reindex answers its caller instead."""
        channel_id = self.bot.settings.admin_channel_id
        if channel_id is None:
            return
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("admin channel %s not found: index news not posted", channel_id)
            return

        def news(lang: str) -> str:
            if outcome.status == "rejected":
                return phrase("admin.rejected", lang, reason=outcome.reason, version=outcome.serving)
            return phrase("admin.cli_build_served", lang, version=outcome.serving)

        # No one asked, so no one's language is known: both.
        await send_text(channel, "\n".join(map(news, ("en", "zh"))), f"index news to channel {channel_id}")
