"""Constants and helpers shared by the index tests (fixtures live in conftest.py)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from index.models import Passage

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus"
ARTICLE = CORPUS / "composer-2-5.txt"
TITLE = "Composer 2/2.5 技术拆解与行业启示"

# A paragraph edited by the incremental-rebuild fixture, and the sentence it gains.
EDITED_PARAGRAPH = "这里还有一条暗线：马斯克。"
ADDED_SENTENCE = "他还养了一只名叫豆豆的柴犬。"

TINY_DOCS = {
    "notes.md": (
        "# 测试笔记\n\n一、简介\n\n这是一份很短的测试文档。它只有几个句子。\n\n"
        "二、价格\n\n苹果每斤 5 元，香蕉每斤 3 元。\n"
    ),
    "travel.txt": "Travel log\n\nWe took the night train to Lisbon. The ticket cost 40 euros.\n",
}


def passage(text: str, n: int = 1) -> Passage:
    """A retrieved passage holding ``text``, ranked ``n``: what a generator is given."""
    return Passage(
        chunk_id=f"c{n}", doc_id="d", section="", paragraphs=[n], start=0, end=len(text), text=text, rank=n, score=1
    )


def line_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every non-empty line, stripped: paragraph n is line_spans(text)[n - 1]."""
    spans, pos = [], 0
    for line in text.split("\n"):
        if line.strip():
            lead = len(line) - len(line.lstrip())
            spans.append((pos + lead, pos + lead + len(line.strip())))
        pos += len(line) + 1
    return spans


def cli_env(**extra: str) -> dict[str, str]:
    """The environment of a `python -m index` subprocess: offline, no developer settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARTICLE_", "LLM_", "OPENAI_"))}
    env.update(
        HF_HUB_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        ARTICLE_CONFIG=str(REPO / "tests" / "no-article.toml"),
        PYTHONIOENCODING="utf-8",
    )
    env.update(extra)
    return env


def copy_index(settings, root: Path):  # type: ignore[no-untyped-def]
    """A private copy of an index and its corpus under ``root``; returns settings pointing at it."""
    corpus = root / "corpus"
    shutil.copytree(settings.corpus_dir, corpus)
    index_dir = root / "index"
    shutil.copytree(settings.index_dir, index_dir)
    return settings.model_copy(update={"corpus_dir": corpus, "index_dir": index_dir})
