"""How an answer and a passage are cut for the grounding check: an answer's sentences, each with the
[n] markers written after it; a passage's sentences, a table row with its table's header row.
"""

from __future__ import annotations

import re

from index.text.dates import arabic_dates
from index.text.numbers import digit_decimals

_MARKER = re.compile(r"\[(\d+)\]")
_SENTENCE_END = re.compile(r"[.!?](?:\s*\[\d+\])*(?=\s|$)|[。！？](?:\s*\[\d+\])*|\n+")
_SOURCE_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])|(?<=\.)\s")


def sentences(text: str) -> list[str]:
    """An answer's sentences, each with the markers written after it ("… 70.2%. [1]")."""
    found, at = [], 0
    for match in _SENTENCE_END.finditer(text):
        sentence = text[at : match.end()].strip()
        if sentence:
            found.append(sentence)
        at = match.end()
    rest = text[at:].strip()
    return [*found, rest] if rest else found


def cited_numbers(sentence: str) -> list[int]:
    return [int(n) for n in _MARKER.findall(sentence)]


def unmarked(text: str, instead: str = " ") -> str:
    """The text with ``instead`` for each of its [n] markers."""
    return _MARKER.sub(instead, text)


def source_sentences(text: str) -> list[str]:
    """A passage's sentences; a table row with its table's header row (the column names)."""
    found: list[str] = []
    header: str | None = None
    for line in text.split("\n"):
        if "\t" in line:
            if header is None:
                header = line
                found.append(line.strip())
            else:
                found.append(f"{header}\n{line}".strip())
            continue
        header = None
        found += [s.strip() for s in _SOURCE_SENTENCE.split(line) if s.strip()]
    return found


def written(text: str) -> str:
    """A text with the numbers it writes in words or Chinese numerals in digits, as the checks read them
    ("五月十八日" → "5 月 18 日", "seventy point two" → "70.2")."""
    return digit_decimals(arabic_dates(text))


__all__ = ["cited_numbers", "sentences", "source_sentences", "unmarked", "written"]
