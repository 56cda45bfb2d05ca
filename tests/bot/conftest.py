"""Bot test fixtures: a clean environment, and the session index (tests/conftest.py) under its bot names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.index.support import copy_index

os.environ.setdefault("HF_HUB_OFFLINE", "1")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests see only the settings they set: no developer .env, token or BOT_*/ARTICLE_* leak in."""
    for name in list(os.environ):
        if name.startswith(("BOT_", "ARTICLE_", "DISCORD_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def index_settings(built_index):  # type: ignore[no-untyped-def]
    """The session index of corpus/ (tests/conftest.py), under the name these tests use.
    ``engine`` comes from tests/conftest.py too: one build and one model load per session."""
    return built_index


@pytest.fixture
def index_copy(index_settings, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A private copy of the corpus and the built index, for tests that rebuild or break it."""
    return copy_index(index_settings, tmp_path)
