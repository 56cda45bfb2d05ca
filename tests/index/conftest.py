"""Make ``tests.fakeopenai`` importable under a bare ``pytest`` too (``python -m pytest``, as the
Makefile runs it, already has the repository root on sys.path)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


# -- shared fixtures of the index suite (tests/conftest.py builds the session index) -----------

from tests.index.support import ADDED_SENTENCE, ARTICLE, EDITED_PARAGRAPH, TINY_DOCS, copy_index  # noqa: E402


@pytest.fixture
def index_copy(built_index, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A copy of the session index and corpus, for a test that rebuilds, edits or breaks it."""
    return copy_index(built_index, tmp_path)


@pytest.fixture
def tiny_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "tiny-corpus"
    corpus.mkdir()
    for name, text in TINY_DOCS.items():
        (corpus / name).write_text(text, encoding="utf-8")
    return corpus


@pytest.fixture(scope="session")
def rebuilt_index(built_index, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A copy of the session index whose corpus had one paragraph edited, incrementally rebuilt.

    Before the rebuild, two stale staging folders (as a killed build leaves them) are put in
    ``versions/``: one an hour old, one fresh. Returns (settings, old version, BuildResult)."""
    from index.build.builder import build_index
    from index.build.versions import current_version

    settings = copy_index(built_index, tmp_path_factory.mktemp("rebuilt"))
    old = current_version(settings.index_dir)
    versions = settings.index_dir / "versions"
    for name, age in ((".tmp-stale-old", 7200), (".tmp-stale-young", 0)):
        (versions / name).mkdir()
        (versions / name / "chunks.jsonl").write_text('{"partial": ', encoding="utf-8")
        if age:
            past = (versions / name).stat().st_mtime - age
            os.utime(versions / name, (past, past))
    article = settings.corpus_dir / ARTICLE.name
    text = article.read_text(encoding="utf-8")
    assert text.count(EDITED_PARAGRAPH) == 1
    article.write_text(text.replace(EDITED_PARAGRAPH, EDITED_PARAGRAPH + ADDED_SENTENCE), encoding="utf-8")
    result = build_index(settings, progress=False)
    return settings, old, result
