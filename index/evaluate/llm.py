"""`eval … --llm`: the generative path beside the extractive one, on the same questions (issue #23).

Each question is answered twice by one engine: extractive (``use_llm=False``) and through the
configured model. Reported per language: fact rate of both (a fact in Chinese or, for English
questions, in English), language match, how often the model's answer was shown, rejected by
verification (grounding), abstained or failed otherwise, how many shown answers state a number
or a name their cited passages don't (checked again, independently of the gate), and latency.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable

from pydantic import BaseModel

from index.evaluate.metrics import EvalQuestion, is_english_line, opening_line
from index.models import AskResult

Ask = Callable[[str, str | None], AskResult]
Ungrounded = Callable[[AskResult], list[str]]  # the numbers and names a shown answer's passages lack


class LLMMetrics(BaseModel):
    questions: int = 0
    answerable: int = 0
    fact_extractive: float = 0.0  # a fact in the answer text
    fact_llm: float = 0.0
    shown_fact_extractive: float = 0.0  # a fact in what is shown: the answer and its quoted sources
    shown_fact_llm: float = 0.0
    language_match: float = 0.0
    shown: float = 0.0  # of the questions the model was asked
    rejected: float = 0.0  # verification (grounding) refused the answer
    abstained: float = 0.0  # the model said the passages don't answer
    failed: float = 0.0  # anything else: uncited, wrong language, timeout …
    asked: int = 0  # questions the model was asked to write for (an extractive abstention asks none)
    check_declined: int = 0  # answered extractively, declined by the model's check before writing
    ungrounded_shown: int = 0
    generate_p50_ms: float | None = None
    generate_p90_ms: float | None = None
    total_p50_ms: float | None = None


class LLMReport(BaseModel):
    by_language: dict[str, LLMMetrics]
    rejections: list[dict[str, str]]


def has_fact(question: EvalQuestion, answer: str) -> bool:
    lowered = answer.lower()
    return any(f in answer for f in question.facts) or any(f.lower() in lowered for f in question.facts_en)


def _shown(result: AskResult) -> str:
    """What a reader sees: the answer and the quotes of its sources (the bot's fields, the CLI's list)."""
    return "\n".join([result.answer, *(c.quote for c in result.citations)])


def language_matches(language: str, answer: str) -> bool:
    line = opening_line(answer)
    return is_english_line(line) if language == "en" else any("\u3400" <= c <= "\u9fff" for c in answer)


def _percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 1)
    return round(statistics.quantiles(values, n=100, method="inclusive")[int(share * 100) - 1], 1)


def _metrics(rows: list[tuple[EvalQuestion, AskResult, AskResult]], ungrounded: Ungrounded) -> LLMMetrics:
    metrics = LLMMetrics(questions=len(rows))
    answerable = [(q, e, g) for q, e, g in rows if q.type == "in"]
    metrics.answerable = len(answerable)
    if answerable:
        metrics.fact_extractive = sum(1 for q, e, _ in answerable if has_fact(q, e.answer)) / len(answerable)
        metrics.fact_llm = sum(1 for q, _, g in answerable if has_fact(q, g.answer)) / len(answerable)
        metrics.shown_fact_extractive = sum(1 for q, e, _ in answerable if has_fact(q, _shown(e))) / len(answerable)
        metrics.shown_fact_llm = sum(1 for q, _, g in answerable if has_fact(q, _shown(g))) / len(answerable)
    answered = [(q, g) for q, _, g in rows if not g.abstained]
    if answered:
        metrics.language_match = sum(1 for q, g in answered if language_matches(q.lang, g.answer)) / len(answered)
    asked = [g for _, _, g in rows if g.generation is not None]
    metrics.asked = len(asked)
    if asked:
        outcomes = [g.generation or "" for g in asked]
        metrics.shown = outcomes.count("shown") / len(asked)
        metrics.abstained = outcomes.count("abstained") / len(asked)
        metrics.rejected = sum(1 for o in outcomes if o.startswith("ungrounded")) / len(asked)
        metrics.failed = 1 - metrics.shown - metrics.abstained - metrics.rejected
        times = [g.timings_ms["generate"] for g in asked if "generate" in g.timings_ms]
        metrics.generate_p50_ms, metrics.generate_p90_ms = _percentile(times, 0.5), _percentile(times, 0.9)
        metrics.total_p50_ms = _percentile([g.timings_ms.get("total", 0) for g in asked], 0.5)
    metrics.check_declined = sum(1 for _, e, g in rows if g.abstained and not e.abstained and "check" in g.timings_ms)
    metrics.ungrounded_shown = sum(1 for g in asked if g.generation == "shown" and ungrounded(g))
    return metrics


def evaluate_llm(
    questions: Iterable[EvalQuestion], ask_extractive: Ask, ask_llm: Ask, ungrounded: Ungrounded
) -> LLMReport:
    rows: dict[str, list[tuple[EvalQuestion, AskResult, AskResult]]] = {}
    for question in questions:
        extractive = ask_extractive(question.q, question.context)
        generated = ask_llm(question.q, question.context)
        rows.setdefault(question.lang, []).append((question, extractive, generated))
    everything = [row for group in rows.values() for row in group]
    by_language = {lang: _metrics(group, ungrounded) for lang, group in sorted(rows.items())}
    if len(rows) > 1:
        by_language["all"] = _metrics(everything, ungrounded)
    rejections = [
        {"id": q.id, "q": q.q, "why": g.generation or ""}
        for q, _, g in everything
        if g.generation not in (None, "shown", "abstained")
    ]
    return LLMReport(by_language=by_language, rejections=rejections)


COLUMNS = [
    ("fact extr", "fact_extractive"),
    ("fact llm", "fact_llm"),
    ("shown fact extr", "shown_fact_extractive"),
    ("shown fact llm", "shown_fact_llm"),
    ("lang match", "language_match"),
    ("shown", "shown"),
    ("rejected", "rejected"),
    ("model abst", "abstained"),
    ("check declined", "check_declined"),
    ("failed", "failed"),
    ("ungrounded shown", "ungrounded_shown"),
    ("gen p50 ms", "generate_p50_ms"),
    ("gen p90 ms", "generate_p90_ms"),
]


def llm_table(report: LLMReport, label: str) -> str:
    head = "| model | lang | n | asked | " + " | ".join(name for name, _ in COLUMNS) + " |"
    lines = [head, "|" + "---|" * (len(COLUMNS) + 4)]
    for lang, m in report.by_language.items():
        cells = []
        for _, attr in COLUMNS:
            value = getattr(m, attr)
            cells.append(
                "–" if value is None else f"{value:.2f}" if isinstance(value, float) and value <= 1 else str(value)
            )
        lines.append(f"| {label} | {lang} | {m.questions} | {m.asked} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


__all__ = ["LLMMetrics", "LLMReport", "evaluate_llm", "has_fact", "language_matches", "llm_table"]
