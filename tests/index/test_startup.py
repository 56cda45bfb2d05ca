"""index/startup.py: opening an index for answering, building it first when there is none, and
rebuilding an unusable one only when asked to (the bot's choice; the CLI fails with the fix named)."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.build.store import CURRENT, VERSIONS
from index.config import load_settings
from index.errors import IndexLoadError
from index.startup import open_engine

pytestmark = pytest.mark.model  # builds the tiny corpus's index


def test_open_builds_first_then_refuses_or_rebuilds_an_unusable_index(tiny_corpus: Path, tmp_path: Path) -> None:
    settings = load_settings(corpus_dir=tiny_corpus, index_dir=tmp_path / "index")
    said: list[str] = []
    engine = open_engine(settings, report=said.append)
    assert engine.loaded and "building it first" in said[0] and said[1].startswith("built ")
    assert "5 元" in engine.ask("苹果每斤多少钱？").answer

    said.clear()
    assert open_engine(settings, report=said.append).snapshot.version == engine.snapshot.version
    assert said == []  # an index that loads is used as it is

    (settings.index_dir / VERSIONS / "broken").mkdir()
    (settings.index_dir / CURRENT).write_text("broken\n", encoding="utf-8")
    with pytest.raises(IndexLoadError):
        open_engine(settings, report=said.append)
    assert said == []

    rebuilt = open_engine(settings, report=said.append, rebuild_unusable=True, warm=True)
    assert "can't be used" in said[0] and said[1].startswith("built ")
    assert rebuilt.snapshot.version != "broken" and "5 元" in rebuilt.ask("苹果每斤多少钱？").answer
