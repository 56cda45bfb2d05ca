"""Building the index (index/build/builder.py): incremental reuse, --force, and atomicity under SIGKILL."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from index.build.builder import build_index, chunk_sentences
from index.build.loading import load_current
from index.build.versions import current_version
from index.engine import Engine
from index.models import Chunk
from tests.index.support import ADDED_SENTENCE, ARTICLE, REPO, cli_env

SWE_QUESTION = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"


def _chunk(section: str, text: str, start: int = 0) -> Chunk:
    return Chunk(
        chunk_id="x", doc_id="d", section=section, paragraphs=[1], start=start, end=start + len(text), text=text
    )


def test_chunk_sentences_have_absolute_offsets() -> None:
    text = "一、标题\n\n第一句。第二句！\nThird one. Fourth?"
    chunk = _chunk("一、标题", text, start=100)
    source = " " * 100 + text + "\n尾句。"
    sentences = chunk_sentences([chunk, _chunk("一、标题", "尾句。", start=100 + len(text) + 1)])
    quoted = [source[s.start : s.end] for s in sentences]
    assert quoted == ["一、标题", "第一句。", "第二句！", "Third one.", "Fourth?", "尾句。"]
    assert [s.chunk for s in sentences] == [0, 0, 0, 0, 0, 1]


def test_unchanged_corpus_is_up_to_date(built_index) -> None:  # type: ignore[no-untyped-def]
    before = current_version(built_index.index_dir)
    result = build_index(built_index, progress=False)
    assert result.version is None
    assert (result.embedded, result.reused) == (0, 0)
    assert result.chunks == len(load_current(built_index.index_dir).chunks)
    assert current_version(built_index.index_dir) == before
    summary = result.summary(built_index.index_dir)
    assert "up to date" in summary and "\n" not in summary


def test_an_index_with_an_older_glossary_format_is_rebuilt_reusing_its_embeddings(index_copy) -> None:  # type: ignore[no-untyped-def]
    import json

    from index.english.dictionary import GLOSSARY_FORMAT

    version = load_current(index_copy.index_dir).path
    manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
    del manifest["glossary_format"]  # as written before the format was recorded
    (version / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert load_current(index_copy.index_dir).manifest.glossary_format == 1
    result = build_index(index_copy, progress=False)
    assert result.version is not None and result.embedded == 0
    rebuilt = load_current(index_copy.index_dir)
    assert rebuilt.manifest.glossary_format == GLOSSARY_FORMAT
    assert "steel plate" in rebuilt.glossary


def test_force_makes_the_glossary_again(index_copy) -> None:  # type: ignore[no-untyped-def]
    import json

    from index.build.store import GLOSSARY

    version = load_current(index_copy.index_dir).path
    (version / GLOSSARY).write_text(json.dumps({"price": ["价格"]}), encoding="utf-8")  # an older, smaller one
    assert build_index(index_copy, progress=False).version is None  # up to date: kept as it is
    assert build_index(index_copy, force=True, progress=False).version is not None
    assert "musk" in load_current(index_copy.index_dir).glossary


def test_incremental_rebuild_embeds_only_what_changed(rebuilt_index) -> None:  # type: ignore[no-untyped-def]
    settings, old, result = rebuilt_index
    assert result.version is not None and result.version != old
    assert current_version(settings.index_dir) == result.version
    stored = load_current(settings.index_dir)
    total = len(stored.chunks) + 2 * len(stored.sentences)  # a sentence is embedded with its English gloss
    # the edited chunk's passage, the one sentence added to it and its gloss; everything else is reused
    assert result.embedded == 3
    assert result.reused == total - 3 > 0
    assert stored.manifest.reused_embeddings == result.reused
    summary = result.summary(settings.index_dir)
    assert summary.startswith(f"built {result.version}") and "embedded 3" in summary and "\n" not in summary


def test_incremental_rebuild_cleans_only_old_staging_folders(rebuilt_index) -> None:  # type: ignore[no-untyped-def]
    settings, old, result = rebuilt_index
    names = {p.name for p in (settings.index_dir / "versions").iterdir()}
    assert ".tmp-stale-old" not in names  # an hour old: a build that died
    assert ".tmp-stale-young" in names  # may be another build in progress
    assert {old, result.version} <= names  # the previous version is kept (keep_versions=2)


def test_rebuilt_text_is_searchable(rebuilt_index) -> None:  # type: ignore[no-untyped-def]
    settings, _, _ = rebuilt_index
    engine = Engine(settings)
    top = engine.search("马斯克养的柴犬叫什么名字？").passages[0]
    assert ADDED_SENTENCE in top.text
    answer = engine.ask("马斯克养的柴犬叫什么名字？")
    assert not answer.abstained and "豆豆" in answer.answer


@pytest.mark.model
def test_force_reembeds_everything(tiny_corpus: Path, tmp_path: Path) -> None:
    from index.config import load_settings

    settings = load_settings(corpus_dir=tiny_corpus, index_dir=tmp_path / "index")
    first = build_index(settings, progress=False)
    total = first.chunks + 2 * first.sentences  # each sentence and its English gloss
    assert first.version and first.documents == 2 and first.embedded == total and first.reused == 0

    assert build_index(settings, progress=False).version is None
    forced = build_index(settings, force=True, progress=False)
    assert forced.version not in (None, first.version)
    assert (forced.embedded, forced.reused) == (total, 0)
    assert current_version(settings.index_dir) == forced.version


def test_a_copy_of_the_article_indexed_elsewhere_reads_the_renderings_the_package_ships(
    index_copy, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """Renderings are keyed by content: `--corpus` on the article as the outside checks index it (a
    folder holding only the text) gets the English the bundled corpus gets, and no sentence of it is
    said to be waiting for `enrich` (built over a copy of the session index: its embeddings reused)."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "article.txt").write_bytes(ARTICLE.read_bytes())
    bundled = load_current(index_copy.index_dir)
    settings = index_copy.model_copy(update={"corpus_dir": folder})
    result = build_index(settings, progress=False)
    assert result.version and "enrich" not in result.summary(settings.index_dir)
    copy = load_current(settings.index_dir)
    assert copy.english_view == "rendered" and copy.glosses == bundled.glosses and copy.shown == bundled.shown
    assert [copy.reader_english(i) for i in range(len(copy.sentences))] == [
        bundled.reader_english(i) for i in range(len(bundled.sentences))
    ]


