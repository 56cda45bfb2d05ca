"""The English-line and --llm figures of the evaluation, on answers made up for the purpose."""

from __future__ import annotations

from index.evaluate.llm import evaluate_llm
from index.evaluate.metrics import EvalQuestion, evaluate, holds_english_fact, is_english_line
from index.models import AskResult, Citation, Passage

PASSAGE = Passage(rank=1, chunk_id="c1", doc_id="d", section="s", paragraphs=[1], start=0, end=20,
                  text="马斯克握有 600 亿美元收购权。", score=1.0)  # fmt: skip
CITE = Citation(n=1, chunk_id="c1", doc_id="d", section="s", paragraphs=[1], start=0, end=20,
                quote="马斯克握有 600 亿美元收购权。")  # fmt: skip
QUESTION = EvalQuestion(id="q", lang="en", type="in", q="How much?", gold=["600 亿"], facts=["600 亿美元"],
                        facts_en=["$60 billion"])  # fmt: skip


def result(answer: str, generation: str | None = None, ms: float = 100.0) -> AskResult:
    return AskResult(question="How much?", answer=answer, abstained=False, language="en", citations=[CITE],
                     passages=[PASSAGE], generation=generation, timings_ms={"generate": ms, "total": ms})  # fmt: skip


def test_the_english_line() -> None:
    assert is_english_line("Elon Musk holds US$60 billion.") and is_english_line("He said “套壳” [1].")
    assert not is_english_line("马斯克 holds US$60 billion.")
    assert holds_english_fact("It is US$60 billion.", ["$60 billion"])


def test_english_line_metrics() -> None:
    answers = {
        "right": "Elon Musk holds US$60 billion.\n\nQuoted: “马斯克握有 600 亿美元收购权。” [1]",
        "magnitude": "Elon Musk holds US$600 billion.\n\nQuoted: “马斯克握有 600 亿美元收购权。” [1]",
    }
    for text, line, errors in ((answers["right"], 1.0, 0), (answers["magnitude"], 0.0, 1)):
        report = evaluate([QUESTION], lambda q, c, t=text: result(t), lambda _: PASSAGE.text)
        metrics = report.by_language["en"]
        assert (metrics.english_line, metrics.english_rendering, metrics.magnitude_errors) == (line, line, errors)


def test_llm_figures() -> None:
    extractive = result("Elon Musk holds US$60 billion.\n\n“马斯克握有 600 亿美元收购权。” [1]")
    outcomes = iter([result("Musk holds US$60 billion [1].", "shown", 1000), result("x", "ungrounded: number", 3000)])
    report = evaluate_llm([QUESTION, QUESTION.model_copy(update={"id": "q2"})], lambda q, c: extractive,
                          lambda q, c: next(outcomes), lambda r: [])  # fmt: skip
    m = report.by_language["en"]
    assert (m.asked, m.shown, m.rejected, m.fact_extractive, m.fact_llm) == (2, 0.5, 0.5, 1.0, 0.5)
    assert m.generate_p50_ms == 2000.0 and m.language_match == 1.0
    assert report.rejections == [{"id": "q2", "q": "How much?", "why": "ungrounded: number"}]


def test_a_question_the_check_declined_is_counted_apart() -> None:
    extractive = result("Elon Musk holds US$60 billion.\n\n“马斯克握有 600 亿美元收购权。” [1]")
    declined = result("The article doesn't say.").model_copy(update={"abstained": True, "timings_ms": {"check": 3.0}})
    outcomes = iter([declined, result("Musk holds US$60 billion [1].", "shown", 1000)])
    report = evaluate_llm([QUESTION, QUESTION.model_copy(update={"id": "q2"})], lambda q, c: extractive,
                          lambda q, c: next(outcomes), lambda r: [])  # fmt: skip
    m = report.by_language["en"]
    assert (m.check_declined, m.asked, m.fact_llm) == (1, 1, 0.5)  # declined before writing: never asked to write
