"""The on-disk index: FAISS vectors, chunk and sentence records, a manifest; built atomically.

Layout of ``index_dir``::

    CURRENT                 name of the live version (replaced atomically with os.replace)
    versions/<name>/        manifest.json, chunks.jsonl, chunks.faiss, sentences.jsonl, sentences.npy,
                            glossary.json, background.npz, bm25.* (the lexical index, lexical.py)

A build writes a new version folder and only then points CURRENT at it, so a build killed at
any moment leaves the previous index intact and loadable.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from index import __version__
from index.chunking import SECTION_SEPARATOR, Chunk, Kind, classify_paragraphs
from index.corpus import DocumentMeta
from index.errors import IndexLoadError

if TYPE_CHECKING:  # faiss and numpy load on first use: `python -m index stats` needs neither
    import faiss
    import numpy as np

    from index.lexical import LexicalIndex

SCHEMA_VERSION = 1
CURRENT = "CURRENT"
VERSIONS = "versions"
MANIFEST = "manifest.json"
CHUNKS = "chunks.jsonl"
CHUNK_VECTORS = "chunks.faiss"
SENTENCES = "sentences.jsonl"
SENTENCE_VECTORS = "sentences.npy"
GLOSSARY = "glossary.json"
BACKGROUND = "background.npz"
BIAS_LANGUAGES = ("en", "zh")
BUILD_HINT = "run `python -m index build --force`"
STAGING_LOCK = ".writing"  # in a staging folder, locked (flock) by the build writing it


class ChunkerSettings(BaseModel):
    size: int
    overlap: int


class CorpusDocument(BaseModel):
    path: str
    sha256: str
    meta: DocumentMeta


class Manifest(BaseModel):
    schema_version: int = SCHEMA_VERSION
    embedder_name: str
    embedder_id: str
    dim: int
    chunker: ChunkerSettings
    documents: list[CorpusDocument]
    chunk_count: int
    sentence_count: int
    index_type: str
    built_at: str
    build_seconds: float
    reused_embeddings: int
    background_sha256: str = ""  # of the background questions (background.py)
    vocabulary_sha256: str = ""  # of the lexical vocabulary the glossary was made for
    glossary_format: int = 1  # crosslingual.GLOSSARY_FORMAT the glossary was made in (1: before phrases)
    terms_sha256: str = ""  # of the tech terms the glossary was made with (tokenizer.terms_digest)
    # tokenizer.TOKENIZER_VERSION of the BM25 files (bm25.*) stored with the version; 0: none stored
    # (built before they were), so the lexical index is built in memory at load
    lexical_tokenizer: int = 0
    package_version: str = __version__


class Sentence(BaseModel):
    """A sentence of a chunk, for extractive answers; offsets are absolute in the document."""

    chunk: int  # position of its chunk in chunks.jsonl
    start: int
    end: int


@dataclass
class Background:
    """How the index answers generic off-topic questions (see retrieval.py and abstain.py).

    ``chunk_bias[lang]`` / ``sentence_bias[lang]``: each passage's mean cosine with its nearest
    background questions of that language; subtracting it removes the pull of passages that
    are close to every question in that language (cross-domain similarity local scaling).
    ``top``: each background question's best cosine over the chunks.
    """

    vectors: np.ndarray
    languages: list[str]
    top: np.ndarray
    chunk_bias: dict[str, np.ndarray]
    sentence_bias: dict[str, np.ndarray]

    def arrays(self) -> dict[str, np.ndarray]:
        import numpy as np

        out = {"vectors": self.vectors, "languages": np.array(self.languages), "top": self.top}
        for lang in BIAS_LANGUAGES:
            out[f"chunk_bias_{lang}"] = self.chunk_bias[lang]
            out[f"sentence_bias_{lang}"] = self.sentence_bias[lang]
        return out

    @classmethod
    def from_arrays(cls, data: dict[str, np.ndarray]) -> Background:
        return cls(
            vectors=data["vectors"],
            languages=[str(x) for x in data["languages"]],
            top=data["top"],
            chunk_bias={lang: data[f"chunk_bias_{lang}"] for lang in BIAS_LANGUAGES},
            sentence_bias={lang: data[f"sentence_bias_{lang}"] for lang in BIAS_LANGUAGES},
        )


@dataclass
class StoredIndex:
    """A loaded version of the index; immutable once loaded, so a swap is one reference change."""

    path: Path
    version: str
    manifest: Manifest
    chunks: list[Chunk]
    vectors: faiss.Index
    sentences: list[Sentence]
    sentence_vectors: np.ndarray
    glossary: dict[str, list[str]]  # English stem → Chinese corpus words (crosslingual.py)
    background: Background
    lexical: LexicalIndex | None = None  # BM25 over the chunks as stored (None: build it from the chunks)

    def __post_init__(self) -> None:
        import numpy as np

        # first sentence of each chunk (sentences are stored in chunk order), for slicing
        starts = np.searchsorted([s.chunk for s in self.sentences], np.arange(len(self.chunks) + 1))
        self.sentence_starts = starts.astype(np.int64)

    @cached_property
    def chunk_positions(self) -> dict[str, int]:
        """chunk id → position in ``chunks``; made on first use, once per loaded version."""
        return {chunk.chunk_id: i for i, chunk in enumerate(self.chunks)}

    @cached_property
    def top_sections(self) -> dict[str, dict[str, list[int]]]:
        """doc id → its top-level headings, in document order → the positions of their chunks. A
        document's title chunks (title, byline, text before the first heading) are left out. Made
        on first use, once per loaded version."""
        titles = {d.meta.doc_id: d.meta.title for d in self.manifest.documents}
        sections: dict[str, dict[str, list[int]]] = {}
        for i, chunk in enumerate(self.chunks):
            if chunk.section == titles.get(chunk.doc_id):
                continue
            top = chunk.section.split(SECTION_SEPARATOR)[0]
            sections.setdefault(chunk.doc_id, {}).setdefault(top, []).append(i)
        return sections

    @cached_property
    def header_chunks(self) -> frozenset[int]:
        """The chunks that hold only a document's title and byline lines (chunking keeps them apart):
        answered from metadata, never quoted as an answer. Made on first use, once per loaded version."""
        titles = {d.meta.doc_id: d.meta.title for d in self.manifest.documents}
        found = set()
        for i, chunk in enumerate(self.chunks):
            first = i == 0 or self.chunks[i - 1].doc_id != chunk.doc_id
            if first and chunk.section == titles.get(chunk.doc_id):
                kinds = {p.kind for p in classify_paragraphs(chunk.text, chunk.section)}
                if kinds <= {Kind.TITLE, Kind.BYLINE}:
                    found.add(i)
        return frozenset(found)

    def sentences_of(self, chunk: int) -> range:
        """The positions of a chunk's sentences (empty for a chunk that has none)."""
        return range(int(self.sentence_starts[chunk]), int(self.sentence_starts[chunk + 1]))

    def sentence_text(self, sentence: Sentence) -> str:
        chunk = self.chunks[sentence.chunk]
        return chunk.text[sentence.start - chunk.start : sentence.end - chunk.start]

    def chunk_vectors(self) -> np.ndarray:
        return self.vectors.reconstruct_n(0, self.vectors.ntotal)


