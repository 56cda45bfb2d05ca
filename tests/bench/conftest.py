"""A small index of the real corpus, shared by the benchmarks that only read it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bench.support import MAX_PARAGRAPHS

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture(scope="session")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(corpus, index) of the real corpus's first paragraphs: builds in seconds (loads the model)."""
    from bench._setup import CORPUS_DIR, copy_corpus, settings_for
    from index.build import build_index

    root = tmp_path_factory.mktemp("bench-index")
    corpus = copy_corpus(CORPUS_DIR, root / "corpus", MAX_PARAGRAPHS)
    build_index(settings_for(corpus, root / "index"), force=True, progress=False)
    return corpus, root / "index"
