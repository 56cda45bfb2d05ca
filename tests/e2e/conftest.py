"""Fixtures and hooks of the end-to-end tests; the harness itself is in harness.py."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import corpus_index
from tests.e2e.harness import BotLauncher, BotUnderTest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: end-to-end: the real bot process against FakeDiscord")
    config.addinivalue_line("markers", "bench_smoke: a benchmark run on tiny sizes (checks the report only)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def e2e_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of corpus/ for the bots (read-only: each bot gets its own copy)."""
    index_dir = tmp_path_factory.mktemp("e2e-index") / "index"
    shutil.copytree(corpus_index(tmp_path_factory), index_dir)
    return index_dir


def bots_wanted(items: Sequence[pytest.Item]) -> list[str]:
    """The bots the selected tests use: a module names its bot in ``BOT`` ("shared", "reindex")."""
    names: list[str] = []
    for item in items:
        name = getattr(getattr(item, "module", None), "BOT", None)
        if name and "bot" in getattr(item, "fixturenames", ()) and name not in names:
            names.append(name)
    return names


@pytest.fixture(scope="session")
def launcher(
    request: pytest.FixtureRequest, e2e_index: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[BotLauncher]:
    """Starts every bot the selected tests need at once: they load in parallel, and a module's
    bot is usually up by the time the module runs."""
    bots = BotLauncher(e2e_index, tmp_path_factory.mktemp("bots"))
    try:
        for name in bots_wanted(request.session.items):
            bots.spawn(name)
        yield bots
    finally:
        bots.stop_all()


@pytest.fixture(scope="module")
def bot(request: pytest.FixtureRequest, launcher: BotLauncher) -> BotUnderTest:
    """The module's bot (``BOT`` in the module): "shared" is used by every module that leaves the
    index alone (each test with its own users), "reindex" by the module that changes it."""
    return launcher.get(request.module.BOT)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.failed:
        for value in getattr(item, "funcargs", {}).values():
            if isinstance(value, BotUnderTest):
                report.sections.append(("bot log (last lines)", value.log_tail()))
    return report
