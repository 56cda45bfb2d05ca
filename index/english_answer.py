"""The English line of an extractive answer, from the index: the chosen sentences as EnglishUnits
(section path, table header and cells, list lead-in) and the corpus's lexicon (issue #23).

The one place that reads the index for ``english.english_line``; the line itself is pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.answering.units import is_table_row, lead_in_of, table_header
from index.chunking import SECTION_SEPARATOR
from index.english import EnglishUnit, english_line
from index.lexicon import lexicon_for
from index.store import StoredIndex


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
    """The English sentence(s) an answer to ``question`` from these sentences opens with."""
    return english_line(question, english_units(stored, sentences), lexicon_of(stored))


def verifier_of(stored: StoredIndex):  # type: ignore[no-untyped-def]
    """What checks a generated answer against its cited passages, with this version's words."""
    from index.grounding import PassageVerifier

    return PassageVerifier(_grounding(stored))


def _grounding(stored: StoredIndex):  # type: ignore[no-untyped-def]
    from index.grounding import Grounding
    from index.lexicon import english_vocabulary

    return Grounding(lexicon_of(stored), stored.glossary, english_vocabulary())


def ungrounded_claims(stored: StoredIndex, result) -> list[str]:  # type: ignore[no-untyped-def]
    """The numbers and names of an answer that the passages it cites don't state (evaluation)."""
    grounding = _grounding(stored)
    cited = {c.chunk_id for c in result.citations}
    texts = {i + 1: p.text for i, p in enumerate(p for p in result.passages if p.chunk_id in cited)}
    # markers are renumbered in the shown answer: check against every cited passage
    problems = grounding.problems(_unmarked(result.answer), texts) if texts else []
    return [str(p) for p in problems if p.kind in ("number", "name")]


def _unmarked(text: str) -> str:
    import re

    return re.sub(r"\[\d+\]", "", text)


__all__ = ["english_opening", "english_units", "lexicon_of", "ungrounded_claims", "verifier_of"]
