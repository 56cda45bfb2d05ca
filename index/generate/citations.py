"""A verified generated answer as the result's answer: markers renumbered, one Citation per marker,
each quoting its passage's best sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from index.generate.outcome import MAX_PASSAGES, GeneratedAnswer, Outcome
from index.generate.verify import renumber
from index.models import AskResult, Citation, Passage

if TYPE_CHECKING:
    from index.build.store import StoredIndex


@dataclass(frozen=True)
class Quote:
    """The part of a passage a citation quotes; offsets are absolute in the source document."""

    start: int
    end: int
    quote: str
    paragraphs: list[int] = field(default_factory=list)


QuoteFor = Callable[[Passage], Quote]


def whole_passage(passage: Passage) -> Quote:
    return Quote(passage.start, passage.end, passage.text, list(passage.paragraphs))


def to_citations(
    answer: GeneratedAnswer, passages: Sequence[Passage], quote_for: QuoteFor = whole_passage
) -> tuple[str, list[Citation]]:
    """The answer text with its markers renumbered 1..m in order of first appearance, and one
    Citation per marker (``citations[i].n == i + 1`` and ``[n]`` appears in the text)."""
    text, order = renumber(answer.text, min(len(passages), MAX_PASSAGES))
    citations = []
    for n, number in enumerate(order, 1):
        passage = passages[number - 1]
        quote = quote_for(passage)
        citations.append(
            Citation(
                n=n,
                chunk_id=passage.chunk_id,
                doc_id=passage.doc_id,
                section=passage.section,
                paragraphs=list(quote.paragraphs) or list(passage.paragraphs),
                start=quote.start,
                end=quote.end,
                quote=quote.quote,
            )
        )
    return text, citations


def apply_generated(result: AskResult, outcome: Outcome | None, quote_for: QuoteFor = whole_passage) -> AskResult:
    """``result`` (the extractive answer over ``result.passages``, the list given to the generator)
    with the generated answer in its place, or unchanged when there is none: a failure, or an
    abstention (the extractive answer stands; the caller may decide otherwise).

    A passage the extractive answer already cited keeps that citation's quote (its best sentence);
    ``quote_for`` picks the quote for the others."""
    if not isinstance(outcome, GeneratedAnswer) or outcome.abstained or not outcome.cited:
        return result
    quoted = {c.chunk_id: Quote(c.start, c.end, c.quote, list(c.paragraphs)) for c in result.citations}

    def quote(passage: Passage) -> Quote:
        return quoted.get(passage.chunk_id) or quote_for(passage)

    text, citations = to_citations(outcome, result.passages, quote)
    update: dict[str, Any] = {
        "answer": text,
        "citations": citations,
        "kind": "generative",
        "abstained": False,
    }
    if "generator" in AskResult.model_fields:  # the field proposed with this module
        update["generator"] = f"llm:{outcome.model}"
    return result.model_copy(update=update)


def sentence_quotes(stored: StoredIndex, ranked_sentences: Iterable[int] = ()) -> QuoteFor:
    """Quotes from the index: each passage's best sentence by the extractive scorer (ids best
    first, e.g. ``[s.sentence for s in ranked]``), else its first sentence, else the whole passage."""
    from index.answer.units import citation_for

    chunk_of = {chunk.chunk_id: i for i, chunk in enumerate(stored.chunks)}
    best: dict[int, int] = {}
    for sid in ranked_sentences:
        best.setdefault(stored.sentences[sid].chunk, sid)

    def quote_for(passage: Passage) -> Quote:
        chunk = chunk_of.get(passage.chunk_id)
        if chunk is None:
            return whole_passage(passage)
        sid = best.get(chunk)
        if sid is None:
            own = stored.sentences_of(chunk)
            if not own:
                return whole_passage(passage)
            sid = own[0]
        cite = citation_for(stored, 0, stored.sentences[sid])
        return Quote(cite.start, cite.end, cite.quote, cite.paragraphs)

    return quote_for
