"""Hot reload: /reindex rebuilds and swaps; a CLI build is picked up; a broken build is rejected
and the old index keeps serving."""

from __future__ import annotations

from pathlib import Path

from bot.exts.admin._reload import rebuild_and_swap, reload_if_new
from index.build.builder import build_index
from index.build.store import CURRENT, VERSIONS
from index.engine import Engine

QUESTION = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"


def change_corpus(corpus: Path) -> None:
    document = next(corpus.glob("*.txt"))
    with document.open("a", encoding="utf-8") as handle:
        handle.write("\n\n附记：本文的补充段落，用来触发一次增量重建。\n")


def test_reindex_rebuilds_and_swaps(index_copy) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(index_copy)
    old = engine.snapshot
    unchanged = rebuild_and_swap(engine)
    assert unchanged.status == "unchanged" and unchanged.serving == old.version
    assert engine.snapshot is old

    change_corpus(index_copy.corpus_dir)
    outcome = rebuild_and_swap(engine)
    assert outcome.status == "rebuilt", outcome
    assert engine.snapshot.version == outcome.serving == outcome.version != old.version
    assert "built" in outcome.summary and "reused" in outcome.summary
    assert "70.2%" in engine.ask(QUESTION).answer
    # a question that started before the swap still has the old snapshot, intact
    assert old.stored.chunks and old.retriever is not None


def test_a_failed_rebuild_leaves_the_old_index_serving(index_copy, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(index_copy.model_copy(update={"corpus_dir": tmp_path / "no-such-corpus"}))
    before = engine.snapshot.version
    outcome = rebuild_and_swap(engine)
    assert outcome.status == "failed" and outcome.serving == before and outcome.reason
    assert engine.snapshot.version == before


def test_cli_builds_are_picked_up_and_broken_ones_rejected(index_copy) -> None:  # type: ignore[no-untyped-def]
    engine = Engine(index_copy)
    first = engine.snapshot
    assert reload_if_new(engine) is None

    change_corpus(index_copy.corpus_dir)
    build_index(index_copy, progress=False)  # what `python -m index build` does
    outcome = reload_if_new(engine)
    assert outcome is not None and outcome.status == "reloaded"
    assert engine.snapshot.version == outcome.version != first.version
    serving = engine.snapshot

    broken = index_copy.index_dir / VERSIONS / "29990101T000000000000Z-broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json", encoding="utf-8")
    (index_copy.index_dir / CURRENT).write_text(broken.name + "\n", encoding="utf-8")
    rejected = reload_if_new(engine)
    assert rejected is not None and rejected.status == "rejected"
    assert rejected.version == broken.name and rejected.serving == serving.version and rejected.reason
    assert engine.snapshot is serving  # the old one keeps serving
    assert "70.2%" in engine.ask(QUESTION).answer
    assert reload_if_new(engine) is None  # reported once, not on every poll: the engine remembers it
