"""The English line of an extractive answer, from the index: the chosen sentences as EnglishUnits
(section path, table header and cells, list lead-in) and the corpus's lexicon (issue #23).

The one place that reads the index for ``english.english_line``; the line itself is pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.answer.units import is_heading, is_table_row, lead_in_of, table_header
from index.build.chunking import SECTION_SEPARATOR
from index.build.store import Sentence, StoredIndex
from index.english.lexicon import lexicon_for
from index.english.render import EnglishUnit, english_line
from index.english.renderings import with_source_names
from index.text.language import detect_language


def english_units(stored: StoredIndex, sentences: Sequence[int]) -> list[EnglishUnit]:
    units = []
    for sid in sentences:
        sentence = stored.sentences[sid]
        text = stored.sentence_text(sentence)
        section = tuple(stored.chunks[sentence.chunk].section.split(SECTION_SEPARATOR))
        header: tuple[str, ...] = ()
        cells: tuple[str, ...] = ()
        if is_table_row(text):
            found = table_header(stored, sentence)
            if found is not None and found != text:
                header, cells = tuple(c.strip() for c in found.split("\t")), tuple(c.strip() for c in text.split("\t"))
        lead = lead_in_of(stored, sid)
        lead_in = stored.sentence_text(stored.sentences[lead]) if lead is not None and lead != sid else ""
        units.append(EnglishUnit(text, section, header, cells, lead_in))
    return units


def lexicon_of(stored: StoredIndex):  # type: ignore[no-untyped-def]
    """The corpus's Chinese → English lexicon, made once per index version."""
    return lexicon_for(stored.version, (chunk.text for chunk in stored.chunks))


def english_opening(stored: StoredIndex, sentences: Sequence[int], question: str) -> str:
    """The English sentence(s) an answer to ``question`` from these sentences opens with: their
    verified translations when every one has one (translated_line); when only some have, each
    sentence's own (its translation, else its word-for-word line), so that a span's translated
    part still reads as English; else the word-for-word line."""
    translated = translated_line(stored, sentences)
    if translated:
        return translated
    if len(sentences) > 1 and any(stored.reader_english(s) for s in sentences):
        return " ".join(filter(None, (english_opening(stored, [s], question) for s in sentences)))
    return english_line(question, english_units(stored, sentences), lexicon_of(stored))


def translated_line(stored: StoredIndex, sentences: Sequence[int]) -> str | None:
    """The chosen sentences' verified renderings (`python -m index enrich`), or their own text where
    written in English, a heading marked as one and a table row read with its header's names; None
    unless every sentence has one."""
    found = [text for text in (rendering(stored, sid) for sid in sentences) if text]
    if not sentences or len(found) != len(sentences):
        return None
    parts = []
    for sid, text in zip(sentences, found, strict=True):
        sentence = stored.sentences[sid]
        if is_table_row(stored.sentence_text(sentence)):
            header = _rendered_header(stored, sentence)
            cells = [c.strip() for c in text.split("|")]
            if header is not None and len(header) == len(cells) > 1:
                named = zip(header[1:], cells[1:], strict=True)
                text = f"{cells[0]}: " + "; ".join(f"{name}: {cell}" for name, cell in named)
            text = text if text.endswith((".", "!", "?")) else f"{text}."  # rows in a line read one by one
        elif is_heading(stored, sid):
            text = f"{text.rstrip(':：')} —"
        parts.append(text)
    return " ".join(parts)


def rendering(stored: StoredIndex, sid: int) -> str | None:
    """A sentence's English: its verified translation, or its own text where written in English; None
    when it has neither (its gloss is no translation)."""
    if stored.rendered is None or stored.glosses is None:
        return None
    source = stored.sentence_text(stored.sentences[sid])
    if in_english(stored, sid):
        return source
    english = stored.reader_english(sid)
    return with_source_names(source, english.strip()) if english else None


def in_english(stored: StoredIndex, sid: int) -> bool:
    """Whether a sentence of the corpus is written in English already (a quote, an identifier): its
    own text is its English, no translation needed."""
    text = stored.sentence_text(stored.sentences[sid])
    return any("a" <= c.lower() <= "z" for c in text) and detect_language(text) == "en"


def english_section(stored: StoredIndex, section: str) -> str:
    """A section path as an English reader reads it: its headings' verified English, then the path as
    written, which the sources show ("“Six insights into the industry” (六、对行业的启示)"); as written
    when none of its headings has one."""
    parts = section.split(SECTION_SEPARATOR)
    sids = [_heading_sentence(stored, SECTION_SEPARATOR.join(parts[: i + 1]), part) for i, part in enumerate(parts)]
    english = [rendering(stored, sid) if sid is not None else None for sid in sids]
    if not any(english):
        return section
    named = SECTION_SEPARATOR.join((e.rstrip(":：.").strip() if e else p) for e, p in zip(english, parts, strict=True))
    return f"“{named}” ({section})"


def _heading_sentence(stored: StoredIndex, path: str, heading: str) -> int | None:
    """The sentence that is a section's heading: its text (a title line's dashes aside), in a passage of
    that section."""
    for index, chunk in enumerate(stored.chunks):
        if chunk.section == path or chunk.section.startswith(path + SECTION_SEPARATOR):
            for sid in stored.sentences_of(index):
                if stored.sentence_text(stored.sentences[sid]).strip().lstrip("—-–· ") == heading:
                    return sid
    return None


def _rendered_header(stored: StoredIndex, sentence: Sentence) -> list[str] | None:
    """The cells of a table row's header row, as its verified rendering has them."""
    found = table_header(stored, sentence)
    if found is None:
        return None
    for sid in stored.sentences_of(sentence.chunk):
        if stored.sentence_text(stored.sentences[sid]) == found and (english := stored.reader_english(sid)):
            return [c.strip() for c in english.split("|")]
    return None


__all__ = [
    "english_opening",
    "english_section",
    "english_units",
    "in_english",
    "lexicon_of",
    "rendering",
    "translated_line",
]
