"""index/config.py: settings from defaults, ARTICLE_* variables, a TOML file and overrides, and
one-line errors naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.config import DEFAULT_MODEL, load_settings
from index.errors import SettingsError


def test_defaults() -> None:
    settings = load_settings()
    assert settings.corpus_dir == Path("corpus") and settings.index_dir == Path("var/index")
    assert settings.model == DEFAULT_MODEL and settings.chunk_size == 450 and settings.top_k == 5


def test_overrides_win_over_the_environment_and_none_means_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARTICLE_TOP_K", "9")
    monkeypatch.setenv("ARTICLE_INDEX_DIR", "/tmp/from-env")
    settings = load_settings(top_k=3, index_dir=None)
    assert settings.top_k == 3 and settings.index_dir == Path("/tmp/from-env")


def test_a_toml_file_sets_keys_the_environment_doesnt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "article.toml"
    config.write_text('top_k = 7\nchunk_size = 300\nmodel = "bundled:all-MiniLM-L6-v2"\n', encoding="utf-8")
    monkeypatch.setenv("ARTICLE_CONFIG", str(config))
    monkeypatch.setenv("ARTICLE_CHUNK_SIZE", "600")
    settings = load_settings()
    assert settings.top_k == 7 and settings.model == "bundled:all-MiniLM-L6-v2"
    assert settings.chunk_size == 600  # the environment wins over the file


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"chunk_size": 10}, "chunk_size (ARTICLE_CHUNK_SIZE)"),
        ({"top_k": 0}, "top_k (ARTICLE_TOP_K)"),
        ({"model": "   "}, "model (ARTICLE_MODEL)"),
    ],
)
def test_an_invalid_value_is_one_line_naming_the_field(overrides: dict, field: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(**overrides)
    message = str(caught.value)
    assert field in message and "\n" not in message
