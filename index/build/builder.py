"""Building the index: corpus → chunks and sentences → embeddings (reused by content hash) → store."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np

from index._version import __version__
from index.build.background import background_digest, background_questions, compute_background
from index.build.chunking import SECTION_SEPARATOR, chunk_document, passage_text, sentence_spans
from index.build.corpus import load_corpus
from index.build.embedding import Embedder, get_embedder
from index.build.lexical import LexicalIndex
from index.build.loading import load_current
from index.build.store import (
    ChunkerSettings,
    CorpusDocument,
    Manifest,
    Sentence,
    StoredIndex,
    make_vector_index,
    sentence_text,
)
from index.build.versions import check_index_folder, remove_abandoned_staging, write_version
from index.config import IndexSettings
from index.english.dictionary import GLOSSARY_FORMAT, build_glossary
from index.english.renderings import SHIPPED, read, sentence_key, sources, view_and_shown
from index.english.view import english_texts, shown_texts, unrendered, view_digest
from index.errors import IndexLoadError
from index.models import Chunk
from index.text.tokens import TOKENIZER_VERSION, terms_digest


@dataclass
class BuildResult:
    version: str | None  # None when the index was already up to date
    documents: int
    chunks: int
    sentences: int
    embedded: int
    reused: int
    seconds: float
    glossed: int = 0  # sentences new since `enrich` rendered the corpus: glossed until it runs again

    def summary(self, index_dir: object) -> str:
        unrendered = (
            f"; {self.glossed} sentences are new since enrich rendered the corpus: glossed word for word until "
            "python -m index enrich renders them"
            if self.glossed
            else ""
        )
        if self.version is None:
            return (
                f"index is up to date: {self.documents} documents, {self.chunks} chunks, "
                f"{self.sentences} sentences ({index_dir}; --force rebuilds){unrendered}"
            )
        return (
            f"built {self.version}: {self.documents} documents, {self.chunks} chunks, {self.sentences} sentences, "
            f"embedded {self.embedded}, reused {self.reused} embeddings, {self.seconds:.1f} s → {index_dir}{unrendered}"
        )


def chunk_sentences(chunks: list[Chunk]) -> list[Sentence]:
    return [
        Sentence(chunk=i, start=span.start, end=span.end)
        for i, chunk in enumerate(chunks)
        for span in sentence_spans(chunk.text, chunk.start, frozenset(chunk.section.split(SECTION_SEPARATOR)))
    ]


def _key(kind: str, text: str) -> str:
    return hashlib.sha256(f"{kind}\n{text}".encode()).hexdigest()


def _previous_vectors(previous: StoredIndex | None) -> dict[str, np.ndarray]:
    """Embeddings of the live index, keyed by content hash, to reuse."""
    if previous is None:
        return {}
    cache: dict[str, np.ndarray] = {}
    chunk_vectors = previous.chunk_vectors()
    for chunk, vector in zip(previous.chunks, chunk_vectors, strict=True):
        cache[_key("passage", passage_text(chunk))] = vector
    for sentence, vector in zip(previous.sentences, previous.sentence_vectors, strict=True):
        cache[_key("sentence", previous.sentence_text(sentence))] = vector
    if previous.glosses is not None and previous.gloss_vectors is not None:
        for gloss, vector in zip(previous.glosses, previous.gloss_vectors, strict=True):
            cache[_key("gloss", gloss)] = vector
    return cache


def _is_current(
    previous: StoredIndex | None,
    documents: list[CorpusDocument],
    chunks: list[Chunk],
    sentences: list[Sentence],
    glosses: list[str],
    shown: list[str],
) -> bool:
    """The live index already holds exactly these documents, chunks, sentences and glosses."""
    if previous is None:
        return False
    manifest = previous.manifest
    return (
        [(d.path, d.sha256, d.meta) for d in manifest.documents] == [(d.path, d.sha256, d.meta) for d in documents]
        and [c.chunk_id for c in previous.chunks] == [c.chunk_id for c in chunks]
        and previous.sentences == sentences
        and manifest.background_sha256 == background_digest()
        and manifest.package_version == __version__
        and manifest.lexical_tokenizer == TOKENIZER_VERSION  # else store this tokenizer's BM25 index
        and manifest.glossary_format == GLOSSARY_FORMAT  # else make this format's glossary
        and manifest.terms_sha256 == terms_digest()  # …or one with these tech terms
        and manifest.english_view_sha256 == view_digest(glosses, shown)  # …or gloss them anew
    )


def _background_vectors(embedder: Embedder, previous: StoredIndex | None) -> np.ndarray:
    """The background questions' vectors: the live index's when the questions are the same
    (the embedder is, or it wouldn't have loaded), else embedded now."""
    if previous is not None and previous.manifest.background_sha256 == background_digest():
        return previous.background.vectors
    return embedder.encode_queries(background_questions())


def build_index(settings: IndexSettings, force: bool = False, progress: bool = True) -> BuildResult:
    started = time.perf_counter()
    check_index_folder(settings.index_dir)  # before minutes of embedding, not after
    remove_abandoned_staging(settings.index_dir)  # what killed builds left, even if nothing changed now
    documents = load_corpus(settings.corpus_dir)
    embedder = get_embedder(settings.model)
    try:
        previous = load_current(settings.index_dir, expected_embedder=embedder.id)
    except IndexLoadError:
        previous = None  # nothing usable to reuse: embed everything
    corpus = [CorpusDocument(path=d.path, sha256=d.sha256, meta=d.meta) for d in documents]
    chunks = [
        chunk
        for doc in documents
        for chunk in chunk_document(doc.doc_id, doc.text, doc.meta.title, settings.chunk_size, settings.chunk_overlap)
    ]
    sentences = chunk_sentences(chunks)
    sentence_texts = [sentence_text(chunks, s) for s in sentences]
    made = sources(settings.corpus_dir, settings.index_dir)
    view, newest = ({k: r.text for k, r in found.items() if r.language == "en"} for found in view_and_shown(made))
    glosses, is_rendering = english_texts([c.text for c in chunks], sentence_texts, view)
    shown = shown_texts(sentence_texts, view, newest)
    tried_in = {path: {r.key for r in read(path)} for path in made}
    tried = set().union(*tried_in.values())
    # sentences enrich never saw, once it has rendered this corpus (the package's own renderings say nothing
    # of that, but cover the sentences they hold)
    enriched = any(keys for path, keys in tried_in.items() if path != SHIPPED)
    new_since = [key not in tried for key in map(sentence_key, sentence_texts)]
    glossed = unrendered(sentence_texts, new_since, "und") if enriched else 0
    if not force and _is_current(previous, corpus, chunks, sentences, glosses, shown):
        seconds = time.perf_counter() - started
        return BuildResult(None, len(documents), len(chunks), len(sentences), 0, 0, seconds, glossed)

    texts = [("passage", passage_text(c)) for c in chunks]
    texts += [("sentence", text) for text in sentence_texts]
    texts += [("gloss", gloss) for gloss in glosses]
    cache = {} if force else _previous_vectors(previous)
    keys = [_key(kind, text) for kind, text in texts]
    missing = [i for i, key in enumerate(keys) if key not in cache]
    fresh = embedder.encode_documents([texts[i][1] for i in missing], settings.batch_size, progress=progress)
    for i, vector in zip(missing, fresh, strict=True):
        cache[keys[i]] = vector
    all_vectors = np.stack([cache[k] for k in keys]) if keys else np.zeros((0, embedder.dim), np.float32)
    all_vectors = np.ascontiguousarray(all_vectors, dtype=np.float32)
    chunk_vectors = all_vectors[: len(chunks)]
    sentence_vectors = all_vectors[len(chunks) : len(chunks) + len(sentences)]
    gloss_vectors = all_vectors[len(chunks) + len(sentences) :]

    background = compute_background(_background_vectors(embedder, previous), chunk_vectors, sentence_vectors)
    vector_index, kind = make_vector_index(chunk_vectors, settings.approx_threshold)
    lexical = LexicalIndex([passage_text(chunk) for chunk in chunks])  # stored with the version
    vocabulary = lexical.vocabulary
    vocabulary_sha256 = hashlib.sha256("\n".join(sorted(vocabulary)).encode()).hexdigest()
    reuse = (
        not force
        and previous is not None
        and previous.manifest.vocabulary_sha256 == vocabulary_sha256
        and previous.manifest.glossary_format == GLOSSARY_FORMAT
        and previous.manifest.terms_sha256 == terms_digest()
    )
    glossary = previous.glossary if reuse and previous is not None else build_glossary(vocabulary)
    seconds = time.perf_counter() - started
    manifest = Manifest(
        embedder_name=embedder.name,
        embedder_id=embedder.id,
        dim=int(all_vectors.shape[1]),
        chunker=ChunkerSettings(size=settings.chunk_size, overlap=settings.chunk_overlap),
        documents=corpus,
        chunk_count=len(chunks),
        sentence_count=len(sentences),
        index_type=kind,
        built_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        build_seconds=round(seconds, 3),
        reused_embeddings=len(keys) - len(missing),
        background_sha256=background_digest(),
        vocabulary_sha256=vocabulary_sha256,
        glossary_format=GLOSSARY_FORMAT,
        terms_sha256=terms_digest(),
        english_view_sha256=view_digest(glosses, shown),
    )
    path = write_version(
        settings.index_dir,
        manifest,
        chunks,
        vector_index,
        sentences,
        sentence_vectors,
        glossary,
        background,
        settings.keep_versions,
        lexical=lexical,
        english_view=(glosses, gloss_vectors, is_rendering, shown),
    )
    return BuildResult(
        path.name,
        len(documents),
        len(chunks),
        len(sentences),
        len(missing),
        len(keys) - len(missing),
        time.perf_counter() - started,
        glossed,
    )
