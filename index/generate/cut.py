"""How an answer and a passage are cut for the grounding check: an answer's sentences, each with the
[n] markers written after it; a passage's sentences, a table row with its table's header row.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from index.text.dates import arabic_dates
from index.text.numbers import digit_decimals

# a Latin-script name or code: K2.5, v3.1; "H100-class" is two, "Cursor's" one
NAME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*")
SUBJECT_SHARE = 0.75  # of a corpus's passages that write its subject's name
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


def subject_names(passages: Sequence[str]) -> frozenset[str]:
    """The names (lower case) at least SUBJECT_SHARE of the ``passages`` write: the corpus's subject,
    which a passage about it may leave unnamed as its reader has it in mind ("于是有用户在论坛里吐槽…",
    of Cursor's users). A name only several passages discuss (Kimi, in 0.65 of ours) is not one."""
    counts = Counter(
        word.lower()
        for text in passages
        for word in {w for w in NAME_WORD.findall(text) if w[0].isupper() or any(c.isdigit() for c in w)}
    )
    return frozenset(name for name, n in counts.items() if n >= SUBJECT_SHARE * len(passages))


def written(text: str) -> str:
    """A text with the numbers it writes in words or Chinese numerals in digits, as the checks read them
    ("五月十八日" → "5 月 18 日", "seventy point two" → "70.2")."""
    return digit_decimals(arabic_dates(text))


__all__ = ["NAME_WORD", "cited_numbers", "sentences", "source_sentences", "subject_names", "unmarked", "written"]
