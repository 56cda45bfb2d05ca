"""Before anything is written: does the best passage answer the question? One token from the model.

The gates (index/answer/decide.py) read retrieval scores and word overlap; a question near the
article's topic (a rival model it never names, a figure it doesn't give) finds passages about its
words and passes them. The model reads the question beside the passages of its two best
sentences and is asked for Yes or No; ``log P(Yes) − log P(No)`` below ``DECLINE_BELOW`` declines.
The prompt and the threshold were chosen on tests/eval/near_pairs_dev.jsonl (minimal pairs, the
local Qwen2.5-Coder-1.5B): the highest threshold that declines at most one more answerable
question a language there (docs/evaluation.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from index.generate.judge import one_token_reading

DECLINE_BELOW = 0.25
PASSAGES = 2  # the passages of the best sentences, in their order

SYSTEM = (
    "You decide whether a passage of an article answers a question. Reply Yes only if the passage states "
    "the specific thing the question asks for (the same subject, and the asked fact, number, reason, or "
    "opinion). Reply No if the passage is only about a related topic and does not give that answer."
)


def answerable_messages(question: str, passages: Sequence[str]) -> list[dict[str, str]]:
    """The request: the passages (best first, blank-line apart), then the question."""
    source = "\n\n".join(passages[:PASSAGES])
    user = f"Passage:\n{source}\n\nQuestion: {question}\n\nDoes the passage answer this question? Reply Yes or No."
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def answerable_score(client: Any, model: str, question: str, passages: Sequence[str], timeout: float) -> float | None:
    """The model's log-odds that ``passages`` answer ``question``; None when it couldn't be had
    (the gates' verdict then stands)."""
    messages = answerable_messages(question, passages)
    return one_token_reading(client, model, messages, timeout, "answerability reading")


def declines(score: float | None) -> bool:
    """Whether the reading says the passages don't answer (no reading declines nothing)."""
    return score is not None and score < DECLINE_BELOW


__all__ = ["DECLINE_BELOW", "PASSAGES", "answerable_messages", "answerable_score", "declines"]
