"""Logging: the token never reaches a log line, and each answered question is one JSON line."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
from collections.abc import Iterable, Sequence

REDACTED = "[REDACTED]"
QUESTIONS_LOGGER = "bot.questions"


def secrets_of(token: str | None) -> list[str]:
    """What to hide: the token, and its signature part on its own (in case it is logged split)."""
    if not token:
        return []
    secrets = [token]
    parts = token.split(".")
    if len(parts) >= 3 and len(parts[-1]) >= 16:
        secrets.append(parts[-1])
    return secrets


def redact(text: str, secrets: Iterable[str]) -> str:
    for secret in sorted(secrets, key=len, reverse=True):  # the whole token before its parts
        if secret:
            text = text.replace(secret, REDACTED)
    return text


# Interaction tokens (valid 15 minutes, enough to answer as the bot) in webhook and callback URLs
# and in gateway payloads ("token": "..."), as discord.py logs them at DEBUG.
_URL_TOKEN = re.compile(r"(/(?:webhooks|interactions)/\d+/)(?!\*\*\*/)[^/?\s'\"]+")  # *** : masked already
_TOKEN_FIELD = re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+""")
PAYLOAD_CHARS = 120  # longer arguments of discord.py's DEBUG lines are summarised


def mask_tokens(text: str) -> str:
    return _TOKEN_FIELD.sub(r"\1" + REDACTED, _URL_TOKEN.sub(r"\1" + REDACTED, text))


def summarised(value: object) -> object:
    """A discord.py DEBUG argument without what people wrote: a gateway event becomes its op,
    type and sequence; a request or response body its size."""
    if isinstance(value, dict) and "op" in value:
        return f"<op {value.get('op')} {value.get('t') or ''} seq {value.get('s')}>"
    if isinstance(value, dict | list | bytes) or (isinstance(value, str) and len(value) > PAYLOAD_CHARS):
        return f"<{type(value).__name__} of {len(str(value))} chars>"
    return value


class RedactingFilter(logging.Filter):
    """A handler filter: rewrites the message, traceback and stack text with the secrets and
    interaction tokens masked, and discord.py's DEBUG payloads (message texts) summarised."""

    def __init__(self, secrets: Sequence[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno <= logging.DEBUG and record.name.startswith("discord") and record.args:
            args = record.args if isinstance(record.args, tuple) else (record.args,)
            record.args = tuple(summarised(a) for a in args)
        message = record.getMessage()
        clean = mask_tokens(redact(message, self.secrets))
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_tokens(redact(record.exc_text, self.secrets))
        if record.stack_info:
            record.stack_info = mask_tokens(redact(record.stack_info, self.secrets))
        return True


def setup_logging(level: int | str, secrets: Sequence[str] = ()) -> logging.Handler:
    """One stderr handler on the root logger, with the redacting filter on it (handler filters see
    records from every logger, including discord.py's)."""
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_article_bot", False):
            root.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)
    handler._article_bot = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter(secrets))
    handler.setLevel(level)  # also for libraries that set their own loggers' levels lower
    root.addHandler(handler)
    root.setLevel(level)
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        logging.getLogger("faiss.loader").setLevel(logging.WARNING)  # "loading faiss…" chatter
    return handler


def add_secrets(secrets: Sequence[str]) -> None:
    """Extend every redacting filter on the root logger's handlers (the token is known late)."""
    for handler in logging.getLogger().handlers:
        for item in handler.filters:
            if isinstance(item, RedactingFilter):
                item.secrets.extend(s for s in secrets if s and s not in item.secrets)


def hash_user(user_id: int) -> str:
    """A stable pseudonym for logs: who asked a lot is visible, who they are is not."""
    return hashlib.sha256(str(user_id).encode()).hexdigest()[:16]


def question_line(
    *,
    via: str,
    user_id: int,
    guild_id: int | None,
    channel_id: int | None,
    latency_ms: float,
    abstained: bool | None,
    chunk_ids: Sequence[str],
    index_version: str,
    follow_up: bool = False,
    outcome: str = "answered",
    answer_id: str | None = None,
    confidence: float | None = None,
    hedged: bool = False,
) -> str:
    """The one structured line logged per question."""
    return json.dumps(
        {
            "event": "question",
            "outcome": outcome,
            "via": via,
            "user": hash_user(user_id),
            "guild": guild_id,
            "channel": channel_id,
            "latency_ms": round(latency_ms, 1),
            "abstained": abstained,
            "confidence": confidence,
            "hedged": hedged,
            "follow_up": follow_up,
            "top_chunks": list(chunk_ids)[:5],
            "index_version": index_version,
            "answer_id": answer_id,
        },
        ensure_ascii=False,
    )
