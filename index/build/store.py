"""The on-disk index: FAISS vectors, chunk and sentence records, a manifest; built atomically.

Layout of ``index_dir``::

    CURRENT                 name of the live version (replaced atomically with os.replace)
    versions/<name>/        manifest.json, chunks.jsonl, chunks.faiss, sentences.jsonl, sentences.npy,
                            glossary.json, background.npz, english_view.npz, bm25.* (the lexical
                            index, build/lexical.py)

A build writes a new version folder and only then points CURRENT at it, so a build killed at
any moment leaves the previous index intact and loadable.

This module: the layout's names, the records (manifest, sentences, background) and the loaded
index (StoredIndex, vector search). Writing versions and CURRENT: index/build/versions.py; loading and
validating one: index/build/loading.py.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from index._version import __version__
from index.build.chunking import SECTION_SEPARATOR, Kind, classify_paragraphs
from index.build.corpus import DocumentMeta
from index.models import Chunk
from index.text.names import subject_names

if TYPE_CHECKING:  # faiss and numpy load on first use: `python -m index stats` needs neither
    import faiss
    import numpy as np

    from index.build.lexical import LexicalIndex

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
ENGLISH_VIEW = "english_view.npz"  # the sentences' English (renderings or glosses) and vectors (english/view.py)
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
    background_sha256: str = ""  # of the background questions (build/background.py)
    vocabulary_sha256: str = ""  # of the lexical vocabulary the glossary was made for
    glossary_format: int = 1  # crosslingual.GLOSSARY_FORMAT the glossary was made in (1: before phrases)
    terms_sha256: str = ""  # of the tech terms the glossary was made with (tokenizer.terms_digest)
    english_view_sha256: str = ""  # english_view.view_digest of the stored glosses ("": none stored)
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
    """How the index answers generic off-topic questions (read by retrieval and the gates' evidence).

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

    @cached_property
    def top_mean(self) -> float:
        """The background questions' mean best cosine over the chunks, and its spread (read by every
        question's gate)."""
        return float(self.top.mean())

    @cached_property
    def top_spread(self) -> float:
        return float(self.top.std()) or 1e-6

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


def sentence_text(chunks: list[Chunk], sentence: Sentence) -> str:
    """A sentence's text, sliced from its chunk (offsets are absolute in the document)."""
    chunk = chunks[sentence.chunk]
    return chunk.text[sentence.start - chunk.start : sentence.end - chunk.start]


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
    glossary: dict[str, list[str]]  # English stem → Chinese corpus words (english/dictionary.py)
    background: Background
    lexical: LexicalIndex | None = None  # BM25 over the chunks as stored (None: build it from the chunks)
    # each sentence's English and its vector (english/view.py): its verified rendering where
    # ``rendered`` says so, else its word-for-word gloss; None: no view (a synthetic index)
    glosses: list[str] | None = None
    gloss_vectors: np.ndarray | None = None
    rendered: list[bool] | None = None
    # the English a reader is shown where it isn't the view's: a verified rendering by a method newer
    # than the answer model's (renderings.view_and_shown); '' where it is the view's
    shown: list[str] | None = None

    def __post_init__(self) -> None:
        import numpy as np

        # first sentence of each chunk (sentences are stored in chunk order), for slicing
        starts = np.searchsorted([s.chunk for s in self.sentences], np.arange(len(self.chunks) + 1))
        self.sentence_starts = starts.astype(np.int64)

    def reader_english(self, sid: int) -> str | None:
        """The verified English rendering of a sentence a reader is shown: a newer method's (``shown``)
        where there is one, else the view's; None for a gloss, which is no translation."""
        if self.shown and self.shown[sid]:
            return self.shown[sid]
        return (
            self.glosses[sid] if self.glosses is not None and self.rendered is not None and self.rendered[sid] else None
        )

    @cached_property
    def english_view(self) -> str:
        """Which English view the index has: "rendered" when at least half its sentences are a model's
        verified translations (the corpus was enriched), else "glossed". The answer model's English
        thresholds differ by view, each set on corpora wholly glossed or enriched: a glossed corpus that
        shares a sentence or two with one enriched ("这意味着什么？") reads as glossed. Read once per
        loaded version (a glossed index of a million sentences is a million flags)."""
        flags = self.rendered or []
        return "rendered" if flags and 2 * sum(flags) >= len(flags) else "glossed"

    @cached_property
    def subject(self) -> frozenset[str]:
        """The corpus's subject, the names most of its passages write (text.names.subject_names): made on
        first use, once per loaded version, not once per generated answer that the verifier checks."""
        return subject_names([chunk.text for chunk in self.chunks])

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
        return sentence_text(self.chunks, sentence)

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
