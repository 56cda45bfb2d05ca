"""Loading the corpus: every UTF-8 .md/.txt document in a folder, with an optional metadata sidecar.

The documents are read, never rewritten: citation offsets point into the original text.
A sidecar ``<name>.meta.toml`` beside ``<name>.txt`` gives doc_id, title, author, date and
language; without one, defaults come from the file name and the first line (when it reads as a title).
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import tomllib
from pydantic import BaseModel, ValidationError

from index.build.chunking import title_line
from index.errors import CorpusError

DOCUMENT_SUFFIXES = (".md", ".txt")
META_SUFFIX = ".meta.toml"
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024


class DocumentMeta(BaseModel):
    doc_id: str
    title: str
    author: str = ""
    date: str = ""
    language: str = "und"


class Document(BaseModel):
    meta: DocumentMeta
    path: str
    text: str
    sha256: str

    @property
    def doc_id(self) -> str:
        return self.meta.doc_id


def slugify(name: str) -> str:
    slug = re.sub(r"[^\w.-]+", "-", name.strip().lower(), flags=re.UNICODE).strip("-.")
    return slug or "document"


def guess_language(text: str) -> str:
    sample = text[:5000]
    cjk = sum(1 for ch in sample if "\u4e00" <= ch <= "\u9fff")
    latin = sum(1 for ch in sample if ch.isascii() and ch.isalpha())
    if cjk == 0 and latin == 0:
        return "und"
    return "zh" if cjk >= latin / 4 else "en"


def title_from_name(stem: str) -> str:
    """A file name as a title: its words apart, the first capitalised when the name is all lower case
    ("fresno-_california" → "Fresno california"). A passage is embedded under its title, and e5 reads
    "ctenophora" and "Ctenophora" as different words."""
    words = [w for w in re.split(r"[-_\s]+", stem) if w]
    if not words:
        return stem
    if stem.islower():
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words)


def default_meta(path: Path, text: str) -> DocumentMeta:
    """Metadata without a sidecar: the title from the first line only when it reads as one
    (chunking.title_line), else from the file name; the text is then all body."""
    return DocumentMeta(
        doc_id=slugify(path.stem),
        title=title_line(text) or title_from_name(path.stem),
        language=guess_language(text),
    )


def _read_meta(meta_path: Path, path: Path, text: str) -> DocumentMeta:
    base = default_meta(path, text).model_dump()
    try:
        data = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise CorpusError(f"{meta_path}: not valid TOML ({error})") from None
    try:
        return DocumentMeta(**{**base, **data})
    except ValidationError as error:
        first = error.errors()[0]
        raise CorpusError(f"{meta_path}: field {first['loc'][0]!s}: {first['msg']}") from None


def document_paths(corpus_dir: Path) -> list[Path]:
    if not corpus_dir.exists():
        raise CorpusError(f"corpus folder {corpus_dir} does not exist (set --corpus or ARTICLE_CORPUS_DIR)")
    if not corpus_dir.is_dir():
        raise CorpusError(f"corpus path {corpus_dir} is not a folder")
    return sorted(p for p in corpus_dir.rglob("*") if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES)


def load_document(path: Path, corpus_dir: Path) -> Document | None:
    """Read one document; None (with a warning) for an empty one."""
    raw = path.read_bytes()
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise CorpusError(f"{path}: {len(raw) / 1e6:.1f} MB is over the {MAX_DOCUMENT_BYTES // 2**20} MB limit")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CorpusError(f"{path}: not UTF-8 (byte {error.start}); convert it, e.g. iconv -f GBK -t UTF-8") from None
    if not text.strip():
        print(f"warning: skipping empty document {path}", file=sys.stderr)
        return None
    meta_path = path.with_name(path.name[: -len(path.suffix)] + META_SUFFIX)
    meta = _read_meta(meta_path, path, text) if meta_path.is_file() else default_meta(path, text)
    return Document(
        meta=meta,
        path=path.relative_to(corpus_dir).as_posix(),
        text=text,
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def load_corpus(corpus_dir: Path) -> list[Document]:
    """All documents of the corpus, in path order; CorpusError if there is nothing to index."""
    paths = document_paths(corpus_dir)
    if not paths:
        raise CorpusError(f"corpus folder {corpus_dir} has no .md or .txt documents")
    documents = [doc for path in paths if (doc := load_document(path, corpus_dir)) is not None]
    if not documents:
        raise CorpusError(f"every document in {corpus_dir} is empty")
    seen: dict[str, str] = {}
    for doc in documents:
        if doc.doc_id in seen:
            raise CorpusError(f"doc_id {doc.doc_id!r} is used by both {seen[doc.doc_id]} and {doc.path}")
        seen[doc.doc_id] = doc.path
    return documents
