"""Which of a Chinese word's English glosses the English line says: the one closest to the word in
the embedder's space (输入 → "input", not "import"; 最高 → "highest", not "tallest").

CC-CEDICT lists a word's senses without saying which is common, and its shortest gloss is as often
the wrong sense as the right one. The bundled e5 was trained on parallel text, so its cosine between
a word and each gloss tells them apart; on XQuAD's parallel paragraphs the gloss found in the English
text rose from 0.61 to 0.66 of the time on held-out articles (train/glosses.py). Context did not
help there, so the choice is one per word: computed for the whole dictionary offline (``python -m
index glosses``) and packaged as a table of the words where it differs from the shortest gloss.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

TABLE_FILE = Path(__file__).resolve().parents[1] / "data" / "gloss_choices.tsv"

_table: dict[str, str] | None = None
_lock = threading.Lock()


def chosen_gloss(word: str, candidates: Sequence[str]) -> str | None:
    """The packaged choice for ``word`` if it is still one of ``candidates`` (a newer dictionary
    may have dropped it), else None: the caller's own order decides."""
    choice = choices().get(word)
    return choice if choice in candidates else None


def choices() -> dict[str, str]:
    """word → gloss, read once from the packaged table (empty if it is missing)."""
    global _table
    with _lock:
        if _table is None:
            _table = read_table(TABLE_FILE) if TABLE_FILE.exists() else {}
        return _table


def read_table(path: Path) -> dict[str, str]:
    table: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, _, gloss = line.partition("\t")
            table[word] = gloss
    return table


def write_table(path: Path, table: dict[str, str], header: Sequence[str]) -> None:
    lines = [f"# {line}" for line in header] + [f"{w}\t{g}" for w, g in sorted(table.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


__all__ = ["TABLE_FILE", "choices", "chosen_gloss", "read_table", "write_table"]
