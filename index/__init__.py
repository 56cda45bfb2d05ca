"""Index, retrieval and answers for the article bot: the front door.

Loading the corpus, chunking, embedding, the FAISS store, hybrid retrieval, extractive
answers and the `python -m index` CLI. The Discord bot (`bot`) imports what it needs from here,
``from index import Engine, AskResult, …``; this package never imports `bot`.

The names below load on first use (PEP 562): ``import index`` alone, and so
``python -m index --help`` or ``stats``, imports neither numpy, faiss nor torch.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from index._version import __version__

# The answer path's matrix products are small (a question against a few hundred vectors), and a
# second BLAS thread waits for a core beside the encoder's OpenMP threads: one BLAS thread answered
# 1 ms sooner per question on 2 cores (bench/README.md). Read by OpenBLAS when numpy loads; a
# setting of the environment's own wins. APPLIED_DEFAULTS: what was set here (bench/latency.py
# times the bare encoder without them, as a user's own process would run).
THREAD_DEFAULTS = {"OPENBLAS_NUM_THREADS": "1"}
APPLIED_DEFAULTS = {k: v for k, v in THREAD_DEFAULTS.items() if k not in os.environ}
os.environ.update(APPLIED_DEFAULTS)

# Each exported name and the module that defines it.
_EXPORTS: dict[str, str] = {
    # answering: the engine and what it returns
    "Engine": "index.engine",
    "PartialHandler": "index.engine",
    "AskResult": "index.models",
    "SearchResult": "index.models",
    "Citation": "index.models",
    "Passage": "index.models",
    "SourceInfo": "index.models",
    "Conversation": "index.models",
    "StoredIndex": "index.build.store",
    # the article's outline (/article); the answer layer's, wherever that lives
    "overview": "index.answer.about",
    # settings
    "IndexSettings": "index.config",
    "load_settings": "index.config",
    "describe_validation_error": "index.config",
    "LLMSettings": "index.generate.settings",
    "load_llm_settings": "index.generate.settings",
    # start-up, build and reload (Engine.reload_if_changed, Engine.load_version + Engine.swap)
    "open_engine": "index.startup",
    "build_index": "index.build.builder",
    "BuildResult": "index.build.builder",
    "current_version": "index.build.versions",
    # every sentence a user reads, in Chinese and English
    "message": "index.answer.messages",
    # questions
    "validate_question": "index.text.language",
    "detect_language": "index.text.language",
    "asked_language": "index.text.language",
    # errors and exit codes
    "InputError": "index.errors",
    "UsageError": "index.errors",
    "SettingsError": "index.errors",
    "CorpusError": "index.errors",
    "QuestionError": "index.errors",
    "IndexLoadError": "index.errors",
    "EmbedderError": "index.errors",
    "exit_code": "index.errors",
    "EXIT_OK": "index.errors",
    "EXIT_FAILURE": "index.errors",
    "EXIT_USAGE": "index.errors",
    "EXIT_INTERRUPTED": "index.errors",
}

__all__ = ["__version__", *_EXPORTS]

if TYPE_CHECKING:  # what type checkers and editors see (the same names); at run time __getattr__ loads them
    from index.answer.about import overview  # noqa: F401
    from index.answer.messages import message  # noqa: F401
    from index.build.builder import BuildResult, build_index  # noqa: F401
    from index.build.store import StoredIndex  # noqa: F401
    from index.build.versions import current_version  # noqa: F401
    from index.config import IndexSettings, describe_validation_error, load_settings  # noqa: F401
    from index.engine import Engine, PartialHandler  # noqa: F401
    from index.errors import (  # noqa: F401
        EXIT_FAILURE,
        EXIT_INTERRUPTED,
        EXIT_OK,
        EXIT_USAGE,
        CorpusError,
        EmbedderError,
        IndexLoadError,
        InputError,
        QuestionError,
        SettingsError,
        UsageError,
        exit_code,
    )
    from index.generate.settings import LLMSettings, load_llm_settings  # noqa: F401
    from index.models import (  # noqa: F401
        AskResult,
        Citation,
        Conversation,
        Passage,
        SearchResult,
        SourceInfo,
    )
    from index.startup import open_engine  # noqa: F401
    from index.text.language import asked_language, detect_language, validate_question  # noqa: F401


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'index' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