@pytest.mark.model
def test_a_glossed_corpus_sharing_a_sentence_with_the_article_stays_glossed(tiny_corpus: Path, tmp_path: Path) -> None:
    """The package's renderings serve any corpus holding the sentence ("这意味着什么？" in an essay of
    one's own), but one shared sentence doesn't make the corpus an enriched one: the answer model's
    English thresholds stay the glossed view's."""
    from index.config import load_settings

    (tiny_corpus / "essay.md").write_text("# 随笔\n\n价格又涨了。这意味着什么？意味着大家更穷了。\n", encoding="utf-8")
    settings = load_settings(corpus_dir=tiny_corpus, index_dir=tmp_path / "index")
    build_index(settings, progress=False)
    stored = load_current(settings.index_dir)
    shared = next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s) == "这意味着什么？")
    assert stored.rendered is not None and sum(stored.rendered) == 1 and stored.rendered[shared]
    assert stored.english_view == "glossed" and stored.reader_english(shared) == "What does this mean?"


# -- atomicity: SIGKILL a real `python -m index build --force` --------------------------------

PROGRESS = re.compile(rb"\d+/\d+ \[")  # tqdm: "embedding:   0%|     | 0/105 [00:00<?, ?text/s]"


def _kill_build(settings, moment: str) -> tuple[bool, bytes]:  # type: ignore[no-untyped-def]
    """Start a forced build of ``settings`` and SIGKILL it at ``moment``; returns (was it still
    running when killed, what it wrote to its terminal)."""
    argv = [
        sys.executable,
        "-m",
        "index",
        "build",
        "--force",
        "--index",
        str(settings.index_dir),
        "--corpus",
        str(settings.corpus_dir),
    ]
    master, slave = pty.openpty()  # a terminal, so that the build shows its progress bar
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, cwd=REPO, env=cli_env()
    )
    os.close(slave)
    seen = b""
    try:
        if moment == "first progress":
            deadline = time.monotonic() + 240
            while not PROGRESS.search(seen) and time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 1.0)
                if ready:
                    try:
                        seen += os.read(master, 4096)
                    except OSError:  # the build exited and closed the terminal
                        break
                elif process.poll() is not None:
                    break
        else:
            time.sleep(float(moment.rstrip("s")))
        running = process.poll() is None
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    return running, seen


@pytest.mark.parametrize("moment", ["0.5s", "2s", "first progress"])
def test_killed_build_leaves_the_previous_index_serving(index_copy, moment: str) -> None:  # type: ignore[no-untyped-def]
    before = current_version(index_copy.index_dir)
    running, seen = _kill_build(index_copy, moment)
    if moment == "first progress":
        assert PROGRESS.search(seen), f"no progress bar on the terminal: {seen[-300:]!r}"
    assert running, "the build finished before it could be killed"
    assert current_version(index_copy.index_dir) == before
    stored = load_current(index_copy.index_dir)
    assert stored.version == before
    answer = Engine(index_copy).ask(SWE_QUESTION)
    assert "70.2%" in answer.answer
    assert build_index(index_copy, progress=False).version is None  # and it is still up to date


def test_an_index_made_with_other_tech_terms_gets_a_new_glossary(index_copy) -> None:  # type: ignore[no-untyped-def]
    import json

    from index.text.tokens import terms_digest

    version = load_current(index_copy.index_dir).path
    manifest = json.loads((version / "manifest.json").read_text(encoding="utf-8"))
    manifest["terms_sha256"] = "0" * 64  # as if tech_terms.tsv had been edited since
    (version / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    glossary = json.loads((version / "glossary.json").read_text(encoding="utf-8"))
    (version / "glossary.json").write_text(json.dumps({**glossary, "comput": ["stale"]}), encoding="utf-8")
    result = build_index(index_copy, progress=False)
    assert result.version is not None and result.embedded == 0
    rebuilt = load_current(index_copy.index_dir)
    assert rebuilt.manifest.terms_sha256 == terms_digest()
    assert rebuilt.glossary["comput"] == ["算力"]
