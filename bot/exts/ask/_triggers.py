"""Which messages are questions: a leading mention of the bot, a reply to one of its answers, a
message in one of its answer threads, a DM, or any message in an auto-answer channel."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.conversation import Turn


def strip_leading_mention(content: str, bot_id: int) -> str | None:
    """The text after a leading ``<@BOT_ID>`` / ``<@!BOT_ID>``, or None if it doesn't start so."""
    match = re.match(rf"\s*<@!?{bot_id}>", content)
    return content[match.end() :].strip() if match else None


@dataclass(frozen=True)
class Trigger:
    via: str  # mention | reply | thread | dm | auto
    text: str
    previous: Turn | None = None  # the turn a follow-up continues

    @property
    def explicit(self) -> bool:
        """Addressed to the bot on purpose (so a refusal deserves a reply, not silence)."""
        return self.via in ("mention", "reply", "dm")


def classify(
    content: str,
    *,
    bot_id: int,
    is_dm: bool,
    in_auto_channel: bool,
    replied_turn: Turn | None,
    thread_turn: Turn | None,
) -> Trigger | None:
    """The trigger for a message, or None if the bot should stay quiet."""
    previous = replied_turn or thread_turn
    after_mention = strip_leading_mention(content, bot_id)
    if after_mention is not None:
        return Trigger("mention", after_mention, previous)
    if replied_turn is not None:
        return Trigger("reply", content.strip(), replied_turn)
    if thread_turn is not None:
        return Trigger("thread", content.strip(), thread_turn)
    if is_dm:
        return Trigger("dm", content.strip())
    if in_auto_channel:
        return Trigger("auto", content.strip())
    return None
