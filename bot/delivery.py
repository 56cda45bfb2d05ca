"""Sending: every message suppresses mention pings, none is lost and none is sent twice.

discord.py waits out a 429 that carries Discord's ``Via`` header and retries 500/502 a few times
itself; what reaches us is a send that failed anyway. ``send_patiently`` keeps trying with backoff
(honouring Retry-After, with or without ``Via``) until a deadline: for an interaction, the 15
minutes its token lives. A 4xx other than 429 won't get better by retrying and ends it at once.

Every message the bot creates carries a nonce derived from the question it answers (discord.py
adds ``enforce_nonce``), the same on every retry and after a restart: when Discord stored a
message but the response was lost, the retry gets that message back instead of a second copy.

Where an answer goes is a ``Destination``: an interaction (its original response, then
follow-ups) or a message to reply to. When delivery finally fails, the asker is told so.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import aiohttp
import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)

T = TypeVar("T")
NO_MENTIONS = discord.AllowedMentions.none()
RETRY_DELAY = 1.0  # the first pause; doubled after each failure
MAX_RETRY_DELAY = 60.0
SHORT_PATIENCE = 30.0  # for one-line replies (refusals, "something went wrong")
INTERACTION_LIFE = 15 * 60.0  # an interaction token's life (Discord)
TOKEN_MARGIN = 20.0  # stop this much before the token dies: the last request must still arrive
ALREADY_ACKNOWLEDGED = 40060  # "Interaction has already been acknowledged."
Part = list[discord.Embed] | str  # one message: embeds, or plain content


def nonce_for(key: str, part: int | str) -> int:
    """The nonce of one message the bot sends for ``key`` (a question): the same on every retry
    and after a restart. 63 bits: Discord takes an integer nonce up to 25 digits."""
    digest = hashlib.sha256(f"{key}:{part}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def retry_after(error: discord.HTTPException) -> float | None:
    """The wait a 429 asks for (Retry-After or X-RateLimit-Reset-After), if it says."""
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        try:
            return max(0.0, float(headers[name]))
        except (KeyError, TypeError, ValueError):
            continue
    return None


def _permanent(error: discord.HTTPException) -> bool:
    """A refusal retrying won't change: bad request, missing permission, unknown message or an
    expired interaction token."""
    return 400 <= error.status < 500 and error.status != 429


async def send_patiently(
    send: Callable[[], Awaitable[T]], what: str, deadline: float, delay: float = RETRY_DELAY
) -> T | None:
    """``await send()`` until it succeeds, with backoff, until ``deadline`` (time.monotonic());
    None once it has given up (logged). Never raises for a failed send."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return await send()
        except discord.HTTPException as error:
            if _permanent(error):
                log.warning("%s refused: HTTP %s %s (not retried)", what, error.status, error.text or error)
                return None
            wait = (retry_after(error) if error.status == 429 else None) or delay
            reason = f"HTTP {error.status} {error.text or error}"
        except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as error:
            wait, reason = delay, f"{type(error).__name__}: {error}"
        if time.monotonic() + wait > deadline:
            log.error("%s failed (attempt %d): %s; giving up", what, attempt, reason)
            return None
        log.warning("%s failed (attempt %d): %s; retrying in %.1f s", what, attempt, reason, wait)
        await asyncio.sleep(wait)
        delay = min(delay * 2, MAX_RETRY_DELAY)


async def send_retrying(send: Callable[[], Awaitable[T]], what: str, delay: float = RETRY_DELAY) -> T | None:
    """A short message: ``send_patiently`` for up to half a minute."""
    return await send_patiently(send, what, time.monotonic() + SHORT_PATIENCE, delay)


def _body(part: Part) -> dict[str, Any]:
    if isinstance(part, str):
        return {"content": part, "embeds": []}
    return {"content": None, "embeds": part}


