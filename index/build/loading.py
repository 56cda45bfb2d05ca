"""Loading an index version: every file read and validated, IndexLoadError with the fix on any
problem (a corrupt, foreign or unreadable version never half-loads).
"""

from __future__ import annotations

import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from index.build.store import (
    BACKGROUND,
    BIAS_LANGUAGES,
    BUILD_HINT,
    CHUNK_VECTORS,
    CHUNKS,
    ENGLISH_VIEW,
    GLOSSARY,
    MANIFEST,
    SCHEMA_VERSION,
    SENTENCE_VECTORS,
    SENTENCES,
    VERSIONS,
    Background,
    Manifest,
    Sentence,
    StoredIndex,
)
from index.build.versions import current_version, permission_hint
from index.errors import IndexLoadError
from index.models import Chunk

if TYPE_CHECKING:
    from index.build.lexical import LexicalIndex


def _read_jsonl(path: Path, parse: Callable[[str], BaseModel]) -> list:
    with path.open(encoding="utf-8") as handle:
        return [parse(line) for line in handle if line.strip()]


def load_version(path: Path, expected_embedder: str | None = None) -> StoredIndex:
    """Load and validate one version folder; IndexLoadError with the fix on any problem."""
    import faiss
    import numpy as np

    if not (path / MANIFEST).is_file():
        if path.is_dir() and not os.access(path, os.R_OK | os.X_OK):
            raise IndexLoadError(permission_hint(path))
        raise IndexLoadError(f"index at {path} has no {MANIFEST}; {BUILD_HINT}")
    try:
        manifest = Manifest.model_validate_json((path / MANIFEST).read_text(encoding="utf-8"))
    except PermissionError:
        raise IndexLoadError(permission_hint(path / MANIFEST)) from None
    except (ValidationError, UnicodeDecodeError) as error:
        raise IndexLoadError(f"index manifest {path / MANIFEST} is invalid ({_first(error)}); {BUILD_HINT}") from None
    if manifest.schema_version != SCHEMA_VERSION:
        raise IndexLoadError(
            f"index schema {manifest.schema_version} is not {SCHEMA_VERSION} (built by an older version); {BUILD_HINT}"
        )
    if expected_embedder is not None and manifest.embedder_id != expected_embedder:
        raise IndexLoadError(
            f"index was built with {manifest.embedder_name} ({manifest.embedder_id}), not the configured model "
            f"({expected_embedder}); run `python -m index build` or set ARTICLE_MODEL={manifest.embedder_name}"
        )
    if not manifest.english_view_sha256:
        raise IndexLoadError(f"index at {path} has no English view (built by an older version); {BUILD_HINT}")
    for name in (CHUNKS, CHUNK_VECTORS, SENTENCES, SENTENCE_VECTORS, GLOSSARY, BACKGROUND, ENGLISH_VIEW):
        if not (path / name).is_file():
            raise IndexLoadError(f"index file {path / name} is missing; {BUILD_HINT}")
    try:
        chunks = _read_jsonl(path / CHUNKS, Chunk.model_validate_json)
        sentences = _read_jsonl(path / SENTENCES, Sentence.model_validate_json)
        vectors = faiss.read_index(str(path / CHUNK_VECTORS))
        sentence_vectors = np.load(path / SENTENCE_VECTORS, allow_pickle=False)
        glossary = json.loads((path / GLOSSARY).read_text(encoding="utf-8"))
        with np.load(path / BACKGROUND, allow_pickle=False) as data:
            background = Background.from_arrays(dict(data))
        with np.load(path / ENGLISH_VIEW, allow_pickle=False) as data:
            glosses, gloss_vectors = [str(g) for g in data["glosses"]], data["vectors"]
            # a version made before renderings were stored holds glosses only
            rendered = [bool(r) for r in data["rendered"]] if "rendered" in data else [False] * len(glosses)
            # …and one made before readers were shown English of their own shows the view's
            shown = [str(t) for t in data["shown"]] if "shown" in data else [""] * len(glosses)
    except PermissionError as error:
        raise IndexLoadError(permission_hint(error.filename or path)) from None
    except (
        ValidationError,
        ValueError,
        RuntimeError,
        OSError,
        UnicodeDecodeError,
        KeyError,
        EOFError,
        zipfile.BadZipFile,
    ) as error:
        if "Permission denied" in str(error):  # faiss reports a refused fopen as a RuntimeError
            raise IndexLoadError(permission_hint(path)) from None
        raise IndexLoadError(f"index at {path} is corrupt ({_first(error)}); {BUILD_HINT}") from None
    problems = []
    if vectors.d != manifest.dim:
        problems.append(f"vector dimension {vectors.d} != manifest {manifest.dim}")
    if vectors.ntotal != len(chunks) or len(chunks) != manifest.chunk_count:
        problems.append(f"{vectors.ntotal} vectors, {len(chunks)} chunks, manifest says {manifest.chunk_count}")
    if sentence_vectors.shape != (len(sentences), manifest.dim):
        problems.append(f"sentence vectors {sentence_vectors.shape} for {len(sentences)} sentences")
    if gloss_vectors.shape != (len(sentences), manifest.dim) or not len(glosses) == len(shown) == len(sentences):
        problems.append(f"English view {gloss_vectors.shape} for {len(sentences)} sentences")
    outside = _first_misplaced_sentence(sentences, chunks)
    if outside is not None:
        problems.append(f"sentence {outside} of {SENTENCES} lies outside its chunk")
    if any(background.chunk_bias[lang].shape != (len(chunks),) for lang in BIAS_LANGUAGES):
        problems.append("background bias does not match the chunks")
    if problems:
        raise IndexLoadError(f"index at {path} is inconsistent: {'; '.join(problems)}; {BUILD_HINT}")
    if not isinstance(glossary, dict):
        raise IndexLoadError(f"index file {path / GLOSSARY} is not a JSON object; {BUILD_HINT}")
    lexical = _load_lexical(path, manifest)
    return StoredIndex(
        path,
        path.name,
        manifest,
        chunks,
        vectors,
        sentences,
        sentence_vectors,
        glossary,
        background,
        lexical,
        glosses,
        gloss_vectors,
        rendered,
        shown,
    )


