"""The candidates step: the answer units of the best retrieved passages."""

from __future__ import annotations

from index.answer.features import Candidate
from index.answer.units import is_heading
from index.build.store import StoredIndex
from index.retrieve.retriever import SearchOutcome

PASSAGES = 5  # answers come from this many of the best passages


def candidates(stored: StoredIndex, outcome: SearchOutcome, passages: int = PASSAGES) -> list[Candidate]:
    """Every sentence (table row, list item) of the best passages that says something: headings and
    title lines name things, they never answer. In passage order, then document order."""
    return [
        Candidate(sid, rank)
        for rank, hit in enumerate(outcome.hits[:passages])
        for sid in stored.sentences_of(hit.chunk)
        if not is_heading(stored, sid)
    ]
