"""The evaluation harness: retrieval and answer metrics per language over a JSONL question set.

Format and metrics: ../shared/eval/README.md. `in` questions have gold substrings (a passage is
relevant if it contains one) and facts (the answer is right if it contains one); `out` and
`hard_out` questions should be abstained on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from index.models import AskResult


class EvalError(ValueError):
    """The question file can't be read; one-line message."""


class EvalQuestion(BaseModel):
    id: str
    lang: str
    type: Literal["in", "out", "hard_out"]
    q: str
    gold: list[str] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)
    # our extension of the format: the earlier question(s) of a follow-up, one per line, oldest first
    context: str | None = None


class Metrics(BaseModel):
    questions: int = 0
    answerable: int = 0
    hit_at_1: float = 0.0
    recall_at_3: float = 0.0
    recall_at_5: float = 0.0
    mrr: float = 0.0
    fact_rate: float = 0.0
    citation_precision: float = 0.0
    abstention_out: float | None = None
    abstention_hard_out: float | None = None
    false_abstention: float = 0.0


class Failure(BaseModel):
    id: str
    q: str
    problem: str
    answer: str


class Report(BaseModel):
    by_language: dict[str, Metrics]
    failures: list[Failure]


def load_questions(path: Path) -> list[EvalQuestion]:
    if not path.is_file():
        raise EvalError(f"question file {path} does not exist")
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            questions.append(EvalQuestion.model_validate_json(line))
        except ValidationError as error:
            raise EvalError(f"{path}:{number}: {error.errors()[0]['msg']}") from None
    if not questions:
        raise EvalError(f"question file {path} has no questions")
    return questions


def _relevant(text: str, gold: list[str]) -> bool:
    return any(g in text for g in gold)


def evaluate(
    questions: Iterable[EvalQuestion],
    ask: Callable[[str, str | None], AskResult],
    chunk_text: Callable[[str], str],
) -> Report:
    """Run every question (with its context, if a follow-up) through ``ask`` and score it;
    ``chunk_text`` maps a chunk id to its text."""
    rows: dict[str, list[tuple[EvalQuestion, AskResult]]] = {}
    for question in questions:
        rows.setdefault(question.lang, []).append((question, ask(question.q, question.context)))
    by_language = {lang: _metrics(pairs, chunk_text) for lang, pairs in sorted(rows.items())}
    all_pairs = [pair for pairs in rows.values() for pair in pairs]
    if len(rows) > 1:
        by_language["all"] = _metrics(all_pairs, chunk_text)
    return Report(by_language=by_language, failures=_failures(all_pairs))


def _metrics(pairs: list[tuple[EvalQuestion, AskResult]], chunk_text: Callable[[str], str]) -> Metrics:
    answerable = [(q, r) for q, r in pairs if q.type == "in"]
    metrics = Metrics(questions=len(pairs), answerable=len(answerable))
    if answerable:
        ranks = [_first_relevant(q, r) for q, r in answerable]
        n = len(answerable)
        metrics.hit_at_1 = sum(1 for r in ranks if r == 1) / n
        metrics.recall_at_3 = sum(1 for r in ranks if r and r <= 3) / n
        metrics.recall_at_5 = sum(1 for r in ranks if r and r <= 5) / n
        metrics.mrr = sum(1 / r for r in ranks if r) / n
        metrics.fact_rate = sum(1 for q, r in answerable if any(f in r.answer for f in q.facts)) / n
        cited = [(q, c) for q, r in answerable for c in r.citations]
        metrics.citation_precision = (
            sum(1 for q, c in cited if _relevant(chunk_text(c.chunk_id), q.gold)) / len(cited) if cited else 0.0
        )
        metrics.false_abstention = sum(1 for _, r in answerable if r.abstained) / n
    for kind, field in (("out", "abstention_out"), ("hard_out", "abstention_hard_out")):
        group = [r for q, r in pairs if q.type == kind]
        if group:
            setattr(metrics, field, sum(1 for r in group if r.abstained) / len(group))
    return metrics


def _first_relevant(question: EvalQuestion, result: AskResult) -> int | None:
    return next((p.rank for p in result.passages if _relevant(p.text, question.gold)), None)


def _failures(pairs: list[tuple[EvalQuestion, AskResult]]) -> list[Failure]:
    failures = []
    for q, r in pairs:
        problems = []
        if q.type == "in":
            if r.abstained:
                problems.append("abstained")
            elif not any(f in r.answer for f in q.facts):
                problems.append("no fact")
            if _first_relevant(q, r) != 1:
                problems.append(f"first relevant at {_first_relevant(q, r)}")
        elif not r.abstained:
            problems.append("answered")
        if problems:
            failures.append(Failure(id=q.id, q=q.q, problem=", ".join(problems), answer=r.answer[:160]))
    return failures


COLUMNS = [
    ("hit@1", "hit_at_1"),
    ("R@3", "recall_at_3"),
    ("R@5", "recall_at_5"),
    ("MRR", "mrr"),
    ("fact", "fact_rate"),
    ("cite P", "citation_precision"),
    ("abst out", "abstention_out"),
    ("abst hard", "abstention_hard_out"),
    ("false abst", "false_abstention"),
]


def table(rows: list[tuple[str, str, Metrics]], label: str = "setting") -> str:
    """A Markdown table: one row per (setting, language)."""
    head = f"| {label} | lang | n | " + " | ".join(name for name, _ in COLUMNS) + " |"
    rule = "|" + "---|" * (len(COLUMNS) + 3)
    lines = [head, rule]
    for setting, lang, m in rows:
        cells = [_fmt(getattr(m, attr)) for _, attr in COLUMNS]
        lines.append(f"| {setting} | {lang} | {m.questions} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def report_json(report: Report) -> str:
    return json.dumps(report.model_dump(), ensure_ascii=False)
