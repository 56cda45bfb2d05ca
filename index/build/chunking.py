"""Chunking that respects the text: sections from headings, whole sentences, exact offsets.

Pure functions. Every chunk is a contiguous span of its document: ``text[start:end] ==
chunk.text``. Paragraphs are the document's non-empty lines, numbered from 1.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from index.models import Chunk

SECTION_SEPARATOR = " › "

_CN_NUM = "一二三四五六七八九十百零〇"
_HEADING_1 = re.compile(rf"^(?:[{_CN_NUM}]+、\S.{{0,38}}|(?:结语|结论|总结|前言|引言|后记|尾声|附录)[：:]?)$")
_HEADING_2 = re.compile(rf"^(?:阶段[{_CN_NUM}\d]+[：:].{{1,40}}|第[{_CN_NUM}\d]+[，,、：:].{{1,40}})$")
_MD_HEADING = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*$")
_END_MARK = re.compile(r"^[—\-=~*]{2,}\s*(?:END|完|全文完)\s*[—\-=~*]{2,}$", re.IGNORECASE)
_BYLINE_DATE = re.compile(r"(?:\d{4}\s*年\s*\d{1,2}\s*月|\d{4}-\d{2}-\d{2}|\d{4}/\d{1,2}/\d{1,2})")
_TABLE_ROW = re.compile(r"\t|^\|.*\|$")

# Sentence ends: Chinese terminators always; Latin ones only before whitespace, so that
# numbers (70.2%, K2.5, 1/10) and model names stay whole.
_CJK_END = "。！？；…"
_LATIN_END = ".?!;"
_CLOSERS = "」』”’）)]》"
_OPENERS = {"『": "』", "「": "」", "“": "”", "（": "）", "《": "》"}


class Kind(str, Enum):
    TITLE = "title"
    BYLINE = "byline"
    HEADING = "heading"
    TABLE = "table"
    BODY = "body"
    END = "end"


@dataclass(frozen=True)
class Paragraph:
    number: int  # 1-based over the non-empty lines
    start: int
    end: int
    text: str
    kind: Kind = Kind.BODY
    level: int = 0  # heading level (1 = section, 2 = sub-section)


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass
class _Unit:
    """Something packed into a chunk whole: a sentence, a paragraph, or a glued group."""

    start: int
    end: int
    paragraphs: list[int]
    sentence_level: bool = False

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class _Block:
    """Consecutive paragraphs under one section path."""

    section: str
    paragraphs: list[Paragraph] = field(default_factory=list)


def passage_text(chunk: Chunk) -> str:
    """What is embedded and BM25-indexed for a chunk: its section path gives short passages their
    context. Shared by the build and the retriever (an old version's lexical index is made at load)."""
    if chunk.section and not chunk.text.startswith(chunk.section.split(SECTION_SEPARATOR)[-1]):
        return f"{chunk.section}\n{chunk.text}"
    return chunk.text


def normalize_text(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split())


def chunk_id_for(doc_id: str, text: str) -> str:
    return hashlib.sha1(f"{doc_id}\n{normalize_text(text)}".encode()).hexdigest()[:16]


def split_paragraphs(text: str) -> list[Paragraph]:
    """Non-empty lines with their spans (surrounding white space excluded)."""
    paragraphs: list[Paragraph] = []
    pos = 0
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped:
            lead = len(line) - len(line.lstrip())
            start = pos + lead
            paragraphs.append(Paragraph(len(paragraphs) + 1, start, start + len(stripped), stripped))
        pos += len(line) + 1
    return paragraphs


# a line ending so is a sentence, a clause or a lead-in, not a title or a byline
_SENTENCE_FINAL = tuple("。！？；，：….!?;,:")
TITLE_MAX_CHARS = 100


def reads_as_title(line: str, blank_after: bool) -> bool:
    """A first line is a title when it reads as one: a Markdown heading, or a short line with no
    sentence-final punctuation and a blank line after it. Otherwise a document's text is all body
    (a pasted text or a transcript starts with its first paragraph)."""
    text = line.strip()
    if text.startswith("#"):
        return bool(_MD_HEADING.match(text))
    return blank_after and 0 < len(text) <= TITLE_MAX_CHARS and not text.endswith(_SENTENCE_FINAL)


def title_line(text: str) -> str | None:
    """The document's title as its first line states it (decoration such as ``#`` or ``——`` removed),
    or None when the text opens with body."""
    paragraphs = split_paragraphs(text)
    if len(paragraphs) < 2 or not reads_as_title(paragraphs[0].text, _blank_between(text, *paragraphs[:2])):
        return None
    return paragraphs[0].text.lstrip("#").strip().strip("—-").strip() or None


def _blank_between(text: str, first: Paragraph, second: Paragraph) -> bool:
    return text.count("\n", first.end, second.start) >= 2


def _classify(paragraph: Paragraph, kind: Kind, level: int) -> Paragraph:
    return Paragraph(paragraph.number, paragraph.start, paragraph.end, paragraph.text, kind, level)


def _kind(paragraph: Paragraph, opens_body: bool) -> tuple[Kind, int]:
    """A paragraph's kind, the title aside; ``opens_body``: it is the first after the title line (or
    the first of a document without one), where a byline may stand."""
    text = paragraph.text
    kind, level = Kind.BODY, 0
    md = _MD_HEADING.match(text)
    if _END_MARK.match(text):
        kind = Kind.END
    elif opens_body and len(text) <= 80 and _BYLINE_DATE.search(text) and not text.endswith(_SENTENCE_FINAL):
        kind = Kind.BYLINE
    elif md:
        kind, level = Kind.HEADING, len(md.group(1))
    elif _HEADING_1.match(text):
        kind, level = Kind.HEADING, 1
    elif _HEADING_2.match(text) and len(text) <= 40:
        kind, level = Kind.HEADING, 2
    elif _TABLE_ROW.search(text):
        kind = Kind.TABLE
    return kind, level


def _is_title(paragraphs: list[Paragraph], text: str, title: str) -> bool:
    """The first paragraph is the title line: it reads as a title and states ``title`` (any title
    when none is given), or is set apart as one (``——Title``, ``# Title``)."""
    if len(paragraphs) < 2 or not reads_as_title(paragraphs[0].text, _blank_between(text, *paragraphs[:2])):
        return False
    first = paragraphs[0].text
    if first.startswith(("——", "#")) or not title:
        return True
    stated = first.lstrip("#").strip().strip("—-").strip()
    return title in first or (bool(stated) and stated in title)


def classify_paragraphs(text: str, title: str = "") -> list[Paragraph]:
    paragraphs = split_paragraphs(text)
    titled = _is_title(paragraphs, text, title)
    body = paragraphs[1:] if titled else paragraphs
    found = [_classify(paragraphs[0], Kind.TITLE, 0)] if titled else []
    return found + [_classify(p, *_kind(p, opens_body=i == 0)) for i, p in enumerate(body)]


def _heading_label(paragraph: Paragraph) -> str:
    md = _MD_HEADING.match(paragraph.text)
    return md.group(2) if md else paragraph.text


def sections(paragraphs: Iterable[Paragraph], title: str) -> list[_Block]:
    """Group paragraphs into blocks by their section path; the title and byline form their own."""
    blocks: list[_Block] = []
    path: list[tuple[int, str]] = []  # open headings, outermost first: (level, label)
    for paragraph in paragraphs:
        if paragraph.kind is Kind.END:
            continue
        if paragraph.kind in (Kind.TITLE, Kind.BYLINE):
            section = title
        elif paragraph.kind is Kind.HEADING:
            # a heading closes every open heading at its level or deeper (## after ### is a sibling)
            while path and path[-1][0] >= paragraph.level:
                path.pop()
            path.append((paragraph.level, _heading_label(paragraph)))
            section = SECTION_SEPARATOR.join(label for _, label in path)
        else:
            section = SECTION_SEPARATOR.join(label for _, label in path) or title
        header = paragraph.kind in (Kind.TITLE, Kind.BYLINE)
        if not blocks or blocks[-1].section != section or header != _is_header(blocks[-1]):
            blocks.append(_Block(section))
        blocks[-1].paragraphs.append(paragraph)
    return blocks


def _is_header(block: _Block) -> bool:
    return block.paragraphs[0].kind in (Kind.TITLE, Kind.BYLINE)


def sentence_spans(text: str, offset: int = 0, whole: frozenset[str] = frozenset()) -> list[Span]:
    """Sentences of a text (lines first, then terminators outside quotations), as absolute spans.
    Lines listed in ``whole`` (headings such as 三、性能怎么样？值不值) stay one sentence."""
    spans: list[Span] = []
    pos = 0
    for line in text.split("\n"):
        if line.strip() and line.strip() in whole:
            spans.extend(_trimmed(line, 0, len(line), offset + pos))
        else:
            spans.extend(_line_sentences(line, offset + pos))
        pos += len(line) + 1
    return spans


def _line_sentences(line: str, offset: int) -> Iterator[Span]:
    stack: list[str] = []
    start = 0
    i = 0
    n = len(line)
    while i < n:
        ch = line[i]
        if ch in _OPENERS:
            stack.append(_OPENERS[ch])
        elif stack and ch == stack[-1]:
            stack.pop()
        elif not stack and (
            ch in _CJK_END or (ch in _LATIN_END and (i + 1 == n or line[i + 1] == " ") and not _abbreviation(line, i))
        ):
            j = i + 1
            while j < n and (line[j] in _CJK_END or line[j] in _LATIN_END or line[j] in _CLOSERS):
                j += 1
            yield from _trimmed(line, start, j, offset)
            start = i = j
            continue
        i += 1
    yield from _trimmed(line, start, n, offset)


_ABBREVIATIONS = frozenset(
    ["e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "ms", "dr", "prof", "inc", "ltd", "co", "fig", "no", "st", "approx"]
)


def _abbreviation(line: str, i: int) -> bool:
    """A period that ends 'e.g.', 'etc.', 'Dr.' or an initial ('J. Smith') ends no sentence."""
    if line[i] != ".":
        return False
    j = i
    while j > 0 and (line[j - 1].isalpha() or line[j - 1] == "."):
        j -= 1
    word = line[j:i].lower()
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha() and i + 1 < len(line))


def _trimmed(line: str, start: int, end: int, offset: int) -> Iterator[Span]:
    piece = line[start:end]
    if piece.strip():
        lead = len(piece) - len(piece.lstrip())
        yield Span(offset + start + lead, offset + start + lead + len(piece.strip()))


def _units(block: _Block, text: str, size: int) -> list[_Unit]:
    """Units of a block, with the glue rules applied (heading → next, table rows together,
    a lead-in ending in a colon → next, a quotation → its translation when both fit)."""
    units: list[_Unit] = []
    glue_next = False
    for paragraph in block.paragraphs:
        if (
            paragraph.kind is Kind.TABLE
            and units
            and _is_table(block, units[-1])
            and paragraph.end - units[-1].start <= 2 * size  # a long table breaks between rows
        ):
            glue = True
        else:
            glue = glue_next or (
                paragraph.text.startswith("翻译") and units and _quote_fits(units[-1], paragraph, size)
            )
        if paragraph.kind is Kind.BODY and paragraph.end - paragraph.start > size and not glue:
            new = [
                _Unit(s.start, s.end, [paragraph.number], sentence_level=True)
                for s in sentence_spans(paragraph.text, paragraph.start)
            ]
        else:
            new = [_Unit(paragraph.start, paragraph.end, [paragraph.number])]
        if glue and units:
            last = units.pop()
            merged = _Unit(last.start, new[0].end, [*last.paragraphs, paragraph.number])
            new = [merged, *new[1:]]
        units.extend(piece for unit in new for piece in _bounded(unit, text, size))
        glue_next = paragraph.kind is Kind.HEADING or paragraph.text.endswith(("：", ":"))
        glue_next = glue_next or paragraph.kind in (Kind.TITLE,)
    del text
    return units


_BREAKS = "，、；,; \t"


def _bounded(unit: _Unit, text: str, size: int) -> list[_Unit]:
    """A unit longer than twice the target (a sentence with no terminator) cut into pieces of
    about the target size, at a comma or a space when there is one."""
    if unit.size <= 2 * size or len(unit.paragraphs) > 1:
        return [unit]
    pieces = []
    start = unit.start
    while unit.end - start > 2 * size:
        window = text[start : start + size]
        cut = max(window.rfind(ch) for ch in _BREAKS)
        end = start + (cut + 1 if cut > size // 2 else size)
        pieces.append(_Unit(start, end, unit.paragraphs, sentence_level=True))
        start = end
        while start < unit.end and text[start] == " ":
            start += 1
    pieces.append(_Unit(start, unit.end, unit.paragraphs, sentence_level=True))
    return [p for p in pieces if p.end > p.start]


def _is_table(block: _Block, unit: _Unit) -> bool:
    last = next(p for p in block.paragraphs if p.number == unit.paragraphs[-1])
    return last.kind is Kind.TABLE


def _quote_fits(previous: _Unit, paragraph: Paragraph, size: int) -> bool:
    return previous.size + (paragraph.end - paragraph.start) <= 2 * size


def _pack(units: list[_Unit], size: int, overlap: int) -> list[_Unit]:
    """Greedy packing of whole units up to the target size; optional sentence overlap."""
    chunks: list[list[_Unit]] = []
    for unit in units:
        if chunks and chunks[-1] and (unit.end - chunks[-1][0].start) <= size:
            chunks[-1].append(unit)
        else:
            carried = []
            if overlap and chunks:
                tail = [u for u in chunks[-1][-overlap:] if u.sentence_level]
                if tail and unit.end - tail[0].start <= size * 2:
                    carried = tail
            chunks.append([*carried, unit])
    return [_Unit(group[0].start, group[-1].end, sorted({p for u in group for p in u.paragraphs})) for group in chunks]


def chunk_document(doc_id: str, text: str, title: str = "", size: int = 220, overlap: int = 0) -> list[Chunk]:
    """Chunks of one document, in document order, with unique stable ids."""
    paragraphs = classify_paragraphs(text, title)
    title = title or title_line(text) or doc_id
    chunks: list[Chunk] = []
    seen: dict[str, int] = {}
    for block in sections(paragraphs, title):
        for unit in _pack(_units(block, text, size), size, overlap):
            body = text[unit.start : unit.end]
            cid = chunk_id_for(doc_id, body)
            seen[cid] = seen.get(cid, 0) + 1
            if seen[cid] > 1:  # the same text twice in one document still needs two ids
                cid = chunk_id_for(doc_id, f"{body}\n#{seen[cid]}")
            chunks.append(
                Chunk(
                    chunk_id=cid,
                    doc_id=doc_id,
                    section=block.section,
                    paragraphs=unit.paragraphs,
                    start=unit.start,
                    end=unit.end,
                    text=body,
                )
            )
    return chunks