def search_vectors(index: faiss.Index, query: np.ndarray, n: int) -> np.ndarray:
    """Ids of the ``n`` nearest vectors to one query (-1 pads), on one OpenMP thread.

    One query scans a flat index serially much faster than OpenMP's fork/join over two threads
    (bench/README.md, finding 2: 0.7 vs 16 ms at 10k vectors); HNSW search is serial anyway.
    ``omp_set_num_threads`` applies to the calling thread, so it is set where each search runs
    (the bot searches in worker threads)."""
    import faiss
    import numpy as np

    faiss.omp_set_num_threads(1)
    _, ids = index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), n)
    return ids[0]


def make_vector_index(vectors: np.ndarray, approx_threshold: int) -> tuple[faiss.Index, str]:
    """Exact inner product for small corpora; HNSW above the threshold (vectors are normalized).

    Adding uses every core (an HNSW build is parallel), whatever the calling thread searched with."""
    import faiss

    dim = vectors.shape[1]
    if len(vectors) <= approx_threshold:
        index: faiss.Index = faiss.IndexFlatIP(dim)
        kind = "flat"
    else:
        index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.hnsw.efSearch = 256  # bench/README.md: 128 lost recall at 100k
        kind = "hnsw"
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(os.cpu_count() or 1)
    try:
        index.add(vectors)
    finally:
        faiss.omp_set_num_threads(threads)
    return index, kind


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
) -> Path:
    """Write a complete version next to the live one, then switch CURRENT to it atomically.

    With ``lexical`` (BM25 over these chunks' passages), its files are stored too and the manifest
    says so; without it, the version is loaded as one built before they were stored."""
    import faiss
    import numpy as np

    from index.tokenizer import TOKENIZER_VERSION

    manifest = manifest.model_copy(update={"lexical_tokenizer": TOKENIZER_VERSION if lexical is not None else 0})

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
    for name in (CHUNKS, CHUNK_VECTORS, SENTENCES, SENTENCE_VECTORS, GLOSSARY, BACKGROUND):
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
        path, path.name, manifest, chunks, vectors, sentences, sentence_vectors, glossary, background, lexical
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
    from index.lexical import LexicalIndex
    from index.tokenizer import TOKENIZER_VERSION, terms_digest

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
