"""What a generated answer comes to: a verified answer or a typed failure, and the stream's events.

Shared by the prompt (index/generate/prompt.py), the checks (index/generate/verify.py), the citations
(index/generate/citations.py) and the client (index/generate/generator.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from index.models import Passage

SENTINEL = "NOT_IN_ARTICLE"
MAX_PASSAGES = 8  # passages shown to the model; [n] numbers are positions in this list

FailureReason = Literal[
    "timeout",  # one attempt timed out (and no retry fitted in the deadline)
    "deadline",  # the overall deadline passed
    "connection",  # could not connect, or the connection dropped before a response
    "http_status",  # 4xx / 5xx
    "malformed",  # not a chat completion: bad JSON, no choices, wrong shapes
    "empty",  # no answer text
    "length",  # cut by max_tokens, or refused by a content filter
    "stream_cut",  # the stream stopped midway
    "uncited",  # no valid [n] and no sentinel
    "wrong_language",
    "unsupported_link",  # a URL that no passage contains (a classic injection payload)
    "ungrounded",  # a number, name or sentence its cited passages don't state (index/generate/grounding.py)
    "error",  # anything else; the class name is logged
]


# -- results --------------------------------------------------------------------------------
@dataclass(frozen=True)
class GeneratedAnswer:
    """A verified answer. ``text`` carries ``[n]`` markers where n is a 1-based position in the
    passages given to the generator; ``cited`` lists them in order of first appearance.
    ``abstained``: the model replied with the sentinel (the passages don't answer the question)."""

    text: str
    cited: list[int]
    abstained: bool
    model: str


@dataclass(frozen=True)
class GenerationFailure:
    """Why there is no generated answer; the caller falls back to the extractive one."""

    reason: FailureReason
    detail: str = ""


Outcome = GeneratedAnswer | GenerationFailure
# What a cited answer says that its passages don't, or None: called with the answer text (markers
# [n] naming positions in the passages) and the passages given to the model.
Check = Callable[[str, Sequence[Passage]], str | None]


class Verifier(Protocol):
    """Grounding beyond the citations (index/generate/grounding.py): the final answer's problem, if any,
    and what of a partial answer may stay on screen. Texts carry [n] markers as given."""

    def problem(self, text: str, passages: Sequence[Passage]) -> str | None: ...

    def shown(self, text: str, passages: Sequence[Passage]) -> str: ...

    def wording_only(self, text: str, passages: Sequence[Passage]) -> bool: ...

    def cited_texts(self, text: str, passages: Sequence[Passage]) -> dict[int, str]: ...


@dataclass(frozen=True)
class Partial:
    """Streaming: the answer so far, markers already numbered as in the final answer."""

    text: str


@dataclass(frozen=True)
class Done:
    """Streaming: the end, always exactly once and last."""

    outcome: Outcome


StreamEvent = Partial | Done
