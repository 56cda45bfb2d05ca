"""Start-up: with no index the bot builds one first (and says so); a broken one is rebuilt."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.runner import prepare_engine
from index.build.store import CURRENT, VERSIONS
from index.config import IndexSettings

DOCUMENT = """——小测试文章

作者 | 2026年1月1日

一、背景

这是一篇很短的测试文章。它的主题是苹果的价格。

二、结论

苹果每斤三元，比去年便宜了一元。
"""


@pytest.fixture
def tiny(tmp_path: Path) -> IndexSettings:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "apples.txt").write_text(DOCUMENT, encoding="utf-8")
    return IndexSettings(corpus_dir=corpus, index_dir=tmp_path / "index")


def test_no_index_is_built_first_and_a_broken_one_rebuilt(
    tiny: IndexSettings, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="bot.runner"):
        engine = prepare_engine(tiny)
    assert "no index in" in caplog.text and "building it first" in caplog.text
    assert (tiny.index_dir / CURRENT).is_file()
    assert engine.loaded and "三元" in engine.ask("苹果多少钱一斤？").answer

    caplog.clear()
    (tiny.index_dir / VERSIONS / "broken").mkdir()
    (tiny.index_dir / CURRENT).write_text("broken\n", encoding="utf-8")
    with caplog.at_level(logging.INFO, logger="bot.runner"):
        engine = prepare_engine(tiny)
    assert "can't be used" in caplog.text and "no index in" not in caplog.text
    assert engine.snapshot.version != "broken" and "三元" in engine.ask("苹果多少钱一斤？").answer
