"""Before anything is written: do the best sentences answer the question? One token from the model.

The gates (index/answer/decide.py) read retrieval scores and word overlap; a question near the
article's topic (a rival model it never names, a figure it doesn't give) finds passages about its
words and passes them. The model reads the question beside excerpts around its best-ranked
sentences (``excerpts``) and is asked for Yes or No; ``log P(Yes) − log P(No)`` below
``DECLINE_BELOW`` declines. The prompt and the threshold were chosen on
tests/eval/near_pairs_dev.jsonl (minimal pairs, the local Qwen2.5-Coder-1.5B): the highest threshold
that declines at most one more answerable question a language there (docs/evaluation.md). Excerpts
rather than whole passages: a 1.5B model reading two whole paragraphs says Yes to the topic; reading
the sentences the ranking chose, it tells the asked fact from its neighbours better, and sooner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from index.generate.judge import one_token_reading

if TYPE_CHECKING:
    from index.build.store import StoredIndex

DECLINE_BELOW = 0.2
SENTENCES = 3  # the best-ranked sentences the model reads
REACH = 1  # each with this many sentences either side of it, within its passage

SYSTEM = (
    "You decide whether a passage of an article answers a question. Reply Yes only if the passage states "
    "the specific thing the question asks for (the same subject, and the asked fact, number, reason, or "
    "opinion). Reply No if the passage is only about a related topic and does not give that answer."
)


def excerpts(stored: StoredIndex, ranked: Sequence[int]) -> list[str]:
    """What the model reads: each of the ``SENTENCES`` best of ``ranked`` (sentence positions) with
    ``REACH`` neighbours either side in its passage; spans that overlap or touch are one excerpt,
    and excerpts come in the article's order."""
    spans = []
    for position in ranked[:SENTENCES]:
        own = stored.sentences_of(stored.sentences[position].chunk)
        spans.append((max(own.start, position - REACH), min(own.stop - 1, position + REACH)))
    joined: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        same = joined and stored.sentences[first].chunk == stored.sentences[joined[-1][1]].chunk
        if same and first <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], max(last, joined[-1][1]))
        else:
            joined.append((first, last))
    return [_text(stored, first, last) for first, last in joined]


def _text(stored: StoredIndex, first: int, last: int) -> str:
    """Sentences ``first``..``last`` of one passage as it writes them, whitespace between included."""
    chunk = stored.chunks[stored.sentences[first].chunk]
    return chunk.text[stored.sentences[first].start - chunk.start : stored.sentences[last].end - chunk.start]


def answerable_messages(question: str, passages: Sequence[str]) -> list[dict[str, str]]:
    """The request: the excerpts (blank-line apart), then the question."""
    source = "\n\n".join(passages)
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


__all__ = ["DECLINE_BELOW", "REACH", "SENTENCES", "answerable_messages", "answerable_score", "declines", "excerpts"]
