"""The index folder's versions: CURRENT (which one is live), writing a version next to it and
switching atomically, pruning old ones and the staging folders of killed builds.

Layout and the files of a version: index/build/store.py. Loading one: index/build/loading.py.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from index.build.store import (
    BACKGROUND,
    BUILD_HINT,
    CHUNK_VECTORS,
    CHUNKS,
    CURRENT,
    ENGLISH_VIEW,
    GLOSSARY,
    MANIFEST,
    SENTENCE_VECTORS,
    SENTENCES,
    STAGING_LOCK,
    VERSIONS,
    Background,
    Manifest,
    Sentence,
)
from index.errors import IndexLoadError
from index.models import Chunk

if TYPE_CHECKING:  # faiss and numpy load on first use: `python -m index stats` needs neither
    import faiss
    import numpy as np

    from index.build.lexical import LexicalIndex


def permission_hint(path: Path | str) -> str:
    """A permission problem is not a broken index: rebuilding wouldn't help (or wouldn't be allowed)."""
    return (
        f"permission denied: {path} can't be read by this user (uid {os.getuid()}); "
        "fix the permissions of the index folder or run as its owner"
    )


def check_index_folder(index_dir: Path) -> None:
    """IndexLoadError if ``index_dir`` is something other than a folder (or nothing yet)."""
    if index_dir.exists() and not index_dir.is_dir():
        raise IndexLoadError(f"the index folder {index_dir} is a file, not a folder; point --index at a folder")


def current_version(index_dir: Path) -> str | None:
    check_index_folder(index_dir)
    try:
        name = (index_dir / CURRENT).read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except PermissionError:
        raise IndexLoadError(permission_hint(index_dir / CURRENT)) from None
    except (UnicodeDecodeError, IsADirectoryError) as error:
        raise IndexLoadError(f"{index_dir / CURRENT} is unreadable ({type(error).__name__}); {BUILD_HINT}") from None
    if not name:
        return None
    if "/" in name or name.startswith("."):
        raise IndexLoadError(f"{index_dir / CURRENT} does not name a version ({name[:40]!r}); {BUILD_HINT}")
    return name


def _write_jsonl(path: Path, rows: list[BaseModel]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(row.model_dump_json() + "\n")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_version(
    index_dir: Path,
    manifest: Manifest,
    chunks: list[Chunk],
    vectors: faiss.Index,
    sentences: list[Sentence],
    sentence_vectors: np.ndarray,
    glossary: dict[str, list[str]],
    background: Background,
    keep: int = 2,
    lexical: LexicalIndex | None = None,
    english_view: tuple[list[str], np.ndarray, list[bool], list[str]] | None = None,
) -> Path:
    """Write a complete version next to the live one, then switch CURRENT to it atomically.

    With ``lexical`` (BM25 over these chunks' passages), its files are stored too and the manifest
    says so; without it, the version is loaded as one built before they were stored. With
    ``english_view`` (each sentence's English, its vector, whether it is a verified rendering rather
    than a gloss, and the English a reader is shown where it is another: '' where it isn't), it is stored too."""
    import faiss
    import numpy as np

    from index.text.tokens import TOKENIZER_VERSION

    manifest = manifest.model_copy(update={"lexical_tokenizer": TOKENIZER_VERSION if lexical is not None else 0})
    if english_view is None:  # loaded as a version without one: stale, to build again
        manifest = manifest.model_copy(update={"english_view_sha256": ""})

    versions = index_dir / VERSIONS
    versions.mkdir(parents=True, exist_ok=True)
    name = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ") + "-" + uuid.uuid4().hex[:6]
    remove_abandoned_staging(index_dir)
    staging = versions / f".tmp-{name}"
    staging.mkdir()
    # Held until the version is complete: a build killed meanwhile leaves a folder no one holds,
    # which the next build removes (remove_abandoned_staging).
    writing = (staging / STAGING_LOCK).open("w")
    fcntl.flock(writing, fcntl.LOCK_EX)
    _write_jsonl(staging / CHUNKS, chunks)
    _write_jsonl(staging / SENTENCES, sentences)
    np.save(staging / SENTENCE_VECTORS, sentence_vectors)
    (staging / GLOSSARY).write_text(json.dumps(glossary, ensure_ascii=False), encoding="utf-8")
    np.savez(staging / BACKGROUND, **background.arrays())
    faiss.write_index(vectors, str(staging / CHUNK_VECTORS))
    if lexical is not None:
        lexical.save(staging)
    if english_view is not None:
        glosses, gloss_vectors, rendered, shown = english_view
        np.savez(
            staging / ENGLISH_VIEW,
            glosses=np.array(glosses, dtype=str),
            vectors=gloss_vectors,
            rendered=np.array(rendered, dtype=bool),
            shown=np.array(shown, dtype=str),
        )
    (staging / MANIFEST).write_text(manifest.model_dump_json(indent=2), encoding="utf-8")
    (staging / STAGING_LOCK).unlink()
    for item in staging.iterdir():
        with item.open("rb") as handle:
            os.fsync(handle.fileno())
    final = versions / name
    staging.rename(final)
    writing.close()
    pointer = index_dir / f".{CURRENT}.{name}"
    pointer.write_text(name + "\n", encoding="utf-8")
    os.replace(pointer, index_dir / CURRENT)
    _fsync_dir(index_dir)
    _prune(index_dir, keep)
    return final


def _prune(index_dir: Path, keep: int) -> None:
    """Drop old versions (the live one and the newest ``keep`` stay) and stale staging folders."""
    live = current_version(index_dir)
    versions = sorted(p for p in (index_dir / VERSIONS).iterdir() if p.is_dir())
    finished = [p for p in versions if not p.name.startswith(".tmp-")]
    for old in finished[:-keep]:
        if old.name != live:
            shutil.rmtree(old, ignore_errors=True)
    remove_abandoned_staging(index_dir)


def remove_abandoned_staging(index_dir: Path) -> int:
    """Remove the staging folders (``versions/.tmp-*``) of builds that were killed: those whose
    lock no build holds. One being written by another build right now is left alone. Returns how
    many were removed."""
    versions = index_dir / VERSIONS
    try:
        staging = [p for p in versions.iterdir() if p.name.startswith(".tmp-") and p.is_dir()]
    except OSError:
        return 0
    removed = 0
    for folder in staging:
        try:
            handle = (folder / STAGING_LOCK).open("rb")  # never creates it
        except FileNotFoundError:  # killed before it took its lock, or a build of older code
            if time.time() - folder.stat().st_mtime < 60:  # give a starting build a minute
                continue
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
            continue
        except OSError:
            continue
        with handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # a build in progress
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed
