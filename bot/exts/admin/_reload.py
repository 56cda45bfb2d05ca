"""Rebuilding and hot-swapping the index. Blocking functions: the cog runs them off the event loop.

A swap replaces one reference (Engine.swap): a question in flight keeps the snapshot it started
with. A new version that doesn't load is rejected and the old one keeps serving.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from index import Engine, IndexLoadError, build_index, current_version

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
    """Build (incrementally unless ``force``), then serve what CURRENT names (validated first)."""
    settings = engine.settings
    serving = engine.snapshot.version
    try:
        result = build_index(settings, force=force, progress=False)
    except Exception as error:  # corpus errors, disk full, a model problem: all reported, none fatal
        return ReloadOutcome("failed", serving, reason=f"{type(error).__name__}: {_one_line(error)}")
    summary = result.summary(settings.index_dir)
    # CURRENT now names this build, or, with nothing to build, maybe a CLI build we don't serve yet
    outcome = reload_if_new(engine)
    if outcome is not None and outcome.status == "rejected":
        return replace(outcome, summary=summary)
    serving = engine.snapshot.version
    if result.version is None:
        return ReloadOutcome("unchanged", serving, serving, summary)
    return ReloadOutcome("rebuilt", serving, result.version, summary)


def reload_if_new(engine: Engine) -> ReloadOutcome | None:
    """Serve the version CURRENT names if it is new (e.g. built by `python -m index build`), by
    Engine.reload_if_changed: the CLI's reload path.

    None if there is nothing new, or if it is a version already rejected (the engine remembers
    it, so a broken build is reported once, not on every poll)."""
    serving = engine.snapshot.version
    # An unreadable CURRENT raises IndexLoadError to the caller: no version to reject, only a
    # folder that can't be looked at (the watcher logs that once).
    named = current_version(engine.settings.index_dir) or ""
    try:
        version = engine.reload_if_changed()
    except IndexLoadError as error:
        return ReloadOutcome("rejected", serving, named, reason=_one_line(error))
    return None if version is None else ReloadOutcome("reloaded", version, version)
