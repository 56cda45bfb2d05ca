"""Shared fixtures: one real index built from corpus/ per session, and a real Engine over it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests see only the settings they set: no developer .env, token or BOT_*/ARTICLE_* leak in."""
    for name in list(os.environ):
        if name.startswith(("BOT_", "ARTICLE_", "DISCORD_")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="session")
def index_settings(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from index.build import build_index
    from index.config import IndexSettings

    root = tmp_path_factory.mktemp("index")
    settings = IndexSettings(corpus_dir=CORPUS, index_dir=root / "index")
    build_index(settings, progress=False)
    return settings


@pytest.fixture(scope="session")
def engine(index_settings):  # type: ignore[no-untyped-def]
    from index.engine import Engine

    engine = Engine(index_settings)
    engine.snapshot  # noqa: B018 -- load once for the session
    return engine


@pytest.fixture
def index_copy(index_settings, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A private copy of the corpus and the built index, for tests that rebuild or break it."""
    corpus = tmp_path / "corpus"
    shutil.copytree(index_settings.corpus_dir, corpus)
    index_dir = tmp_path / "index"
    shutil.copytree(index_settings.index_dir, index_dir)
    return index_settings.model_copy(update={"corpus_dir": corpus, "index_dir": index_dir})
