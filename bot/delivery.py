"""Sending: every message suppresses mention pings, and a failed send is logged and retried once.

discord.py already waits out rate limits (429) and retries 5xx a few times itself; what reaches
us is a send that failed anyway. We retry it once after a short pause and otherwise give up with
a log line — a lost message must never take the bot down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import aiohttp
import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)

T = TypeVar("T")
NO_MENTIONS = discord.AllowedMentions.none()
RETRY_DELAY = 1.0
Part = list[discord.Embed] | str  # one message: embeds, or plain content


async def send_retrying(send: Callable[[], Awaitable[T]], what: str, delay: float = RETRY_DELAY) -> T | None:
    """``await send()``; on failure log, wait ``delay`` and try once more; None if both fail."""
    for attempt in (1, 2):
        try:
            return await send()
        except discord.HTTPException as error:
            if error.status == 429:  # discord.py gave up waiting out a rate limit: don't pile on
                log.warning("%s: rate limited, not retrying (%s)", what, error.text or error)
                return None
            log.warning("%s failed (attempt %d): HTTP %s %s", what, attempt, error.status, error.text or error)
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as error:
            log.warning("%s failed (attempt %d): %s: %s", what, attempt, type(error).__name__, error)
        if attempt == 1:
            await asyncio.sleep(delay)
    log.error("%s failed twice; giving up", what)
    return None


def _body(part: Part) -> dict[str, Any]:
    if isinstance(part, str):
        return {"content": part, "embeds": []}
    return {"content": None, "embeds": part}


async def reply_parts(
    message: discord.Message, parts: Sequence[Part], view: discord.ui.View | None = None
) -> list[discord.Message]:
    """Reply to ``message`` (the first part references it), the view on the last part."""
    sent: list[discord.Message] = []
    reference = message.to_reference(fail_if_not_exists=False)  # the question may be deleted meanwhile
    for i, part in enumerate(parts):
        kwargs = _body(part)
        if not isinstance(part, str):
            kwargs.pop("content")
        kwargs["allowed_mentions"] = NO_MENTIONS
        if i == 0:
            kwargs.update(reference=reference, mention_author=False)
        if i == len(parts) - 1 and view is not None:
            kwargs["view"] = view
        result = await send_retrying(lambda kw=kwargs: message.channel.send(**kw), f"reply to message {message.id}")
        if result is None:
            break
        sent.append(result)
    return sent


async def send_text(channel: discord.abc.Messageable, text: str, what: str) -> discord.Message | None:
    return await send_retrying(lambda: channel.send(text, allowed_mentions=NO_MENTIONS), what)


async def reply_text(message: discord.Message, text: str) -> discord.Message | None:
    sent = await reply_parts(message, [text])
    return sent[0] if sent else None


async def respond_parts(
    interaction: discord.Interaction[Any],
    parts: Sequence[Part],
    view: discord.ui.View | None = None,
    ephemeral: bool = False,
) -> list[discord.Message]:
    """Deliver a deferred interaction's answer: edit the original response with the first part,
    send the rest as followups; the view goes on the last part."""
    sent: list[discord.Message] = []
    for i, part in enumerate(parts):
        last_view = view if (i == len(parts) - 1 and view is not None) else MISSING
        body = _body(part)
        if i == 0:
            result: discord.Message | None = await send_retrying(
                lambda b=body, v=last_view: interaction.edit_original_response(
                    **b, view=v, allowed_mentions=NO_MENTIONS
                ),
                f"edit of interaction {interaction.id}",
            )
        else:
            if body["content"] is None:
                body.pop("content")
            result = await send_retrying(
                lambda b=body, v=last_view: interaction.followup.send(
                    **b, view=v, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS, wait=True
                ),
                f"followup of interaction {interaction.id}",
            )
        if result is None:
            break
        sent.append(result)
    return sent


async def respond_text(interaction: discord.Interaction[Any], text: str, ephemeral: bool = True) -> None:
    """A short reply: the interaction's response if it hasn't been given yet, else an edit of it."""
    if not interaction.response.is_done():
        await send_retrying(
            lambda: interaction.response.send_message(text, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS),
            f"response to interaction {interaction.id}",
        )
    else:
        await send_retrying(
            lambda: interaction.edit_original_response(content=text, embeds=[], allowed_mentions=NO_MENTIONS),
            f"edit of interaction {interaction.id}",
        )
