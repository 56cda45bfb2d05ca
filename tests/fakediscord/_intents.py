"""Which dispatches a session receives, and how MESSAGE_CONTENT shapes them.

Emulating this matters: a bot that forgets an intent gets nothing (or empty message
content) on real Discord, and the fake should fail the same way instead of hiding it.
"""

from __future__ import annotations

import copy
from typing import Any

from ._constants import Intent

_MESSAGE_EVENTS = {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK"}
_CONTENT_FIELDS: dict[str, Any] = {"content": "", "embeds": [], "attachments": [], "components": []}


def required_intent(event: str, data: dict[str, Any]) -> int | None:
    """The intent bit an event needs, or None for events every session gets."""
    in_guild = "guild_id" in data
    if event in _MESSAGE_EVENTS:
        return Intent.GUILD_MESSAGES if in_guild else Intent.DIRECT_MESSAGES
    if event.startswith("MESSAGE_REACTION_"):
        return Intent.GUILD_MESSAGE_REACTIONS if in_guild else Intent.DIRECT_MESSAGE_REACTIONS
    if event == "TYPING_START":
        return Intent.GUILD_MESSAGE_TYPING if in_guild else Intent.DIRECT_MESSAGE_TYPING
    if event in ("GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"):
        return Intent.GUILD_MEMBERS
    if event == "PRESENCE_UPDATE":
        return Intent.GUILD_PRESENCES
    if event.startswith(("THREAD_", "CHANNEL_", "GUILD_ROLE_")) or event in ("GUILD_UPDATE", "GUILD_DELETE"):
        return Intent.GUILDS
    # READY, RESUMED, GUILD_CREATE (initial load), INTERACTION_CREATE, GUILD_MEMBERS_CHUNK, ...
    return None


def shape_for_session(
    intents: int, event: str, data: dict[str, Any], bot_user_id: int, *, enforce_message_content: bool
) -> dict[str, Any] | None:
    """Return the payload this session should see, or None if its intents exclude the event."""
    needed = required_intent(event, data)
    if needed is not None and not intents & needed:
        return None
    if (
        enforce_message_content
        and event in ("MESSAGE_CREATE", "MESSAGE_UPDATE")
        and not intents & Intent.MESSAGE_CONTENT
        and _content_hidden(data, bot_user_id)
    ):
        stripped = copy.deepcopy(data)
        for key, empty in _CONTENT_FIELDS.items():
            if key in stripped:
                stripped[key] = copy.copy(empty)
        stripped.pop("poll", None)
        return stripped
    return data


def _content_hidden(data: dict[str, Any], bot_user_id: int) -> bool:
    """Discord still shows content in DMs, for the bot's own messages, and when it is mentioned."""
    if "guild_id" not in data:
        return False
    author = data.get("author") or {}
    if str(author.get("id")) == str(bot_user_id):
        return False
    return not any(str(m.get("id")) == str(bot_user_id) for m in data.get("mentions") or [])
