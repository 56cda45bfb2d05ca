"""What is done with a finished answer before it is shown, after the checks of index/generate/verify.py:
a sentence cited to the wrong passage is pointed at the given passage that states it, an answer
written without any marker is cited sentence by sentence to the given passages that state it, and the
model reads the answer again beside its cited passages (index/generate/judge.py).

A small model often cites the passage beside the one it took a number from ("73.7% [2]" where the
table is [1]), or forgets the markers altogether; the claim is grounded in what it was given, only its
markers are wrong. Each sentence is pointed at a passage only when every check passes against that
passage, so nothing unchecked is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from index.generate.cut import cited_numbers, sentences
from index.generate.judge import accepted
from index.generate.outcome import MAX_PASSAGES, GeneratedAnswer, GenerationFailure, Outcome, Verifier
from index.generate.verify import strip_reasoning, verify
from index.models import Passage

_MARKERS = re.compile(r"(\s*)\[\d+\](?:\s*\[\d+\])*")
_END = re.compile(r"[.!?。！？…]*\s*$")
_HAN = re.compile(r"[\u3400-\u9fff，。：；！？、」』）]$")
# the reading of an answer (its text with markers, its cited passages' texts by number) → a score
Reader = Callable[[str, dict[int, str]], float | None]


def _per_sentence(text: str, change: Callable[[str], str | None]) -> str | None:
    """``text`` with each sentence replaced by ``change`` of it, the space between them kept; None
    when ``change`` gives None for one."""
    out, at = [], 0
    for sentence in sentences(text):
        start = text.index(sentence, at)
        changed = change(sentence)
        if changed is None:
            return None
        out += [text[at:start], changed]
        at = start + len(sentence)
    return "".join(out) + text[at:]


def recited(text: str, passages: Sequence[Passage], verifier: Verifier) -> str:
    """``text`` with each sentence its cited passages don't ground cited instead to the one given
    passage that grounds it, where there is one; other sentences as they are."""
    count = min(len(passages), MAX_PASSAGES)

    def fixed(sentence: str) -> str:
        if not cited_numbers(sentence) or verifier.problem(sentence, passages) is None:
            return sentence
        candidates = (_MARKERS.sub(rf"\g<1>[{n}]", sentence) for n in range(1, count + 1))
        return next((c for c in candidates if c != sentence and verifier.problem(c, passages) is None), sentence)

    return _per_sentence(text, fixed) or text  # ``fixed`` keeps every sentence


def cited_where_grounded(text: str, passages: Sequence[Passage], verifier: Verifier) -> str | None:
    """``text``, written without markers, with each sentence cited to the first given passage that
    grounds it (the marker before its final punctuation); None when a sentence has no such passage."""
    count = min(len(passages), MAX_PASSAGES)

    def cited(sentence: str) -> str | None:
        cut = _END.search(sentence).start()  # type: ignore[union-attr]  # it matches every string
        body, tail = sentence[:cut], sentence[cut:]
        space = "" if _HAN.search(body) else " "
        candidates = (f"{body}{space}[{n}]{tail}" for n in range(1, count + 1))
        return next((c for c in candidates if verifier.problem(c, passages) is None), None)

    return _per_sentence(text, cited)


def reviewed(
    outcome: Outcome,
    raw: str,
    passages: Sequence[Passage],
    language: str,
    model: str,
    verifier: Verifier,
    read: Reader | None,
) -> Outcome:
    """The outcome to show: an answer refused for its grounding re-cited where that grounds it, one
    without markers cited where each sentence is grounded, then
    read again (``read``: None without the reading); what the reading refuses is not shown, and an
    answer only the word check refused is shown when the reading supports it."""
    if isinstance(outcome, GenerationFailure) and outcome.reason == "uncited":
        cited = cited_where_grounded(strip_reasoning(raw).strip(), passages, verifier)
        if cited is not None:
            outcome = verify(cited, passages, language, model, check=verifier.problem)
    grounded = isinstance(outcome, GeneratedAnswer) and not outcome.abstained
    reworded: GeneratedAnswer | None = None  # refused by the word check alone: the reading may accept it
    if isinstance(outcome, GenerationFailure) and outcome.reason == "ungrounded":
        unchecked = verify(raw, passages, language, model)
        if isinstance(unchecked, GeneratedAnswer):
            unchecked = verify(recited(unchecked.text, passages, verifier), passages, language, model)
        if isinstance(unchecked, GeneratedAnswer):
            if verifier.problem(unchecked.text, passages) is None:
                outcome, grounded = unchecked, True
            elif verifier.wording_only(unchecked.text, passages):
                reworded = unchecked
    candidate = outcome if grounded else reworded
    if read is None or not isinstance(candidate, GeneratedAnswer):
        return outcome
    score = read(candidate.text, verifier.cited_texts(candidate.text, passages))
    if accepted(score, grounded):
        return candidate
    return outcome if score is None else GenerationFailure("ungrounded", f"second reading: no ({score:+.2f})")


__all__ = ["Reader", "cited_where_grounded", "recited", "reviewed"]