class Destination(Protocol):
    """Where an answer goes."""

    what: str  # for log lines
    deadline: float  # time.monotonic() after which delivery is given up

    async def send_part(self, index: int, part: Part, view: Any) -> discord.Message: ...

    async def tell_failure(self, text: str) -> bool: ...


@dataclass
class InteractionDestination:
    """A deferred interaction: the first part edits its original response, the rest are follow-ups.
    Works from the token alone, so an answer can still be delivered after a restart."""

    webhook: discord.Webhook  # the interaction's follow-up webhook
    interaction_id: int
    user_id: int
    channel: discord.abc.Messageable | None
    ephemeral: bool
    deadline: float

    @property
    def what(self) -> str:
        return f"answer to interaction {self.interaction_id}"

    @classmethod
    def of(
        cls,
        client: discord.Client,
        *,
        application_id: int,
        token: str,
        interaction_id: int,
        user_id: int,
        channel_id: int | None,
        ephemeral: bool,
        created_at: float,
        patience: float,
    ) -> InteractionDestination:
        # The webhook discord.py builds for Interaction.followup (an application webhook, so it
        # may send ephemeral messages and buttons), from the stored token.
        webhook = discord.Webhook.from_state(
            data={"id": application_id, "type": 3, "token": token},
            state=client._connection,
        )
        channel = client.get_partial_messageable(channel_id) if channel_id else None
        return cls(
            webhook,
            interaction_id,
            user_id,
            channel,
            ephemeral,
            deadline=token_deadline(created_at, patience),
        )

    async def send_part(self, index: int, part: Part, view: Any) -> discord.Message:
        body = _body(part)
        if index == 0:
            return await self.webhook.edit_message(
                "@original",  # type: ignore[arg-type]  # the route takes the literal too
                **body,
                view=view,
                allowed_mentions=NO_MENTIONS,
            )
        if body["content"] is None:
            body.pop("content")
        return await self.webhook.send(
            **body, view=view, ephemeral=self.ephemeral, allowed_mentions=NO_MENTIONS, wait=True
        )

    async def tell_failure(self, text: str) -> bool:
        """An ephemeral follow-up (after a deferral it replaces the "thinking…" message); if even
        that fails, a line in the channel naming the asker (no ping)."""
        told = await send_patiently(
            lambda: self.webhook.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS, wait=True),
            f"failure notice for interaction {self.interaction_id}",
            min(self.deadline + TOKEN_MARGIN, time.monotonic() + SHORT_PATIENCE),
        )
        if told is not None:
            return True
        if self.channel is None:
            return False
        channel = self.channel
        sent = await send_retrying(
            lambda: channel.send(
                f"<@{self.user_id}> {text}",
                allowed_mentions=NO_MENTIONS,
                nonce=nonce_for(f"interaction:{self.interaction_id}", "failed"),
            ),
            f"failure notice for interaction {self.interaction_id} in the channel",
        )
        return sent is not None


@dataclass
class MessageDestination:
    """A reply to a message: the first part references it; every part has its own fixed nonce."""

    channel: discord.abc.Messageable
    message_id: int
    reference: discord.MessageReference | None
    deadline: float

    @property
    def what(self) -> str:
        return f"reply to message {self.message_id}"

    @classmethod
    def of(
        cls,
        channel: discord.abc.Messageable,
        message_id: int,
        *,
        channel_id: int,
        guild_id: int | None,
        patience: float,
    ) -> MessageDestination:
        reference = discord.MessageReference(
            message_id=message_id,
            channel_id=channel_id,
            guild_id=guild_id,
            fail_if_not_exists=False,  # the question may be deleted meanwhile
        )
        return cls(channel, message_id, reference, time.monotonic() + patience)

    def _nonce(self, part: int | str) -> int:
        return nonce_for(f"message:{self.message_id}", part)

    async def send_part(self, index: int, part: Part, view: Any) -> discord.Message:
        kwargs = _body(part)
        if kwargs["content"] is None:
            kwargs.pop("content")
        kwargs.update(allowed_mentions=NO_MENTIONS, nonce=self._nonce(index))
        if index == 0:
            kwargs.update(reference=self.reference, mention_author=False)
        if view is not MISSING:
            kwargs["view"] = view
        return await self.channel.send(**kwargs)

    async def tell_failure(self, text: str) -> bool:
        sent = await send_retrying(
            lambda: self.channel.send(
                text,
                reference=self.reference,  # type: ignore[arg-type]
                mention_author=False,
                allowed_mentions=NO_MENTIONS,
                nonce=self._nonce("failed"),
            ),
            f"failure notice for message {self.message_id}",
        )
        return sent is not None


