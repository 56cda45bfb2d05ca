"""Settings for optional generative answers through an OpenAI-compatible endpoint (issue #7), or a
GGUF model run in-process with the ``local`` extra (``LLM_MODEL=gguf:/path/to.gguf``, issue #23).

Kept apart from ``index.generate.generator`` so that reading them never imports the ``openai`` client
(about a second and a half): the extractive path stays as fast to start as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from index.config import SettingsError, describe_validation_error

ENV_PREFIX = "LLM_"
LOCAL_PREFIX = "gguf:"  # LLM_MODEL=gguf:/path/to/model.gguf runs the file in-process (index/generate/local_llm.py)


class LLMSettings(BaseSettings):
    """``LLM_BASE_URL``, ``LLM_MODEL``, ``LLM_API_KEY``, ``LLM_TIMEOUT``, ``LLM_MAX_TOKENS``,
    ``LLM_TEMPERATURE``, ``LLM_DEADLINE``, ``LLM_STREAM``, ``LLM_PASSAGES``, ``LLM_JUDGE``, ``LLM_CHECK``,
    ``LLM_WRITE``, and for a local model ``LLM_THREADS``, ``LLM_CONTEXT``. Generative answers are off
    unless both the base URL and the model are set, or the model is a local file (``gguf:…``); an
    empty variable counts as unset."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, extra="ignore", validate_default=True, env_ignore_empty=True
    )

    base_url: str | None = Field(None, description="OpenAI-compatible API root, e.g. http://127.0.0.1:11434/v1.")
    model: str | None = Field(None, description="Model name as the server knows it.")
    api_key: SecretStr | None = Field(None, description="Bearer key; local servers need none.")
    timeout: float = Field(20.0, gt=0, le=600, allow_inf_nan=False, description="Seconds per attempt (each read).")
    max_tokens: int = Field(400, ge=16, le=32_000, description="Completion token budget.")
    temperature: float = Field(0.2, ge=0, le=2, allow_inf_nan=False)
    deadline: float = Field(
        30.0, gt=0, le=600, allow_inf_nan=False, description="Overall seconds per answer, retries included."
    )
    stream: bool = Field(True, description="The bot shows the answer as it is written (edits ≤ 1 per second).")
    passages: int = Field(8, ge=1, le=8, description="Passages the model reads (the cited ones first).")
    judge: bool = Field(True, description="A second reading of each answer by the model (one token).")
    check: bool = Field(
        True, description="Before writing, the model reads whether the best passages answer the question (one token)."
    )
    write: bool = Field(True, description="The model writes the answer; off: only its check, the extractive answer.")
    threads: int | None = Field(None, ge=1, le=256, description="Local model: CPU threads (default: all cores).")
    context: int = Field(4096, ge=512, le=131_072, description="Local model: context window in tokens.")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http:// or https:// URL such as http://127.0.0.1:11434/v1")
        return value.rstrip("/")

    @field_validator("write")
    @classmethod
    def _some_use(cls, value: bool, info: ValidationInfo) -> bool:
        if not value and not info.data.get("check", True):  # the model would load and never be asked
            raise ValueError("with LLM_CHECK off too the model has nothing to do; unset LLM_MODEL to answer without it")
        return value

    @field_validator("model")
    @classmethod
    def _strip(cls, value: str | None) -> str | None:
        if value is None:
            return None
        return value.strip() or None

    @field_validator("api_key")
    @classmethod
    def _blank_key(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None

    @property
    def local_path(self) -> Path | None:
        """The GGUF file of ``LLM_MODEL=gguf:/path/to.gguf``, else None (an endpoint's model)."""
        if self.model is None or not self.model.startswith(LOCAL_PREFIX):
            return None
        return Path(self.model[len(LOCAL_PREFIX) :]).expanduser()

    @property
    def enabled(self) -> bool:
        return self.model is not None and (self.base_url is not None or self.local_path is not None)

    @property
    def missing(self) -> list[str]:
        """The unset variables that keep generative answers off."""
        if self.local_path is not None:
            return []
        unset = [name for name in ("base_url", "model") if getattr(self, name) is None]
        return [f"{ENV_PREFIX}{name.upper()}" for name in unset]

    @property
    def label(self) -> str:
        """How answers say which path produced them: ``llm:<model>`` (a local file by its name)."""
        return f"llm:{self.model_name}"

    @property
    def model_name(self) -> str:
        local = self.local_path
        return f"{LOCAL_PREFIX}{local.stem}" if local is not None else self.model or ""


def load_llm_settings(**overrides: Any) -> LLMSettings:
    """Settings from the environment (and overrides), or SettingsError naming the bad field."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    try:
        return LLMSettings(**clean)
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error, prefix=ENV_PREFIX)) from None


def llm_for_flag(flag: bool | None) -> LLMSettings | None:
    """What ``--llm`` / ``--no-llm`` / neither means: settings to generate with, or None.

    ``--no-llm`` never reads the LLM_* variables (a broken one can't block extractive answers);
    neither flag: on when configured; ``--llm``: on, or SettingsError saying what is missing."""
    if flag is False:
        return None
    settings = load_llm_settings()
    if settings.enabled:
        return settings
    if flag:
        raise SettingsError(f"--llm needs {' and '.join(settings.missing)} to be set")
    return None
