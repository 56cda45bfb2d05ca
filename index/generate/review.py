"""What is done with a finished answer before it is shown, after the checks of index/generate/verify.py:
a sentence cited to the wrong passage is pointed at the given passage that states it, and the model
reads the answer again beside its cited passages (index/generate/judge.py).

A small model often cites the passage beside the one it took a number from ("73.7% [2]" where the
table is [1]); the claim is grounded in what it was given, only its marker is wrong. Each sentence
is re-pointed only when every check passes against the new passage, so nothing unchecked is shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from index.generate.cut import cited_numbers, sentences
from index.generate.judge import accepted
from index.generate.outcome import MAX_PASSAGES, GeneratedAnswer, GenerationFailure, Outcome, Verifier
from index.generate.verify import verify
from index.models import Passage

_MARKERS = re.compile(r"(\s*)\[\d+\](?:\s*\[\d+\])*")
# the reading of an answer (its text with markers, its cited passages' texts by number) → a score
Reader = Callable[[str, dict[int, str]], float | None]


def recited(text: str, passages: Sequence[Passage], verifier: Verifier) -> str:
    """``text`` with each sentence its cited passages don't ground cited instead to the one given
    passage that grounds it, where there is one; other sentences as they are."""
    count = min(len(passages), MAX_PASSAGES)
    out, at = [], 0
    for sentence in sentences(text):
        start = text.index(sentence, at)
        out.append(text[at:start])
        at = start + len(sentence)
        if cited_numbers(sentence) and verifier.problem(sentence, passages) is not None:
            for n in range(1, count + 1):
                candidate = _MARKERS.sub(rf"\g<1>[{n}]", sentence)
                if candidate != sentence and verifier.problem(candidate, passages) is None:
                    sentence = candidate
                    break
        out.append(sentence)
    return "".join(out) + text[at:]


def reviewed(
    outcome: Outcome,
    raw: str,
    passages: Sequence[Passage],
    language: str,
    model: str,
    verifier: Verifier,
    read: Reader | None,
) -> Outcome:
    """The outcome to show: an answer refused for its grounding re-cited where that grounds it, then
    read again (``read``: None without the reading); what the reading refuses is not shown, and an
    answer only the word check refused is shown when the reading supports it."""
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


__all__ = ["Reader", "recited", "reviewed"]
