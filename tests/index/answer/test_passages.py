from __future__ import annotations

from index.answer.compose import compose
from index.answer.passages import _passage, cited_first
from index.build.store import StoredIndex
from index.models import Passage


def _retrieved(stored: StoredIndex, chunks: list[int]) -> list[Passage]:
    return [_passage(stored, chunk, rank, 1.0 / rank) for rank, chunk in enumerate(chunks, 1)]


def test_the_quoted_passage_leads_and_the_rest_keep_retrieval_order(stored: StoredIndex) -> None:
    chunks = list(range(min(4, len(stored.chunks))))
    quoted = next(s for s, sentence in enumerate(stored.sentences) if sentence.chunk == chunks[-1])
    _, citations = compose(stored, [quoted], "zh")
    passages = cited_first(_retrieved(stored, chunks), stored, citations)
    assert [p.chunk_id for p in passages] == [stored.chunks[c].chunk_id for c in [chunks[-1], *chunks[:-1]]]
    assert [p.rank for p in passages] == [1, 2, 3, 4][: len(chunks)]
    assert passages[0].score == round(1.0 / len(chunks), 6)  # the score retrieval gave it


def test_a_quoted_passage_retrieval_left_out_takes_the_last_place(stored: StoredIndex) -> None:
    last = len(stored.chunks) - 1
    quoted = next(s for s, sentence in enumerate(stored.sentences) if sentence.chunk == last)
    _, citations = compose(stored, [quoted], "zh")
    passages = cited_first(_retrieved(stored, [0, 1]), stored, citations)
    assert [p.chunk_id for p in passages] == [stored.chunks[last].chunk_id, stored.chunks[0].chunk_id]
    assert passages[0].score == 0.0
