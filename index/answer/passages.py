"""The passages an answer shows: the ones it quotes first, then the rest in retrieval order."""

from __future__ import annotations

from index.answer.understand import Query
from index.build.store import StoredIndex
from index.models import AskResult, Citation, Passage, SourceInfo
from index.retrieve.retriever import SearchOutcome


def empty_result(query: Query, stored: StoredIndex, passages: list[Passage]) -> AskResult:
    return AskResult(
        question=query.asked,
        answer="",
        abstained=False,
        language=query.language,
        passages=passages,
        sources=[
            SourceInfo(doc_id=d.meta.doc_id, title=d.meta.title, author=d.meta.author, date=d.meta.date)
            for d in stored.manifest.documents
        ],
        index_version=stored.version,
    )


def cited_first(passages: list[Passage], stored: StoredIndex, citations: list[Citation]) -> list[Passage]:
    """The cited passages first, in citation order, then the rest in retrieval order; scores stay
    as retrieved. The scorer reads every sentence of the retrieved passages: the passage it quotes
    is more often the relevant one than retrieval's first (and may have ranked anywhere)."""
    cited = list(dict.fromkeys(c.chunk_id for c in citations))
    rest = [p.chunk_id for p in passages if p.chunk_id not in cited]
    return _reordered(passages, stored, (cited + rest)[: len(passages)])


def _reordered(passages: list[Passage], stored: StoredIndex, chunk_ids: list[str]) -> list[Passage]:
    """The passages of these chunks in this order, ranked from 1; each keeps the score retrieval
    gave it (0 for one retrieval didn't return)."""
    score = {p.chunk_id: p.score for p in passages}
    chunks = [stored.chunk_positions[chunk_id] for chunk_id in chunk_ids]
    return [
        _passage(stored, chunk, rank, score.get(stored.chunks[chunk].chunk_id, 0.0))
        for rank, chunk in enumerate(chunks, 1)
    ]


def _passage(stored: StoredIndex, chunk: int, rank: int, score: float) -> Passage:
    return Passage(**stored.chunks[chunk].model_dump(), rank=rank, score=round(score, 6))


def retrieved(stored: StoredIndex, outcome: SearchOutcome, k: int | None) -> list[Passage]:
    hits = outcome.hits[:k] if k else outcome.hits
    return [_passage(stored, hit.chunk, rank, hit.score) for rank, hit in enumerate(hits, 1)]
