"""The bot's sentences that take some working out before the catalogue (index.message) words
them: a cooldown's wait, a list of channels, the /help text. Every other sentence the bot says is
``phrase(key, lang, …)`` at its call site. ``lang`` is 'zh', or anything else for English."""

from __future__ import annotations

import math
import time

from bot.config import BotSettings
from index import message as phrase


def cooldown(lang: str, retry_after: float, count: int, seconds: float, now: float | None = None) -> str:
    wait = max(1, math.ceil(retry_after))
    at = int((now if now is not None else time.time()) + wait)
    return phrase("ask.cooldown", lang, window=_seconds(seconds), count=count, wait=wait, at=at)


def _seconds(seconds: float) -> str:
    return f"{seconds:g} s"


def _channels(channel_ids: list[int]) -> str:
    return " ".join(f"<#{c}>" for c in channel_ids[:10])


def channel_not_allowed(lang: str, channel_ids: list[int]) -> str:
    channels = _channels(channel_ids)
    if not channels:
        return phrase("ask.channel_not_allowed.nowhere", lang)
    return phrase("ask.channel_not_allowed", lang, channels=channels)


def help_text(settings: BotSettings, mention: str) -> tuple[str, str]:
    """(Chinese, English) help."""
    keys = ["help.intro", "help.ask", "help.mention", "help.reply", "help.article", "help.reindex", "help.feedback"]
    auto = _channels(settings.auto_answer_channel_ids)
    keys += ["help.threads"] * settings.threads + ["help.auto"] * bool(auto) + ["help.limits"]
    fields = {
        "mention": mention,
        "channels": auto,
        "window": _seconds(settings.cooldown_seconds),
        "count": settings.cooldown_count,
        "chars": settings.max_question_chars,
    }
    zh, en = ("\n".join(phrase(key, lang, **fields) for key in keys) for lang in ("zh", "en"))
    return zh, en
