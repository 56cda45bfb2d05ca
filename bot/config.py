"""The bot's settings: one pydantic-settings model fed by the environment and ``.env``.

Discord's own names are used verbatim (``DISCORD_TOKEN``, ``DISCORD_API_BASE_URL``,
``DISCORD_GATEWAY_URL``); the bot's knobs use the prefix ``BOT_``; the index settings are the
answering engine's own ``ARTICLE_*`` variables, composed in as ``settings.index``.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from index import IndexSettings, SettingsError, describe_validation_error

DEFAULT_API_BASE_URL = "https://discord.com/api/v10"
ENV_FILE = ".env"
ENV_PREFIX = "BOT_"
# Fields read from an environment variable that is not ``BOT_<FIELD>``.
_ENV_NAMES = {
    "discord_token": "DISCORD_TOKEN",
    "discord_api_base_url": "DISCORD_API_BASE_URL",
    "discord_gateway_url": "DISCORD_GATEWAY_URL",
}

IdList = Annotated[list[int], NoDecode]  # NoDecode: we parse "1,2,3" as well as JSON ourselves


def _alias(field: str) -> AliasChoices:
    return AliasChoices(_ENV_NAMES[field], field)


class BotSettings(BaseSettings):
    """Everything the bot reads at start. ``index`` holds the engine's settings (``ARTICLE_*``)."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        None, validation_alias=_alias("discord_token"), description="The bot token (Developer Portal → Bot)."
    )
    discord_api_base_url: str = Field(
        DEFAULT_API_BASE_URL,
        validation_alias=_alias("discord_api_base_url"),
        description="REST base URL (discord.http.Route.BASE); a local fake server or a proxy in tests.",
    )
    discord_gateway_url: str | None = Field(
        None,
        validation_alias=_alias("discord_gateway_url"),
        description="Gateway WebSocket URL; default discord.py's own (wss://gateway.discord.gg/).",
    )

    guild_ids: IdList = Field(default_factory=list, description="Guilds to sync commands to instantly (dev).")
    auto_answer_channel_ids: IdList = Field(
        default_factory=list,
        description="Channels where every message is a question (needs message content).",
    )
    allowed_channel_ids: IdList = Field(
        default_factory=list,
        description="If set, the bot answers only in these channels (and their threads).",
    )
    admin_user_ids: IdList = Field(default_factory=list, description="Users allowed to /reindex anywhere.")
    admin_channel_id: int | None = Field(
        None, gt=0, description="Channel told when a command-line build is served or rejected."
    )
    allow_dms: bool = Field(True, description="Answer in direct messages.")
    cooldown_count: int = Field(5, ge=1, le=1000, description="Questions per user per cooldown window.")
    cooldown_seconds: float = Field(60.0, gt=0, le=86_400, description="Length of the sliding window.")
    max_question_chars: int = Field(1000, ge=10, le=2000, description="Longest question accepted.")
    threads: bool = Field(False, description="Open a thread on each answer for follow-ups.")
    message_content: bool | None = Field(
        None,
        description="Request the privileged message content intent; default: only if auto-answer "
        "channels or threads need it.",
    )
    feedback_db: Path = Field(Path("var/feedback.sqlite3"), description="SQLite file for answers and feedback.")
    poll_seconds: float = Field(5.0, ge=0.5, le=3600, description="How often to look for a new index build.")
    conversation_size: int = Field(5000, ge=10, le=1_000_000, description="Answers remembered for follow-ups.")
    sync_commands: bool = Field(True, description="Sync slash commands with Discord at start.")
    shutdown_seconds: float = Field(3.0, ge=0, le=120, description="Grace for in-flight answers at shutdown.")
    answer_workers: int = Field(
        default_factory=lambda: os.cpu_count() or 1,
        ge=1,
        le=64,
        description="Questions computed at once (default: the machine's cores); the rest wait their turn.",
    )
    delivery_seconds: float = Field(
        14.5 * 60,
        ge=1,
        le=24 * 3600,
        description="How long to keep retrying an answer Discord refuses (an interaction's token lives 15 min).",
    )
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING, ERROR.")

    index: IndexSettings = Field(default_factory=IndexSettings, exclude=True)

    @field_validator("guild_ids", "auto_answer_channel_ids", "allowed_channel_ids", "admin_user_ids", mode="before")
    @classmethod
    def _id_list(cls, value: Any) -> Any:
        """'1, 2,3', '[1, 2]', a single id, or a list: Discord ids are positive integers."""
        if value is None:
            return []
        if isinstance(value, int):
            return [value]
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return []
            if text.startswith("["):
                try:
                    value = json.loads(text)
                except json.JSONDecodeError as error:
                    raise ValueError(f"not a JSON list ({error.msg})") from None
            else:
                value = [part.strip() for part in text.split(",") if part.strip()]
        if not isinstance(value, list | tuple | set):
            raise ValueError("expected comma-separated ids or a JSON list")
        ids = []
        for item in value:
            text = str(item).strip()
            if not text.isdigit() or int(text) <= 0:
                raise ValueError(f"{text!r} is not a Discord id (a positive integer)")
            ids.append(int(text))
        return ids

    @field_validator("discord_token", mode="before")
    @classmethod
    def _token(cls, value: Any) -> Any:
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if value is None or not str(value).strip():
            return None  # missing: `run` explains how to get one; other commands don't need it
        text = str(value).strip()
        if text.lower().startswith("bot "):
            text = text[4:].strip()  # a pasted Authorization header value
        if any(ch.isspace() for ch in text):
            raise ValueError("must not contain spaces or line breaks")
        return text

    @field_validator("discord_api_base_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https:// (e.g. https://discord.com/api/v10)")
        return value

    @field_validator("discord_gateway_url", mode="before")
    @classmethod
    def _gateway_url(cls, value: Any) -> Any:
        if value is None or not str(value).strip():
            return None
        value = str(value).strip()
        if not value.startswith(("ws://", "wss://")):
            raise ValueError("must start with ws:// or wss:// (e.g. wss://gateway.discord.gg/)")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: Any) -> str:
        level = str(value).strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level

    @model_validator(mode="after")
    def _channels_consistent(self) -> BotSettings:
        if self.allowed_channel_ids:
            # An auto-answer channel outside the allow-list would be silently dead: allow it.
            missing = [c for c in self.auto_answer_channel_ids if c not in self.allowed_channel_ids]
            self.allowed_channel_ids = [*self.allowed_channel_ids, *missing]
        return self

    # -- derived ------------------------------------------------------------------------
    @property
    def token(self) -> str | None:
        return self.discord_token.get_secret_value() if self.discord_token else None

    @property
    def wants_message_content(self) -> bool:
        if self.message_content is not None:
            return self.message_content
        return bool(self.auto_answer_channel_ids) or self.threads

    @property
    def log_level_number(self) -> int:
        return int(getattr(logging, self.log_level))


def env_name(field: str) -> str:
    """The environment variable that sets a field."""
    return _ENV_NAMES.get(field, f"{ENV_PREFIX}{field.upper()}")


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors():
        loc = [str(p) for p in item["loc"]]
        field = loc[0] if loc else "settings"
        field = next((f for f, env in _ENV_NAMES.items() if env == field), field)
        msg = str(item["msg"]).removeprefix("Value error, ")
        parts.append(f"{field} ({env_name(field)}): {msg}")
    return "invalid setting: " + "; ".join(parts)


def load_bot_settings(env_file: str | Path | None = ENV_FILE, **overrides: Any) -> BotSettings:
    """Settings from the environment, ``.env`` and ``overrides``; SettingsError naming the bad field."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    env_file = env_file if env_file is None or Path(env_file).is_file() else None
    try:
        index = clean.pop("index", None) or IndexSettings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None
    try:
        return BotSettings(_env_file=env_file, index=index, **clean)  # type: ignore[call-arg]
    except ValidationError as error:
        raise SettingsError(_describe(error)) from None
