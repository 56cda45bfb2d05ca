"""Whether a question may be answered here and now (DMs, the channel allow-list, length, cooldown),
and what the asker is told when it may not."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot import messages
from bot.config import BotSettings
from bot.cooldown import SlidingWindowCooldown
from index import message as phrase


class Refusal(Enum):
    DMS_DISABLED = "dms_disabled"
    CHANNEL_NOT_ALLOWED = "channel_not_allowed"
    EMPTY = "empty"
    TOO_LONG = "too_long"
    COOLDOWN = "cooldown"


@dataclass(frozen=True)
class Verdict:
    refusal: Refusal | None = None
    retry_after: float = 0.0
    length: int = 0

    @property
    def ok(self) -> bool:
        return self.refusal is None


def channel_allowed(settings: BotSettings, channel_id: int | None, parent_id: int | None) -> bool:
    """With an allow-list, only its channels and threads inside them."""
    if not settings.allowed_channel_ids:
        return True
    return channel_id in settings.allowed_channel_ids or (
        parent_id is not None and parent_id in settings.allowed_channel_ids
    )


def check_question(
    settings: BotSettings,
    cooldown: SlidingWindowCooldown,
    *,
    user_id: int,
    text: str,
    is_dm: bool,
    channel_id: int | None,
    parent_id: int | None = None,
) -> Verdict:
    """The first reason to refuse, in order; the cooldown is charged only for accepted questions."""
    if is_dm:
        if not settings.allow_dms:
            return Verdict(Refusal.DMS_DISABLED)
    elif not channel_allowed(settings, channel_id, parent_id):
        return Verdict(Refusal.CHANNEL_NOT_ALLOWED)
    length = len(text.strip())
    if length == 0:
        return Verdict(Refusal.EMPTY)
    if length > settings.max_question_chars:
        return Verdict(Refusal.TOO_LONG, length=length)
    wait = cooldown.hit(user_id)
    if wait > 0:
        return Verdict(Refusal.COOLDOWN, retry_after=wait)
    return Verdict(length=length)


def refusal_text(verdict: Verdict, settings: BotSettings, lang: str, mention: str) -> str:
    """What the asker is told for a refused question (``mention``: the bot's, for the examples)."""
    match verdict.refusal:
        case Refusal.DMS_DISABLED:
            return phrase("ask.dms_disabled", lang)
        case Refusal.CHANNEL_NOT_ALLOWED:
            return messages.channel_not_allowed(lang, settings.allowed_channel_ids)
        case Refusal.EMPTY:
            return phrase("ask.empty", lang, mention=mention)
        case Refusal.TOO_LONG:
            return phrase("ask.too_long", lang, length=verdict.length, limit=settings.max_question_chars)
        case _:
            return messages.cooldown(lang, verdict.retry_after, settings.cooldown_count, settings.cooldown_seconds)
