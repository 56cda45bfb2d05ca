"""Loading the corpus (index/build/corpus.py): real files in tmp_path, real errors."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from index.build.corpus import MAX_DOCUMENT_BYTES, CorpusError, load_corpus, title_from_name
from tests.index.support import ARTICLE, CORPUS, TITLE

SHARED_ARTICLE = Path("/work/shared/source/article.txt")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_real_corpus_with_its_sidecar() -> None:
    [doc] = load_corpus(CORPUS)
    assert doc.doc_id == "composer-2-5"
    assert doc.path == "composer-2-5.txt"
    assert doc.meta.title == TITLE
    assert doc.meta.author == "Kate"
    assert doc.meta.date == "2026-05-20"
    assert doc.meta.language == "zh"
    raw = ARTICLE.read_bytes()
    assert doc.text == raw.decode("utf-8")  # read, never rewritten: offsets point into the file
    assert doc.sha256 == hashlib.sha256(raw).hexdigest()


@pytest.mark.skipif(not SHARED_ARTICLE.is_file(), reason="no shared copy of the published article here")
def test_corpus_article_is_the_published_article_byte_for_byte() -> None:
    assert ARTICLE.read_bytes() == SHARED_ARTICLE.read_bytes()


def test_defaults_without_a_sidecar(tmp_path: Path) -> None:
    _write(tmp_path, "My Notes.md", "\n# 我的 笔记\n\n这是中文内容，讲的是模型。\n")
    _write(tmp_path, "sub/Travel Log.txt", "—— A trip to Lisbon ——\n\nWe took the night train.\n")
    docs = {d.doc_id: d for d in load_corpus(tmp_path)}
    assert set(docs) == {"my-notes", "travel-log"}
    notes, travel = docs["my-notes"], docs["travel-log"]
    assert notes.meta.title == "我的 笔记"
    assert notes.meta.language == "zh"
    assert notes.meta.author == "" and notes.meta.date == ""
    assert travel.meta.title == "A trip to Lisbon"
    assert travel.meta.language == "en"
    assert travel.path == "sub/Travel Log.txt"


@pytest.mark.parametrize(
    "text",
    [
        "Warsaw is the capital and largest city of Poland.\n\nIt stands on the Vistula River.\n",  # a sentence
        "华沙是波兰的首都和最大城市。\n\n它有一百七十万人口。\n",  # a Chinese sentence
        "Warsaw\nWarsaw is the capital of Poland.\n",  # no blank line after it
        ("A first line that goes on and on without a stop " * 3) + "\n\nSecond paragraph.\n",  # too long
        "Only one line, a title perhaps\n",  # nothing else: the line is the body
    ],
    ids=["sentence", "zh-sentence", "no-blank-line", "long", "single-line"],
)
def test_a_first_line_that_does_not_read_as_a_title_stays_body(tmp_path: Path, text: str) -> None:
    _write(tmp_path, "Pasted_Text.txt", text)
    [doc] = load_corpus(tmp_path)
    assert doc.meta.title == "Pasted Text"  # the file name's words


@pytest.mark.parametrize(
    ("stem", "title"),
    [("ctenophora", "Ctenophora"), ("fresno-_california", "Fresno california"), ("Kimi-K2_report", "Kimi K2 report")],
)
def test_a_title_from_a_file_name_is_written_as_words(stem: str, title: str) -> None:
    """Separators apart; an all-lower-case name's first letter capitalised, any other kept as written."""
    assert title_from_name(stem) == title


def test_sidecar_overrides_only_what_it_sets(tmp_path: Path) -> None:
    _write(tmp_path, "essay.md", "# Original title\n\nBody text.\n")
    _write(tmp_path, "essay.meta.toml", 'author = "Ann"\ndoc_id = "my-essay"\n')
    [doc] = load_corpus(tmp_path)
    assert (doc.doc_id, doc.meta.author, doc.meta.title) == ("my-essay", "Ann", "Original title")


def test_other_files_are_ignored(tmp_path: Path) -> None:
    _write(tmp_path, "a.txt", "Alpha.\n")
    _write(tmp_path, "notes.pdf", "not a document")
    _write(tmp_path, "data.json", "{}")
    assert [d.path for d in load_corpus(tmp_path)] == ["a.txt"]


@pytest.mark.parametrize("make", ["missing", "empty", "no-documents", "a-file"])
def test_nothing_to_index_is_a_corpus_error(tmp_path: Path, make: str) -> None:
    target = tmp_path / "corpus"
    if make == "empty":
        target.mkdir()
    elif make == "no-documents":
        _write(target, "readme.pdf", "x")
    elif make == "a-file":
        target.write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(CorpusError, match="corpus"):
        load_corpus(target)


def test_non_utf8_document_is_named(tmp_path: Path) -> None:
    _write(tmp_path, "good.txt", "好的。\n")
    (tmp_path / "gbk.txt").write_bytes("这是 GBK 编码的中文。".encode("gbk"))
    with pytest.raises(CorpusError, match=r"gbk\.txt.*not UTF-8") as caught:
        load_corpus(tmp_path)
    assert "\n" not in str(caught.value)


def test_empty_document_is_skipped_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "empty.txt", " \n\n\t\n")
    _write(tmp_path, "real.txt", "内容。\n")
    docs = load_corpus(tmp_path)
    assert [d.path for d in docs] == ["real.txt"]
    err = capsys.readouterr().err
    assert "warning" in err and "empty.txt" in err


def test_only_empty_documents_is_an_error(tmp_path: Path) -> None:
    _write(tmp_path, "empty.txt", "\n")
    with pytest.raises(CorpusError, match="empty"):
        load_corpus(tmp_path)


def test_invalid_toml_sidecar(tmp_path: Path) -> None:
    _write(tmp_path, "doc.txt", "Text.\n")
    _write(tmp_path, "doc.meta.toml", 'title = "unclosed\n')
    with pytest.raises(CorpusError, match=r"doc\.meta\.toml.*TOML"):
        load_corpus(tmp_path)


def test_sidecar_with_a_wrong_type_names_the_field(tmp_path: Path) -> None:
    _write(tmp_path, "doc.txt", "Text.\n")
    _write(tmp_path, "doc.meta.toml", "author = 5\n")
    with pytest.raises(CorpusError, match=r"doc\.meta\.toml.*author"):
        load_corpus(tmp_path)


def test_duplicate_doc_id(tmp_path: Path) -> None:
    _write(tmp_path, "report.md", "One.\n")
    _write(tmp_path, "Report.txt", "Two.\n")  # slugifies to the same id
    with pytest.raises(CorpusError, match="report") as caught:
        load_corpus(tmp_path)
    assert "report.md" in str(caught.value) and "Report.txt" in str(caught.value)


def test_duplicate_doc_id_from_a_sidecar(tmp_path: Path) -> None:
    shutil.copy(ARTICLE, tmp_path / ARTICLE.name)
    shutil.copy(CORPUS / "composer-2-5.meta.toml", tmp_path / "composer-2-5.meta.toml")
    _write(tmp_path, "other.txt", "Other.\n")
    _write(tmp_path, "other.meta.toml", 'doc_id = "composer-2-5"\n')
    with pytest.raises(CorpusError, match="composer-2-5"):
        load_corpus(tmp_path)


def test_oversized_document(tmp_path: Path) -> None:
    (tmp_path / "huge.txt").write_bytes(b"a. " * (MAX_DOCUMENT_BYTES // 3 + 1))
    with pytest.raises(CorpusError, match=r"huge\.txt.*MB"):
        load_corpus(tmp_path)
