"""Latin-script names and codes in a text, and the names that make a corpus's subject."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from index.text.stopwords import EN_STOPWORDS

# a Latin-script name or code: K2.5, v3.1; "H100-class" is two, "Cursor's" one
NAME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*")
SUBJECT_SHARE = 0.75  # of a corpus's passages that write its subject's name


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


def latin_names(text: str) -> list[str]:
    """A text's Latin-script names and codes in lower case: capitalised or with a digit ("cursorbench",
    "v3.1"), no function word."""
    return [
        w.lower()
        for w in NAME_WORD.findall(text)
        if (w[0].isupper() or any(c.isdigit() for c in w)) and w.lower() not in EN_STOPWORDS
    ]


__all__ = ["NAME_WORD", "SUBJECT_SHARE", "latin_names", "subject_names"]
