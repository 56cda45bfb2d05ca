"""The on-disk index (index/build/store.py): what a load validates, and atomic versioned writes.

Breakage is done to copies of the real session index; nothing here is mocked."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from index.build.embedding import get_embedder
from index.build.lexical import LEXICAL_FILES, LexicalIndex
from index.build.loading import load_current, load_version
from index.build.store import (
    BACKGROUND,
    CHUNK_VECTORS,
    CHUNKS,
    ENGLISH_VIEW,
    GLOSSARY,
    MANIFEST,
    SENTENCE_VECTORS,
    SENTENCES,
    STAGING_LOCK,
    make_vector_index,
)
from index.build.versions import current_version, remove_abandoned_staging, write_version
from index.errors import IndexLoadError
from index.text.tokens import TOKENIZER_VERSION, tokenize
from tests.index.support import ARTICLE

FIX = "python -m index build"


def _version_dir(index_dir: Path) -> Path:
    return index_dir / "versions" / str(current_version(index_dir))


def test_the_built_index_loads_and_is_consistent(built_index) -> None:  # type: ignore[no-untyped-def]
    stored = load_current(built_index.index_dir, expected_embedder=get_embedder(built_index.model).id)
    source = ARTICLE.read_text(encoding="utf-8")
    assert stored.version == current_version(built_index.index_dir)
    assert stored.manifest.dim == 384 == stored.vectors.d
    assert stored.manifest.chunk_count == len(stored.chunks) == stored.vectors.ntotal
    assert stored.manifest.sentence_count == len(stored.sentences) == len(stored.sentence_vectors)
    assert stored.manifest.chunker.size == built_index.chunk_size
    assert [d.path for d in stored.manifest.documents] == [ARTICLE.name]
    for chunk in stored.chunks:
        assert source[chunk.start : chunk.end] == chunk.text
    for sentence in stored.sentences:
        chunk = stored.chunks[sentence.chunk]
        assert chunk.start <= sentence.start < sentence.end <= chunk.end
        assert source[sentence.start : sentence.end] == stored.sentence_text(sentence)
    norms = np.linalg.norm(stored.chunk_vectors(), axis=1)
    assert np.allclose(norms, 1.0, atol=1e-3)
    assert np.allclose(np.linalg.norm(stored.sentence_vectors, axis=1), 1.0, atol=1e-3)
    # each sentence's English gloss, embedded: the English view (index/english/view.py)
    assert stored.glosses is not None and stored.gloss_vectors is not None
    assert len(stored.glosses) == len(stored.sentences) and stored.gloss_vectors.shape == (len(stored.sentences), 384)
    assert np.allclose(np.linalg.norm(stored.gloss_vectors, axis=1), 1.0, atol=1e-3)
    said = [g for g, s in zip(stored.glosses, stored.sentences, strict=True) if "SpaceX" in stored.sentence_text(s)]
    assert said and all("SpaceX" in g for g in said)


def test_missing_current(tmp_path: Path) -> None:
    assert current_version(tmp_path / "nowhere") is None
    with pytest.raises(IndexLoadError, match=FIX):
        load_current(tmp_path / "nowhere")
    (tmp_path / "CURRENT").write_text("\n", encoding="utf-8")
    assert current_version(tmp_path) is None
    with pytest.raises(IndexLoadError, match="no index"):
        load_current(tmp_path)


def _truncate(path: Path, keep: int) -> None:
    path.write_bytes(path.read_bytes()[:keep])


def _edit_manifest(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def apply(version: Path) -> None:
        data = json.loads((version / MANIFEST).read_text(encoding="utf-8"))
        change(data)
        (version / MANIFEST).write_text(json.dumps(data), encoding="utf-8")

    return apply


def _save_view(version: Path, change: Callable[[dict], dict]) -> None:
    with np.load(version / ENGLISH_VIEW) as data:
        arrays = change(dict(data))
    np.savez(version / ENGLISH_VIEW, **arrays)


def _edit_first_sentence(version: Path, edit: Callable[[dict], None]) -> None:
    lines = (version / SENTENCES).read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    edit(first)
    (version / SENTENCES).write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")


BREAKAGES: dict[str, Callable[[Path], None]] = {
    **{
        f"missing {name}": (lambda v, n=name: (v / n).unlink())
        for name in (MANIFEST, CHUNKS, CHUNK_VECTORS, SENTENCES, SENTENCE_VECTORS, GLOSSARY, BACKGROUND, ENGLISH_VIEW)
    },
    "manifest not JSON": lambda v: (v / MANIFEST).write_text("{not json", encoding="utf-8"),
    "manifest truncated": lambda v: _truncate(v / MANIFEST, 40),
    "manifest binary": lambda v: (v / MANIFEST).write_bytes(b"\xff\xfe\x00garbage"),
    "manifest a list": lambda v: (v / MANIFEST).write_text("[]", encoding="utf-8"),
    "schema version": _edit_manifest(lambda m: m.update(schema_version=99)),
    "manifest chunk count": _edit_manifest(lambda m: m.update(chunk_count=m["chunk_count"] + 1)),
    "manifest dim": _edit_manifest(lambda m: m.update(dim=768)),
    "one chunk less": lambda v: (v / CHUNKS).write_text(
        "".join((v / CHUNKS).read_text(encoding="utf-8").splitlines(keepends=True)[:-1]), encoding="utf-8"
    ),
    "bad chunk line": lambda v: (v / CHUNKS).write_text(
        (v / CHUNKS).read_text(encoding="utf-8") + '{"chunk_id": 1}\n', encoding="utf-8"
    ),
    "one sentence vector less": lambda v: np.save(v / SENTENCE_VECTORS, np.load(v / SENTENCE_VECTORS)[:-1]),
    "sentence offsets past its chunk": lambda v: _edit_first_sentence(v, lambda s: s.update(end=s["end"] + 10**6)),
    "sentence offsets backwards": lambda v: _edit_first_sentence(v, lambda s: s.update(start=s["end"])),
    "sentence of no chunk": lambda v: _edit_first_sentence(v, lambda s: s.update(chunk=10**4)),
    "faiss truncated": lambda v: _truncate(v / CHUNK_VECTORS, 1000),
    "faiss garbage": lambda v: (v / CHUNK_VECTORS).write_bytes(b"garbage!" * 64),
    "faiss empty": lambda v: (v / CHUNK_VECTORS).write_bytes(b""),
    "sentence vectors truncated": lambda v: _truncate(v / SENTENCE_VECTORS, 500),
    "English view for fewer sentences": lambda v: _save_view(v, lambda d: {**d, "vectors": d["vectors"][:-1]}),
    "English view without its glosses": lambda v: _save_view(v, lambda d: {"vectors": d["vectors"]}),
    "manifest without an English view": _edit_manifest(lambda m: m.update(english_view_sha256="")),
    "background not an npz": lambda v: (v / BACKGROUND).write_bytes(b"not a zip file at all"),
    "glossary not JSON": lambda v: (v / GLOSSARY).write_text("{oops", encoding="utf-8"),
    "glossary a list": lambda v: (v / GLOSSARY).write_text("[1, 2]", encoding="utf-8"),
    **{f"missing {name}": (lambda v, n=name: (v / n).unlink()) for name in LEXICAL_FILES.values()},
    "bm25 vocabulary not JSON": lambda v: (v / LEXICAL_FILES["vocab_name"]).write_text("{oops", encoding="utf-8"),
    "bm25 vocabulary larger than its matrix": lambda v: (v / LEXICAL_FILES["vocab_name"]).write_text(
        json.dumps({"价格": 10**6}), encoding="utf-8"
    ),
    "bm25 params for other documents": lambda v: (v / LEXICAL_FILES["params_name"]).write_text(
        json.dumps({**json.loads((v / LEXICAL_FILES["params_name"]).read_text(encoding="utf-8")), "num_docs": 3}),
        encoding="utf-8",
    ),
    "bm25 matrix truncated": lambda v: _truncate(v / LEXICAL_FILES["data_name"], 100),
    "bm25 matrix garbage": lambda v: (v / LEXICAL_FILES["indptr_name"]).write_bytes(b"garbage!" * 64),
}


@pytest.mark.parametrize("breakage", list(BREAKAGES))
def test_a_broken_index_fails_with_the_fix_named(index_copy, breakage: str) -> None:  # type: ignore[no-untyped-def]
    BREAKAGES[breakage](_version_dir(index_copy.index_dir))
    with pytest.raises(IndexLoadError) as caught:
        load_current(index_copy.index_dir)
    message = str(caught.value)
    assert FIX in message
    assert "\n" not in message


def test_truncated_background_file(index_copy) -> None:  # type: ignore[no-untyped-def]
    path = _version_dir(index_copy.index_dir) / BACKGROUND
    _truncate(path, path.stat().st_size // 2)
    with pytest.raises(IndexLoadError, match=FIX):
        load_current(index_copy.index_dir)


def test_current_naming_a_missing_version(index_copy) -> None:  # type: ignore[no-untyped-def]
    (index_copy.index_dir / "CURRENT").write_text("20990101T000000000000Z-gone\n", encoding="utf-8")
    with pytest.raises(IndexLoadError, match=FIX):
        load_current(index_copy.index_dir)


def test_corrupt_current_pointer(index_copy) -> None:  # type: ignore[no-untyped-def]
    (index_copy.index_dir / "CURRENT").write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(IndexLoadError, match=FIX):
        load_current(index_copy.index_dir)


def test_an_index_of_another_model(built_index) -> None:  # type: ignore[no-untyped-def]
    other = get_embedder("bundled:all-MiniLM-L6-v2").id  # only its id: no model is loaded
    with pytest.raises(IndexLoadError) as caught:
        load_current(built_index.index_dir, expected_embedder=other)
    message = str(caught.value)
    assert FIX in message and other in message and "ARTICLE_MODEL" in message


def test_stale_staging_folders_do_not_break_loading(index_copy) -> None:  # type: ignore[no-untyped-def]
    versions = index_copy.index_dir / "versions"
    (versions / ".tmp-20250101T000000000000Z-dead00").mkdir()
    (versions / ".tmp-20250101T000000000000Z-dead00" / CHUNKS).write_text('{"half', encoding="utf-8")
    (versions / ".tmp-99999999T999999999999Z-later0").mkdir()  # sorts after the live version
    (index_copy.index_dir / ".CURRENT.20250101T000000000000Z-dead00").write_text("x\n", encoding="utf-8")
    stored = load_current(index_copy.index_dir)
    assert stored.version == current_version(index_copy.index_dir)
    assert len(stored.chunks) > 0


def _version_parts(stored):  # type: ignore[no-untyped-def]
    """What write_version takes after the folder, from a loaded version."""
    return (
        stored.manifest,
        stored.chunks,
        stored.vectors,
        stored.sentences,
        stored.sentence_vectors,
        stored.glossary,
        stored.background,
    )


def _english_view(stored):  # type: ignore[no-untyped-def]
    return (stored.glosses, stored.gloss_vectors, stored.rendered, stored.shown)


def test_write_version_switches_atomically_and_prunes(built_index, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    stored = load_current(built_index.index_dir)
    index_dir = tmp_path / "index"
    (index_dir / "versions" / ".tmp-old").mkdir(parents=True)
    (index_dir / "versions" / ".tmp-young").mkdir()
    hour_and_more = (index_dir / "versions" / ".tmp-old").stat().st_mtime - 3700
    os.utime(index_dir / "versions" / ".tmp-old", (hour_and_more, hour_and_more))

    written = []
    for _ in range(3):
        path = write_version(index_dir, *_version_parts(stored), keep=2, english_view=_english_view(stored))
        written.append(path.name)
        assert current_version(index_dir) == path.name
        assert load_current(index_dir).version == path.name
    assert len(set(written)) == 3
    remaining = sorted(p.name for p in (index_dir / "versions").iterdir())
    assert remaining == sorted([*written[1:], ".tmp-young"])  # oldest version and old staging pruned
    assert sorted(p.name for p in index_dir.iterdir()) == ["CURRENT", "versions"]  # no pointer left over
    reloaded = load_version(index_dir / "versions" / written[-1])
    assert [c.chunk_id for c in reloaded.chunks] == [c.chunk_id for c in stored.chunks]
    assert np.array_equal(reloaded.sentence_vectors, stored.sentence_vectors)
    assert reloaded.glossary == stored.glossary
    assert reloaded.glosses == stored.glosses and np.array_equal(reloaded.gloss_vectors, stored.gloss_vectors)
    assert reloaded.shown == stored.shown and len(reloaded.shown) == len(stored.sentences)


def test_a_version_stored_before_readers_had_english_of_their_own_shows_the_view_s(built_index, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    stored = load_current(built_index.index_dir)
    path = write_version(tmp_path / "index", *_version_parts(stored), english_view=_english_view(stored))
    with np.load(path / ENGLISH_VIEW) as data:
        older = {name: data[name] for name in ("glosses", "vectors", "rendered")}
    np.savez(path / ENGLISH_VIEW, **older)
    reloaded = load_current(tmp_path / "index")
    assert reloaded.shown == [""] * len(stored.sentences)
    sid = next(i for i, flag in enumerate(reloaded.rendered) if flag)
    assert reloaded.reader_english(sid) == reloaded.glosses[sid]


def test_a_version_written_without_an_english_view_asks_to_be_built_again(built_index, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    stored = load_current(built_index.index_dir)
    write_version(tmp_path / "index", *_version_parts(stored))
    with pytest.raises(IndexLoadError, match="no English view.*" + re.escape(FIX)):
        load_current(tmp_path / "index")


def test_keep_one_version(built_index, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    stored = load_current(built_index.index_dir)
    index_dir = tmp_path / "index"
    parts = _version_parts(stored)
    first = write_version(index_dir, *parts, keep=1, english_view=_english_view(stored))
    second = write_version(index_dir, *parts, keep=1, english_view=_english_view(stored))
    assert not first.exists() and second.exists()
    assert current_version(index_dir) == second.name


@pytest.mark.parametrize(("threshold", "kind"), [(1000, "flat"), (50, "hnsw")])
def test_vector_index_kinds(threshold: int, kind: str) -> None:
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(200, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    index, made = make_vector_index(vectors, threshold)
    assert made == kind and index.ntotal == 200
    _, ids = index.search(vectors[:20], 1)
    assert ids[:, 0].tolist() == list(range(20))


@pytest.mark.parametrize("threshold", [1000, 50])
def test_single_query_search_runs_on_one_thread_and_builds_use_every_core(threshold: int) -> None:
    import faiss

    from index.build.store import search_vectors

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(200, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    faiss.omp_set_num_threads(2)
    index, _ = make_vector_index(vectors, threshold)
    assert faiss.omp_get_max_threads() == 2  # the caller's setting is restored after adding
    _, expected = index.search(vectors[3:4], 10)
    assert search_vectors(index, vectors[3].astype(np.float64), 10).tolist() == expected[0].tolist()
    assert faiss.omp_get_max_threads() == 1
    faiss.omp_set_num_threads(2)


def test_the_lexical_index_is_stored_with_the_version_and_loads_as_built(built_index) -> None:  # type: ignore[no-untyped-def]
    from index.build.chunking import passage_text
    from index.retrieve.retriever import Retriever

    questions_file = Path(__file__).parents[2] / "eval" / "dev_questions.jsonl"
    stored = load_current(built_index.index_dir)
    assert stored.manifest.lexical_tokenizer == TOKENIZER_VERSION
    assert all((stored.path / name).is_file() for name in LEXICAL_FILES.values())
    assert stored.lexical is not None and len(stored.lexical) == len(stored.chunks)
    assert Retriever(stored).lexical is stored.lexical  # no jieba at load
    fresh = LexicalIndex([passage_text(c) for c in stored.chunks])
    assert stored.lexical.vocabulary == fresh.vocabulary
    lines = questions_file.read_text(encoding="utf-8").splitlines()
    questions = [tokenize(json.loads(line)["q"]) for line in lines if line.strip()]
    questions += [sorted(fresh.vocabulary)[:50], ["不在语料里的词"], []]
    for tokens in questions:
        assert np.array_equal(stored.lexical.scores(tokens), fresh.scores(tokens)), tokens


def test_a_version_from_before_the_lexical_files_indexes_its_chunks_at_load(index_copy) -> None:  # type: ignore[no-untyped-def]
    from index.build.chunking import passage_text
    from index.retrieve.retriever import Retriever

    version = _version_dir(index_copy.index_dir)
    for name in LEXICAL_FILES.values():
        (version / name).unlink()
    _edit_manifest(lambda m: m.pop("lexical_tokenizer"))(version)
    stored = load_current(index_copy.index_dir)
    assert stored.lexical is None and stored.manifest.lexical_tokenizer == 0
    retriever = Retriever(stored)
    fresh = LexicalIndex([passage_text(c) for c in stored.chunks])
    assert retriever.lexical.vocabulary == fresh.vocabulary
    assert np.array_equal(retriever.lexical.scores(tokenize("价格多少")), fresh.scores(tokenize("价格多少")))
    # a tokenizer newer than the files: the same
    _edit_manifest(lambda m: m.update(lexical_tokenizer=TOKENIZER_VERSION + 1))(version)
    assert load_current(index_copy.index_dir).lexical is None


@contextlib.contextmanager
def _unprivileged() -> Iterator[None]:
    """Root reads any file: act as nobody (effective uid only, restored after) where it is root."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(65534)
    try:
        yield
    finally:
        os.seteuid(0)


