"""The answer read beside its alternatives: the same answer with two of its names swapped, or one of them
replaced by another name its cited passages write, each read by the model as the answer was
(index/generate/judge.py). An answer some alternative reads better than, by ``MARGIN``, is refused.

A small model's score for one answer hardly moves when two parties trade roles ("Cursor holds a right to
buy SpaceX AI"), but read side by side with the answer the passage states, the version the passage
supports reads better. The margin was chosen on the verifier sets blind12 and blind13
(tests/eval/verifier_*.jsonl, the local Qwen2.5-Coder-1.5B; docs/evaluation.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations

MARGIN = 0.25  # an alternative reading this much better refuses the answer: at most 3 % of right ones (blind12, 13)
MAX_ALTERNATIVES = 8  # each is one more request of one token
_TOKEN = re.compile(r"[A-Za-z0-9][\w.+\-]*[\w+]|[A-Za-z0-9]")
_VERSION = re.compile(r"\d+(?:\.\d+)*|[A-Z]{2,}")  # goes on a name: "Composer 2.5", "SpaceX AI"


def name_spans(text: str, names: Iterable[str]) -> list[str]:
    """The Latin-script names ``text`` writes, whole ("Kimi K2.5 Pro Max"): runs of the name words
    ``names`` (index/generate/grounding.py's) joined by single spaces, with the numbers and
    capitals that follow them; each once, longest first."""
    words = set(names)
    spans: list[str] = []
    run: list[re.Match[str]] = []

    def close() -> None:
        if run:
            spans.append(text[run[0].start() : run[-1].end()])
        run.clear()

    for match in _TOKEN.finditer(text):
        word = match.group()
        joined = bool(run) and text[run[-1].end() : match.start()] == " "
        if word in words or (joined and _VERSION.fullmatch(word)):
            if run and not joined:
                close()
            run.append(match)
        else:
            close()
    close()
    return sorted(dict.fromkeys(s for s in spans if len(s) > 2), key=len, reverse=True)


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w.+\-]){re.escape(name)}(?![\w+]|\.\d)")


def _swapped(text: str, first: str, second: str) -> str:
    text = _pattern(first).sub("\x00", text)
    text = _pattern(second).sub("\x01", text)
    return text.replace("\x00", second).replace("\x01", first)


def alternatives(answer: str, sources: Sequence[str], names_of: Callable[[str], Sequence[str]]) -> list[str]:
    """The answer with two of its names swapped, then with one of its names put where another name of
    its sources is written; at most ``MAX_ALTERNATIVES``, none equal to the answer."""
    theirs = [n for s in sources for n in name_spans(s, names_of(s))]
    # a name the sources write is one in the answer too, where it opens a sentence ("Cursor said …")
    own = name_spans(answer, [*names_of(answer), *(w for n in theirs for w in n.split())])
    made: list[str] = []
    for first, second in combinations(own, 2):
        if first not in second and second not in first:
            made.append(_swapped(answer, first, second))
    for name in own:
        for other in dict.fromkeys(theirs):
            if not _pattern(other).search(answer) and other not in name and name not in other:
                made.append(_pattern(name).sub(lambda _, other=other: other, answer))
    return [a for a in dict.fromkeys(made) if a != answer][:MAX_ALTERNATIVES]


def outread(
    score: float,
    answer: str,
    cited: Mapping[int, str],
    read: Callable[[str, dict[int, str]], float | None],
    names_of: Callable[[str], Sequence[str]],
) -> str | None:
    """The first alternative that reads better than the answer's ``score`` by ``MARGIN``, if any."""
    for alternative in alternatives(answer, list(cited.values()), names_of):
        other = read(alternative, dict(cited))
        if other is not None and other > score + MARGIN:
            return alternative
    return None


__all__ = ["MARGIN", "MAX_ALTERNATIVES", "alternatives", "name_spans", "outread"]