def token_deadline(created_at: float, patience: float) -> float:
    """time.monotonic() at which to stop delivering to an interaction made at ``created_at`` (unix
    time): ``patience`` from now, and never past the token's life."""
    left = created_at + INTERACTION_LIFE - TOKEN_MARGIN - time.time()
    return time.monotonic() + max(0.0, min(patience, left))


async def deliver(
    destination: Destination,
    parts: Sequence[Part],
    view: discord.ui.View | None = None,
    failure_text: str | None = None,
) -> list[discord.Message]:
    """Send the parts in order (the view on the last one), each retried until the destination's
    deadline. If one can't be delivered, the rest aren't tried and the asker is told
    (``failure_text``). Returns what was delivered."""
    sent: list[discord.Message] = []
    for i, part in enumerate(parts):
        last_view = view if (i == len(parts) - 1 and view is not None) else MISSING
        result = await send_patiently(
            lambda i=i, part=part, v=last_view: destination.send_part(i, part, v),
            f"{destination.what} (part {i + 1} of {len(parts)})",
            destination.deadline,
        )
        if result is None:
            if failure_text is not None and not await destination.tell_failure(failure_text):
                log.error("%s: could not tell the asker that delivery failed", destination.what)
            break
        sent.append(result)
    return sent


# -- one-line replies --------------------------------------------------------------------------
async def send_text(channel: discord.abc.Messageable, text: str, what: str) -> discord.Message | None:
    nonce = secrets.randbits(63)  # one per message, the same on each retry
    return await send_retrying(lambda: channel.send(text, allowed_mentions=NO_MENTIONS, nonce=nonce), what)


async def reply_text(message: discord.Message, text: str) -> discord.Message | None:
    destination = MessageDestination.of(
        message.channel,
        message.id,
        channel_id=message.channel.id,
        guild_id=message.guild.id if message.guild else None,
        patience=SHORT_PATIENCE,
    )
    sent = await deliver(destination, [text])
    return sent[0] if sent else None


async def respond_text(interaction: discord.Interaction[Any], text: str, ephemeral: bool = True) -> None:
    """A short reply: the interaction's response if it hasn't been given yet, else an edit of it.
    A response Discord says was given already (a retry after a lost one) becomes the edit."""
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(text, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS)
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                log.warning("response to interaction %s failed: HTTP %s %s", interaction.id, error.status, error)
                return
    await send_retrying(
        lambda: interaction.edit_original_response(content=text, embeds=[], allowed_mentions=NO_MENTIONS),
        f"edit of interaction {interaction.id}",
    )


async def acknowledge(interaction: discord.Interaction[Any], ephemeral: bool) -> bool:
    """Defer (Discord drops an interaction not acknowledged within 3 seconds). A 40060 "already
    acknowledged" means an earlier attempt got through though its response was lost: deferred."""
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException as error:
        if error.code == ALREADY_ACKNOWLEDGED:
            log.info("interaction %s was acknowledged already (the response to a retry was lost)", interaction.id)
            return True
        log.warning("could not defer interaction %s: HTTP %s %s", interaction.id, error.status, error.text or error)
        return False
    except (aiohttp.ClientError, OSError, asyncio.TimeoutError) as error:
        log.warning("could not defer interaction %s: %s: %s", interaction.id, type(error).__name__, error)
        return False
    return True