def test_an_unreadable_index_says_permission_not_rebuild(index_copy) -> None:  # type: ignore[no-untyped-def]
    """Rebuilding can't fix a permission problem (and wouldn't be allowed to write): say what it is."""
    # A folder nobody may enter (pytest's own temporary folders are private to their user).
    shared = Path(tempfile.mkdtemp(prefix="perm-"))
    try:
        shared.chmod(0o755)
        index_dir = shared / "index"
        shutil.copytree(index_copy.index_dir, index_dir)
        for path in [index_dir, *index_dir.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        version = _version_dir(index_dir)
        for target in (version / CHUNKS, version / CHUNK_VECTORS, index_dir / "CURRENT"):
            target.chmod(0)
            try:
                with _unprivileged(), pytest.raises(IndexLoadError) as caught:
                    load_current(index_dir)
            finally:
                target.chmod(0o644)
            message = str(caught.value)
            assert "permission denied" in message and "--force" not in message and "\n" not in message, message
    finally:
        shutil.rmtree(shared, ignore_errors=True)


def test_an_index_folder_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "index").write_text("not a folder", encoding="utf-8")
    with pytest.raises(IndexLoadError, match="is a file, not a folder"):
        current_version(tmp_path / "index")


def test_a_killed_builds_staging_folder_is_removed_and_a_running_ones_kept(tmp_path: Path) -> None:
    import fcntl

    versions = tmp_path / "index" / "versions"
    killed, running, ancient = (versions / f".tmp-2025010{i}T000000000000Z-abc{i}" for i in range(3))
    for folder in (killed, running, ancient):
        folder.mkdir(parents=True)
        (folder / CHUNKS).write_text('{"half', encoding="utf-8")
    (killed / STAGING_LOCK).touch()  # its build died: nobody holds the lock
    (running / STAGING_LOCK).touch()
    os.utime(ancient, (0, 0))  # no lock at all (older code), long untouched
    with (running / STAGING_LOCK).open("rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what a build in progress holds
        assert remove_abandoned_staging(tmp_path / "index") == 2
        assert not killed.exists() and not ancient.exists() and running.is_dir()
    assert remove_abandoned_staging(tmp_path / "index") == 1  # released: abandoned now
    assert not running.exists()


def test_an_index_says_which_english_view_it_has(built_index) -> None:  # type: ignore[no-untyped-def]
    import dataclasses

    stored = load_current(built_index.index_dir, expected_embedder=get_embedder(built_index.model).id)
    n = len(stored.sentences)
    assert dataclasses.replace(stored, rendered=[False] * n).english_view == "glossed"
    assert dataclasses.replace(stored, rendered=[False] * (n - 2) + [True] * 2).english_view == "glossed"
    assert dataclasses.replace(stored, rendered=[False] * (n // 2) + [True] * (n - n // 2)).english_view == "rendered"
    assert dataclasses.replace(stored, glosses=None, gloss_vectors=None, rendered=None).english_view == "glossed"
