"""The optional generation step of Engine.ask: a written answer from the configured LLM over the
extractive answer's passages; the extractive answer stays on any failure."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from index.answer.passages import cited_first
from index.build.store import StoredIndex
from index.models import AskResult, Passage

if TYPE_CHECKING:
    from index.answer.understand import Query
    from index.generate.generator import Generator

log = logging.getLogger(__name__)
PartialHandler = Callable[[str], None]


def generated(
    generator: Generator,
    result: AskResult,
    stored: StoredIndex,
    ranked: list[int],
    on_partial: PartialHandler | None,
    query: Query,
) -> AskResult:
    """``result`` with the generator's answer in place of the extractive one where it gives one.
    With ``on_partial``, the answer streams and each partial text (at most one a second) is handed
    to it as it arrives; the result is the same as without. A follow-up tells the model the earlier
    questions it leans on (``model_question``)."""
    from index.generate.citations import apply_generated, sentence_quotes
    from index.generate.grounding import verifier_of
    from index.generate.outcome import Done, Partial

    started = time.perf_counter()
    spent = result.timings_ms.get("check", 0.0) / 1000  # one deadline for the check and the writing
    question = model_question(result, query)
    verifier = verifier_of(stored)
    if generator.settings.passages < len(result.passages):  # the model reads the cited ones first
        result.passages = cited_first(result.passages, stored, result.citations)
    english = passage_english(stored, result.passages) if result.language != "zh" else None
    if on_partial is None:
        outcome = generator.generate(question, result.passages, result.language, verifier, spent, english)
    else:
        outcome = None
        events = generator.stream(
            question, result.passages, result.language, verifier=verifier, spent=spent, english=english
        )
        for event in events:
            if isinstance(event, Partial):
                try:
                    on_partial(event.text)
                except Exception:  # a preview that can't be shown must not cost the answer
                    log.exception("showing a partial answer failed")
            elif isinstance(event, Done):
                outcome = event.outcome
    result = apply_generated(result, outcome, sentence_quotes(stored, ranked))
    result.generation = _generation(outcome)
    result.translated = result.translated and result.generation != "shown"  # the model wrote it
    result.timings_ms["generate"] = round((time.perf_counter() - started) * 1000, 2)
    return result


def passage_english(stored: StoredIndex, passages: Sequence[Passage]) -> dict[str, str]:
    """The verified English of each of ``passages``, by chunk id: its sentences' renderings in order,
    where every sentence of it has one (a gloss would read as the article's English)."""
    found = {}
    for passage in passages:
        position = stored.chunk_positions.get(passage.chunk_id)
        own = stored.sentences_of(position) if position is not None else range(0)
        english = [stored.reader_english(s) for s in own]
        if english and all(english):
            found[passage.chunk_id] = " ".join(filter(None, english))
    return found


def model_question(result: AskResult, query: Query) -> str:
    """The question as the model reads it: a follow-up names the earlier questions it leans on,
    which the model needs to read "他挖走了谁？"."""
    follows = [*query.earlier, *([query.text] if query.more else [])]
    return result.question + ("\n(a follow-up to: " + " / ".join(follows) + ")" if follows else "")


def checked(generator: Generator, result: AskResult, stored: StoredIndex, ranked: list[int], query: Query) -> bool:
    """Whether the model's check (index/generate/answerable.py) lets the gates' answer stand: it reads
    excerpts around the best sentences beside the question."""
    from index.generate.answerable import declines, excerpts

    started = time.perf_counter()
    score = generator.answerability(model_question(result, query), excerpts(stored, ranked))
    result.timings_ms["check"] = round((time.perf_counter() - started) * 1000, 2)
    return not declines(score)


def _generation(outcome: object) -> str:
    """What became of the model's answer, for AskResult.generation (evaluation reads it)."""
    from index.generate.outcome import GeneratedAnswer, GenerationFailure

    if isinstance(outcome, GeneratedAnswer):
        return "abstained" if outcome.abstained else "shown"
    if isinstance(outcome, GenerationFailure):
        return f"{outcome.reason}: {outcome.detail}" if outcome.detail else outcome.reason
    return "none"
