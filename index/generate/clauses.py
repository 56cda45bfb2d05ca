"""A Chinese sentence's clauses, each translated alone, and their translations joined into one
English sentence again: enrich's last way to render a sentence the model cuts short whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index.text.stopwords import EN_STOPWORDS

# where a Chinese sentence's clauses end, and how the English joins them
_CLAUSE_MARKS = {"，": ",", "；": ";", "：": ":", "——": " —"}
_CLAUSE = re.compile("(" + "|".join(map(re.escape, _CLAUSE_MARKS)) + ")")
_ENDS = {"。": ".", "？": "?", "！": "!"}


def clauses_of(sentence: str) -> list[tuple[str, str]]:
    """(clause, the English mark that follows it) of a Chinese sentence; a table row is one clause."""
    text = sentence.strip()
    end = _ENDS.get(text[-1:], "")
    text = text[:-1] if end else text
    if "\t" in text:
        return [(text, end)]
    pieces = _CLAUSE.split(text)
    found = [(pieces[i].strip(), _CLAUSE_MARKS[pieces[i + 1]]) for i in range(0, len(pieces) - 1, 2)]
    found.append((pieces[-1].strip(), end))
    return [(clause, mark) for clause, mark in found if clause]


def joined(lines: Sequence[tuple[str, str]]) -> str:
    """Translated clauses joined into one sentence: each clause's own end mark dropped for the
    source's; a later clause opening with a function word ("The", "It") lowered (a name never is)."""
    out = []
    for n, (line, mark) in enumerate(lines):
        line = line.strip().rstrip(".,;:。，；：!?！？ —")
        first = line.split(" ", 1)[0]
        if n and first[:1].isupper() and first.lower() in EN_STOPWORDS:
            line = line[0].lower() + line[1:]
        out.append(line + mark)
    return " ".join(out)
