"""index/models.py: the answer contract's models dump to the keys ../shared/CONTRACTS.md names."""

from __future__ import annotations

from index.models import AskResult, Citation, Passage, SearchResult

CITATION = Citation(n=1, chunk_id="c", doc_id="d", section="三、性能", paragraphs=[23], start=812, end=901, quote="…")
PASSAGE = Passage(
    rank=1, chunk_id="c", doc_id="d", section="三、性能", paragraphs=[23], start=790, end=960, text="…", score=0.83
)


def test_ask_result_dumps_the_contract_keys() -> None:
    result = AskResult(
        question="q", answer="a [1]", abstained=False, language="zh", citations=[CITATION], passages=[PASSAGE]
    )
    dumped = result.model_dump()
    assert set(dumped) >= {"question", "answer", "abstained", "language", "citations", "passages", "timings_ms"}
    assert set(dumped["citations"][0]) == {"n", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "quote"}
    assert set(dumped["passages"][0]) == {
        "rank", "chunk_id", "doc_id", "section", "paragraphs", "start", "end", "text", "score"
    }  # fmt: skip
    assert AskResult.model_validate_json(result.model_dump_json()) == result


def test_search_result_is_the_question_and_its_passages() -> None:
    assert set(SearchResult(question="q", passages=[PASSAGE]).model_dump()) == {"question", "passages"}
