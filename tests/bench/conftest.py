"""The benchmarks that only read an index (latency, cli) read the session index of corpus/
(tests/conftest.py): no second build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"


@pytest.fixture(scope="session")
def session_index(built_index) -> tuple[Path, Path]:  # type: ignore[no-untyped-def]
    """(corpus, index) of the session index; read-only."""
    return built_index.corpus_dir, built_index.index_dir
