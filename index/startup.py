"""Opening the index for answering: one start-up path for the CLI and the bot.

The CLI calls it with ``report`` printing to stderr; the bot can call it with ``report`` logging,
``rebuild_unusable`` and ``warm`` (a server would rather rebuild a broken index than stop, and
its first question shouldn't be the slow one).
"""

from __future__ import annotations

from collections.abc import Callable

from index.build.builder import build_index
from index.build.versions import current_version
from index.config import IndexSettings
from index.engine import Engine
from index.errors import IndexLoadError
from index.generate.settings import LLMSettings


def open_engine(
    settings: IndexSettings,
    llm: LLMSettings | None = None,
    *,
    report: Callable[[str], None],
    rebuild_unusable: bool = False,
    warm: bool = False,
) -> Engine:
    """An Engine with its index loaded, building the index first if there is none (said through
    ``report``). An unusable index (corrupt, or built for another model) raises IndexLoadError,
    or with ``rebuild_unusable`` is rebuilt from scratch. ``warm`` also loads the model and embeds
    the glossary's words now. Blocking."""
    if current_version(settings.index_dir) is None:
        report(f"no index in {settings.index_dir} yet: building it first …")
        report(build_index(settings, progress=False).summary(settings.index_dir))
    engine = Engine(settings, llm=llm)
    try:
        engine.snapshot  # noqa: B018 -- load now, so that a broken index fails before any question
    except IndexLoadError as error:
        if not rebuild_unusable:
            raise
        report(f"the index can't be used ({error}); rebuilding it …")
        report(build_index(settings, force=True, progress=False).summary(settings.index_dir))
        engine = Engine(settings, llm=llm)
        engine.snapshot  # noqa: B018 -- a still-broken index raises IndexLoadError to the caller
    if warm:
        engine.warm_up()
    return engine
