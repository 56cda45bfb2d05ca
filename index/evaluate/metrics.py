"""The evaluation harness: retrieval and answer metrics per language over a JSONL question set.

Format and metrics: ../shared/eval/README.md. `in` questions have gold substrings (a passage is
relevant if it contains one) and facts (the answer is right if it contains one); `out` and
`hard_out` questions should be abstained on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
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
    # our extension: the facts in English, for the English line an English answer opens with
    facts_en: list[str] = Field(default_factory=list)
    # our extension of the format: the earlier question(s) of a follow-up, one per line, oldest first
    context: str | None = None
    # our extension: what kind of question it is (reason, meaning, opinion, comparison, list, near,
    # factoid …), reported apart; None counts as factoid
    kind: str | None = None


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
    # the English line (English questions with facts_en): it holds an English fact and no Chinese
    english_line: float | None = None
    # the same, of the questions whose quote holds a Chinese fact: the rendering, given the right sentence
    english_rendering: float | None = None
    english_line_cjk: float | None = None  # share of English answers whose opening line has Chinese
    # share of English answers opening with a verified translation (or the article's own English)
    english_translated: float | None = None
    magnitude_errors: int | None = None  # opening lines stating a number the cited quotes don't
    # answers that say they may not be one (AskResult.hedged): of the right ones (an answerable
    # question's answer holding a fact), and of the wrong ones (no fact, or a question to decline)
    hedged_right: float | None = None
    hedged_wrong: float | None = None
    # the most one question can move each rate (1/n of a rate over n questions; for citation
    # precision the most citations one answer has, over all citations): how far apart two machines
    # that differ in one decision read
    steps: dict[str, float] = Field(default_factory=dict)


class Failure(BaseModel):
    id: str
    q: str
    problem: str
    answer: str


class Report(BaseModel):
    by_language: dict[str, Metrics]
    failures: list[Failure]
    # "kind/lang" → metrics, when the questions say their kind
    by_kind: dict[str, Metrics] = Field(default_factory=dict)


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
    kinds: dict[str, list[tuple[EvalQuestion, AskResult]]] = {}
    if any(q.kind for q, _ in all_pairs):
        for q, r in all_pairs:
            kinds.setdefault(f"{q.kind or 'factoid'}/{q.lang}", []).append((q, r))
    by_kind = {key: _metrics(pairs, chunk_text) for key, pairs in sorted(kinds.items())}
    return Report(by_language=by_language, failures=_failures(all_pairs), by_kind=by_kind)


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
        metrics.fact_rate = sum(1 for q, r in answerable if _holds_fact(q, r)) / n
        cited = [(q, c) for q, r in answerable for c in r.citations]
        metrics.citation_precision = (
            sum(1 for q, c in cited if _relevant(chunk_text(c.chunk_id), q.gold)) / len(cited) if cited else 0.0
        )
        metrics.false_abstention = sum(1 for _, r in answerable if r.abstained) / n
        for name in ("hit_at_1", "recall_at_3", "recall_at_5", "mrr", "fact_rate", "false_abstention"):
            metrics.steps[name] = 1 / n
        if cited:
            metrics.steps["citation_precision"] = max(len(r.citations) for _, r in answerable) / len(cited)
    _english_line_metrics(metrics, answerable)
    right = [r.hedged for q, r in answerable if not r.abstained and _holds_fact(q, r)]
    wrong = [r.hedged for q, r in pairs if not r.abstained and (q.type != "in" or not _holds_fact(q, r))]
    metrics.hedged_right, metrics.hedged_wrong = share(right), share(wrong)
    _step(metrics, "hedged_right", len(right))
    _step(metrics, "hedged_wrong", len(wrong))
    for kind, field in (("out", "abstention_out"), ("hard_out", "abstention_hard_out")):
        group = [r for q, r in pairs if q.type == kind]
        if group:
            setattr(metrics, field, sum(1 for r in group if r.abstained) / len(group))
            _step(metrics, field, len(group))
    return metrics


def _step(metrics: Metrics, name: str, n: int) -> None:
    if n:
        metrics.steps[name] = 1 / n


def _holds_fact(question: EvalQuestion, result: AskResult) -> bool:
    return any(f in result.answer for f in question.facts)


def share(flags: Sequence[bool]) -> float | None:
    """The share of true ones (None of none)."""
    return sum(flags) / len(flags) if flags else None


_CJK = re.compile(r"[\u3400-\u9fff]")
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|\"[^\"]*\"")


def opening_line(answer: str) -> str:
    return answer.strip().split("\n", 1)[0]


def is_english_line(line: str) -> bool:
    """No Chinese outside quotation marks (a quoted name may be Chinese)."""
    return bool(line.strip()) and not _CJK.search(QUOTED.sub("", line))


def holds_english_fact(line: str, facts_en: list[str]) -> bool:
    lowered = line.lower()
    return is_english_line(line) and any(f.lower() in lowered for f in facts_en)


def _cited_texts(result: AskResult) -> list[str]:
    """The passages an answer cites, with their sections (a heading may be rendered too)."""
    cited = {c.chunk_id for c in result.citations}
    texts = [f"{p.section}\n{p.text}" for p in result.passages if p.chunk_id in cited]
    return texts or [c.quote for c in result.citations]


def _english_line_metrics(metrics: Metrics, answerable: list[tuple[EvalQuestion, AskResult]]) -> None:
    english = [(q, r) for q, r in answerable if q.lang == "en"]
    if not english:
        return
    from index.text.bounds import unsupported_quantities

    answered = [(q, r) for q, r in english if not r.abstained]
    if answered:
        lines = [opening_line(r.answer) for _, r in answered]
        metrics.english_line_cjk = sum(1 for line in lines if not is_english_line(line)) / len(lines)
        _step(metrics, "english_line_cjk", len(lines))
        metrics.english_translated = sum(1 for _, r in answered if r.translated) / len(answered)
        _step(metrics, "english_translated", len(answered))
        metrics.magnitude_errors = sum(
            1 for (_, r), line in zip(answered, lines, strict=True)
            if unsupported_quantities(QUOTED.sub("", re.sub(r"\[\d+\]", "", line)), _cited_texts(r))
        )  # fmt: skip
    with_facts = [(q, r) for q, r in english if q.facts_en]
    if with_facts:
        metrics.english_line = sum(
            1 for q, r in with_facts if not r.abstained and holds_english_fact(opening_line(r.answer), q.facts_en)
        ) / len(with_facts)
        _step(metrics, "english_line", len(with_facts))
        right = [(q, r) for q, r in with_facts if any(f in c.quote for c in r.citations for f in q.facts)]
        if right:
            metrics.english_rendering = sum(
                1 for q, r in right if holds_english_fact(opening_line(r.answer), q.facts_en)
            ) / len(right)
            _step(metrics, "english_rendering", len(right))


def _first_relevant(question: EvalQuestion, result: AskResult) -> int | None:
    return next((p.rank for p in result.passages if _relevant(p.text, question.gold)), None)


def _failures(pairs: list[tuple[EvalQuestion, AskResult]]) -> list[Failure]:
    failures = []
    for q, r in pairs:
        problems = []
        if q.type == "in":
            if r.abstained:
                problems.append("abstained")
            elif not _holds_fact(q, r):
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
    ("en line", "english_line"),
    ("translated", "english_translated"),
    ("en render", "english_rendering"),
    ("marked: right", "hedged_right"),
    ("wrong", "hedged_wrong"),
]


def table(rows: list[tuple[str, str, Metrics]], label: str = "setting") -> str:
    """A Markdown table: one row per (setting, language)."""
    return markdown(
        [label, "lang", "n", *(name for name, _ in COLUMNS)],
        [[setting, lang, m.questions, *(fmt(getattr(m, attr)) for _, attr in COLUMNS)] for setting, lang, m in rows],
    )


def markdown(head: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt(value: float | None) -> str:
    return "–" if value is None else str(value) if isinstance(value, int) else f"{value:.2f}"


def report_json(report: Report) -> str:
    return json.dumps(report.model_dump(), ensure_ascii=False)
