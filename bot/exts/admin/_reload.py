"""Rebuilding and hot-swapping the index. Blocking functions: the cog runs them off the event loop.

A swap replaces one reference (Engine.swap): a question in flight keeps the snapshot it started
with. A new version that doesn't load is rejected and the old one keeps serving.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from index.build import build_index
from index.engine import Engine
from index.store import VERSIONS, IndexLoadError, current_version

Status = Literal["rebuilt", "unchanged", "reloaded", "rejected", "failed"]


@dataclass(frozen=True)
class ReloadOutcome:
    status: Status
    serving: str  # the version answering questions afterwards
    version: str = ""  # the version built or found
    summary: str = ""
    reason: str = ""


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:500]


def rebuild_and_swap(engine: Engine, force: bool = False) -> ReloadOutcome:
    """Build (incrementally unless ``force``), validate the new version, then swap it in."""
    settings = engine.settings
    serving = engine.snapshot.version
    try:
        result = build_index(settings, force=force, progress=False)
    except Exception as error:  # corpus errors, disk full, a model problem: all reported, none fatal
        return ReloadOutcome("failed", serving, reason=f"{type(error).__name__}: {_one_line(error)}")
    summary = result.summary(settings.index_dir)
    if result.version is None:
        # Nothing to build; but a CLI build may have finished that we don't serve yet.
        outcome = reload_if_new(engine)
        if outcome is not None and outcome.status == "rejected":
            return ReloadOutcome("rejected", outcome.serving, outcome.version, summary, outcome.reason)
        return ReloadOutcome("unchanged", engine.snapshot.version, engine.snapshot.version, summary)
    try:
        snapshot = engine.load_version(settings.index_dir / VERSIONS / result.version)
    except IndexLoadError as error:
        return ReloadOutcome("rejected", serving, result.version, summary, _one_line(error))
    engine.swap(snapshot)
    return ReloadOutcome("rebuilt", snapshot.version, result.version, summary)


def reload_if_new(engine: Engine, rejected: str | None = None) -> ReloadOutcome | None:
    """Serve the version CURRENT names if it is new (e.g. built by `python -m index build`).

    None if there is nothing new, or if it is the version already rejected (so a broken build is
    reported once, not on every poll)."""
    version = current_version(engine.settings.index_dir)
    serving = engine.snapshot.version
    if version is None or version in (serving, rejected):
        return None
    try:
        engine.swap(engine.load_version(engine.settings.index_dir / VERSIONS / version))
    except IndexLoadError as error:
        return ReloadOutcome("rejected", serving, version, reason=_one_line(error))
    return ReloadOutcome("reloaded", version, version)