def _first_misplaced_sentence(sentences: list[Sentence], chunks: list[Chunk]) -> int | None:
    """The first sentence whose chunk doesn't exist or whose offsets leave it (or run backwards):
    sliced, it would be empty or another passage's text, and answers would quote it."""
    for i, sentence in enumerate(sentences):
        if not 0 <= sentence.chunk < len(chunks):
            return i
        chunk = chunks[sentence.chunk]
        if not chunk.start <= sentence.start < sentence.end <= chunk.end:
            return i
    return None


def _load_lexical(path: Path, manifest: Manifest) -> LexicalIndex | None:
    """The stored BM25 index, memory-mapped; None when the version has none of this tokenizer's, or
    was tokenized with other tech terms (they are cut whole): the retriever then builds it from the
    chunks, so that questions and passages are cut alike. Stored but broken: IndexLoadError."""
    from index.build.lexical import LexicalIndex
    from index.text.tokens import TOKENIZER_VERSION, terms_digest

    if manifest.lexical_tokenizer != TOKENIZER_VERSION or manifest.terms_sha256 != terms_digest():
        return None
    try:
        return LexicalIndex.load(path, manifest.chunk_count)
    except (ValueError, OSError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise IndexLoadError(f"lexical index at {path} is corrupt ({_first(error)}); {BUILD_HINT}") from None


def load_current(index_dir: Path, expected_embedder: str | None = None) -> StoredIndex:
    version = current_version(index_dir)
    if version is None:
        raise IndexLoadError(f"no index in {index_dir}; run `python -m index build`")
    return load_version(index_dir / VERSIONS / version, expected_embedder)


def _first(error: Exception) -> str:
    text = str(error).strip().splitlines()
    return text[0][:160] if text else type(error).__name__
