"""A generated answer shown while it is written: the deferred /ask response is edited with the
text so far (the generator hands over at most one partial text a second)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from typing import Any

import aiohttp
import discord

from bot import formatting
from bot.delivery import NO_MENTIONS

log = logging.getLogger(__name__)


class Preview:
    """Called from the answering thread with each partial text; the edits run on the event loop
    one at a time, the latest text wins and none queue up behind a slow edit. ``close`` waits for
    the edit in flight, so that the final answer is always the last edit."""

    def __init__(
        self, interaction: discord.Interaction[Any], question: str, language: str, loop: asyncio.AbstractEventLoop
    ) -> None:
        self.interaction, self.question, self.language, self.loop = interaction, question, language, loop
        self._latest = ""
        self._pending: concurrent.futures.Future[None] | None = None
        self._closed = False

    def __call__(self, text: str) -> None:
        if self._closed:
            return
        self._latest = text
        if self._pending is None or self._pending.done():
            self._pending = asyncio.run_coroutine_threadsafe(self._show(), self.loop)

    async def _show(self) -> None:
        if self._closed:
            return
        embed = formatting.preview_embed(self.question, self._latest, self.language)
        try:
            await self.interaction.edit_original_response(embeds=[embed], allowed_mentions=NO_MENTIONS)
        except (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError) as error:
            # Only a preview: the final answer is delivered (and retried) as usual.
            log.warning("could not show a partial answer to interaction %s: %s", self.interaction.id, error)

    async def close(self) -> None:
        self._closed = True
        if self._pending is not None and not self._pending.done():
            try:
                await asyncio.wrap_future(self._pending)
            except Exception:
                log.exception("a partial answer's edit failed")
