"""A second reading of a generated answer by the model: does its cited passage say everything it says?

The lexical checks (index/generate/grounding.py) read numbers, names and words; they can't see a
meaning reversed or roles swapped, and they refuse paraphrases the dictionary doesn't reach. The
model reads both. One completion token is asked for, and its log-probabilities give the score
``log P(Yes) − log P(No)``; an endpoint that returns no log-probabilities is read by its reply.
The thresholds were chosen on the verifier sets read before (tests/eval/verifier_*.jsonl, the
local Qwen2.5-Coder-1.5B; docs/evaluation.md): a lexically grounded answer is refused below
``VETO``, and one the word check alone refused is accepted from ``RESCUE``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

log = logging.getLogger("index.generate.judge")

VETO = -0.25
RESCUE = 0.25
SURE = 5.0  # a plain "Yes" / "No" reply, from an endpoint without log-probabilities
TOP_LOGPROBS = 10

SYSTEM = (
    "You check an answer against its source passage. Reply Yes only if everything the answer states is said "
    "or directly implied by the passage, with the same numbers, the same people and things doing the same "
    "things, in the same direction. Reply No if the answer adds, reverses, swaps or changes anything."
)


def judge_messages(question: str, answer: str, cited: Mapping[int, str]) -> list[dict[str, str]]:
    """The judging request: the cited passages (by their numbers when more than one), the question
    and the answer with its markers."""
    if len(cited) == 1:
        source = next(iter(cited.values()))
    else:
        source = "\n\n".join(f"[{n}] {text}" for n, text in sorted(cited.items()))
    user = (
        f"Passage:\n{source}\n\nQuestion: {question}\nAnswer: {answer}\n\n"
        "Is the answer fully supported by the passage? Reply Yes or No."
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def _field(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else getattr(value, name, None)


def support_score(completion: Any) -> float | None:
    """``log P(Yes) − log P(No)`` of the reply's first token, from its top log-probabilities; without
    them ±``SURE`` by what the reply says; None when it says neither."""
    choices = _field(completion, "choices") or []
    if not choices:
        return None
    first = choices[0]
    logprobs = _field(_field(first, "logprobs"), "content") or []
    if logprobs:
        top = _field(logprobs[0], "top_logprobs") or []
        by_word: dict[str, float] = {}
        for entry in top:
            word = str(_field(entry, "token") or "").strip().lower()
            value = _field(entry, "logprob")
            if isinstance(value, int | float):
                by_word[word] = max(by_word.get(word, float("-inf")), float(value))
        yes, no = by_word.get("yes"), by_word.get("no")
        if yes is not None or no is not None:
            floor = min(by_word.values()) - 1.0  # a word outside the top ones is less likely than all of them
            return (yes if yes is not None else floor) - (no if no is not None else floor)
    said = str(_field(_field(first, "message"), "content") or "").strip().lower()
    if said.startswith("yes"):
        return SURE
    if said.startswith("no"):
        return -SURE
    return None


def one_token_reading(
    client: Any, model: str, messages: list[dict[str, str]], timeout: float, what: str
) -> float | None:
    """``support_score`` of the model's one-token reply to ``messages``, or None when the endpoint
    failed (the caller's verdict stands)."""
    try:
        completion = client.chat.completions.create(
            model=model,
            messages=messages,
            max_tokens=1,
            temperature=0.0,
            logprobs=True,
            top_logprobs=TOP_LOGPROBS,
            timeout=timeout,
        )
    except Exception as error:  # the endpoint's trouble leaves the other verdict
        log.warning("%s unavailable (%s)", what, type(error).__name__)
        return None
    return support_score(completion)


def second_reading(
    client: Any, model: str, question: str, answer: str, cited: Mapping[int, str], timeout: float
) -> float | None:
    """The model's support score for ``answer``, or None when it couldn't be had (the lexical
    verdict then stands)."""
    return one_token_reading(client, model, judge_messages(question, answer, cited), timeout, "second reading")


def accepted(score: float | None, grounded: bool) -> bool:
    """Whether the answer is shown: a grounded one unless the reading refuses it, one refused by
    the word check alone when the reading supports it."""
    if score is None:
        return grounded
    return score >= VETO if grounded else score >= RESCUE


__all__ = ["RESCUE", "VETO", "accepted", "judge_messages", "one_token_reading", "second_reading", "support_score"]
