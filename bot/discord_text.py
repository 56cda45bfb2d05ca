"""Discord's own syntax in what users write: mentions and custom emoji. The index knows none of
it; the bot takes it out before a question goes to the engine, which then cleans the rest
(Markdown, zero-width and control characters: index/text/language.py)."""

from __future__ import annotations

import re

# <@user> <@!user> <@&role> <#channel>, @everyone/@here; <:name:id> and animated <a:name:id>.
# https://discord.com/developers/docs/reference#message-formatting
_MENTION = re.compile(r"<(?:@[!&]?|#)\d+>|@(?:everyone|here)\b")
_CUSTOM_EMOJI = re.compile(r"<a?:\w+:\d+>")


def without_discord_syntax(text: str) -> str:
    """``text`` with each mention and custom emoji replaced by a space (they name ids, not words)."""
    return _MENTION.sub(" ", _CUSTOM_EMOJI.sub(" ", text))
