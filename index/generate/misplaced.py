"""The verifier's check of which thing a number is said of: an answer's number is read against the
thing its source says it of — the label before it (输入 15 美元、输出 2.50 美元) and the thing its own
clause names, not another clause's (他说 Kimi 打底，自家额外训练+RL 占了 85% 的总算力).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import Protocol

from index.generate.cut import unmarked
from index.generate.placement import comparable_kind, given_another, source_numbers, stated_numbers
from index.text.bounds import matches
from index.text.names import latin_names


class Reader(Protocol):
    """What the check reads words with (index.generate.grounding.Grounding)."""

    def content_words(self, sentence: str) -> list[str]: ...

    def says(self, words: Sequence[str], text: str) -> bool: ...


_ANSWER_CLAUSE_BREAK = re.compile(r"[,;，；、\n]|\s(?:and|while|whereas|but)\s|\s*[（(]")


def _clauses(text: str) -> list[tuple[int, str]]:
    """The clauses of an answer sentence, each with where it starts."""
    found, start = [], 0
    for cut in _ANSWER_CLAUSE_BREAK.finditer(text):
        found.append((start, text[start : cut.start()]))
        start = cut.end()
    return [*found, (start, text[start:])]


def misplaced(grounding: Reader, sentence: str, sources: Sequence[str]) -> list[str]:
    """The quantities of ``sentence`` said of another thing than their own: written beside the label
    of another number and not beside their own ("input $2.50" when the source has 输入 15 美元、输出
    2.50 美元; 70.2% on SWE-bench Multilingual when 70.2% is Verified's), or beside a name its source
    sentence gives another clause (given_another)."""
    known = [n for source in sources for n in source_numbers(source)]
    wrong = []
    whole = unmarked(sentence)
    stated = stated_numbers(whole, sources)
    single = len([m for m in stated if not m.quantity.per]) == 1
    clauses = _clauses(whole)
    numbered = [any(start < m.quantity.end <= start + len(c) for m in stated) for start, c in clauses]
    for at, (offset, clause) in enumerate(clauses):
        names = latin_names(clause)
        words = grounding.content_words(clause) + names  # a label is often a name: "v3.1"
        everywhere = grounding.content_words(sentence) + latin_names(sentence) if single or not words else []
        says_in_clause = partial(grounding.says, words)
        for m in stated_numbers(clause, sources):
            if m.quantity.per or re.search(r"\bper\s*$", clause[: m.quantity.start]):
                continue  # the unit of a rate (per 1M)
            said = {id(k) for k in matches(m, [n.mention for n in known])}
            before = latin_names(clause[: m.quantity.start])
            if given_another(names, before, [n for n in known if id(n.mention) in said], says_in_clause):
                wrong.append(m.quantity.text)
                continue
            own = [n.label for n in known if id(n.mention) in said and n.label]
            others = [n.label for n in known if id(n.mention) not in said and comparable_kind(m, n.mention)]
            if not own:
                continue  # not stated at all (the number check says so), or stated with no label
            # its clause's words, then those of the clauses since the last with a number ("On
            # SWE-bench Verified, Composer 2.5 posted 73.7%"), else the sentence's when the clause has
            # none ("…, with a maximum of 75.6%") or the sentence no other number
            first = next((j + 1 for j in range(at - 1, -1, -1) if numbered[j]), 0)
            since = whole[clauses[first][0] : offset + m.quantity.end]
            for scope in (words, grounding.content_words(since) + latin_names(since), everywhere):
                if any(grounding.says(scope, label) for label in own):
                    break
                if any(grounding.says(scope, label) for label in others if label):
                    wrong.append(m.quantity.text)
                    break
    return wrong


__all__ = ["misplaced"]
