"""Corpora and indexes for the benchmarks: always copies and temporary folders, never var/index."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from bench._report import ROOT

if TYPE_CHECKING:
    from index.config import IndexSettings

CORPUS_DIR = ROOT / "corpus"
QUESTIONS_FILE = ROOT / "tests" / "eval" / "dev_extra.jsonl"
TEXT_SUFFIXES = (".txt", ".md")


def add_corpus_arguments(parser: argparse.ArgumentParser, *, truncate: bool = True, index: bool = True) -> None:
    """--corpus, and (as the benchmark takes them) --max-paragraphs and --index."""
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR, metavar="DIR")
    if truncate:
        parser.add_argument("--max-paragraphs", type=int, default=None, help="truncate the corpus copy (smoke)")
    if index:
        parser.add_argument(
            "--index",
            type=Path,
            default=None,
            metavar="DIR",
            help="an already built index of --corpus (default: build one in a temporary folder)",
        )


def offline() -> None:
    """No hub look-ups: the bundled model needs none, and the machine has no network."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def copy_corpus(source: Path, target: Path, max_paragraphs: int | None = None) -> Path:
    """Copy a corpus folder; ``max_paragraphs`` keeps only each document's first paragraphs (smoke runs)."""
    shutil.copytree(source, target)
    if max_paragraphs:
        for path in target.iterdir():
            if path.suffix in TEXT_SUFFIXES:
                paragraphs = path.read_text(encoding="utf-8").split("\n\n")
                path.write_text("\n\n".join(paragraphs[:max_paragraphs]) + "\n", encoding="utf-8")
    return target


def settings_for(corpus_dir: Path, index_dir: Path) -> IndexSettings:
    from index.config import load_settings

    return load_settings(corpus_dir=corpus_dir, index_dir=index_dir)


def load_questions(path: Path = QUESTIONS_FILE, limit: int | None = None) -> list[str]:
    questions = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            questions.append(str(json.loads(line)["q"]))
    return questions[:limit] if limit else questions


def corpus_paragraph_files(corpus_dir: Path) -> list[Path]:
    return sorted(p for p in corpus_dir.iterdir() if p.suffix in TEXT_SUFFIXES)
