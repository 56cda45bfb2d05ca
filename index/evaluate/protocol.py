"""Running the public protocol (../shared/eval/public/README.md): a set's corpus written and indexed,
its questions asked of an engine, and their metrics."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel

from index.config import IndexSettings, load_settings
from index.evaluate import public
from index.evaluate.metrics import QUOTED, fmt, is_english_line, markdown, opening_line, share
from index.models import AskResult
from index.text.language import QuestionError


def indexed(public_set: public.PublicSet, folder: Path, base: IndexSettings | None = None) -> IndexSettings:
    """``base`` settings (the defaults if None) for the set's corpus, written to ``folder``/corpus and
    indexed in ``folder``/index (texts already embedded there are not embedded again)."""
    from index.build.builder import build_index

    corpus = public.write_corpus(public_set, folder / "corpus", public_set.renderings)
    settings = (base or load_settings()).model_copy(update={"corpus_dir": corpus, "index_dir": folder / "index"})
    build_index(settings, progress=False)
    return settings


def ask_public(
    engine: object,
    questions: Sequence[public.PublicQuestion],
    english_answers: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, PublicMetrics]:
    """Per-language metrics of the public protocol for these questions, asked of ``engine``;
    ``english_answers``: English questions' English gold, by question id (XQuAD)."""
    rows: dict[str, list[tuple[str, dict[str, bool | None]]]] = {}
    for question in questions:
        try:
            result = engine.ask(question.q)  # type: ignore[attr-defined]
        except QuestionError:
            continue
        row = public_row(question.gold, result, (english_answers or {}).get(question.id, ()))
        rows.setdefault(question.lang, []).append((question.kind, row))
    return {lang: public_metrics(r) for lang, r in sorted(rows.items())}


class PublicMetrics(BaseModel):
    questions: int = 0
    answerable: int = 0
    retrieved_at_1: float = 0.0
    retrieved_at_5: float = 0.0
    answered: float = 0.0  # the answer holds the gold span (white space ignored) and did not abstain
    false_abstention: float = 0.0
    near_topic: int = 0
    near_abstention: float | None = None  # questions of a paragraph left out of the corpus, declined
    off_topic: int = 0
    off_abstention: float | None = None  # questions of articles not in the corpus, declined
    # English questions with an English gold (XQuAD): the English line holds all its content words
    english_line: float | None = None
    # answers that say they may not be one: of those holding the gold span, and of the rest answered
    # (an answerable question's answer without it, or a question to decline)
    hedged_right: float | None = None
    hedged_wrong: float | None = None


def squeezed(text: str) -> str:
    """White space dropped: how a gold span is looked for in a passage or an answer (the protocol)."""
    return "".join(text.split())


def gold_spans(gold: Sequence[str]) -> list[str]:
    return [squeezed(g) for g in gold if g.strip()]


def public_row(gold: Sequence[str], result: AskResult, gold_en: Sequence[str] = ()) -> dict[str, bool | None]:
    """How one answer did: retrieved at 1 and 5, answered, abstained; with ``gold_en`` (an English
    question's English gold), whether its English line holds it (None without)."""
    spans = gold_spans(gold)
    found = [any(g in squeezed(p.text) for g in spans) for p in result.passages]
    answered = not result.abstained and any(g in squeezed(result.answer) for g in spans)
    line = (not result.abstained and holds_english_answer(opening_line(result.answer), gold_en)) if gold_en else None
    return {
        "r1": found[:1] == [True],
        "r5": any(found[:5]),
        "answered": answered,
        "abstained": result.abstained,
        "en_line": line,
        "hedged": result.hedged and not result.abstained,
    }


def holds_english_answer(line: str, answers: Sequence[str]) -> bool:
    """An English line that has every content word of one of the answers (as stems: "formed" meets
    "form"); stricter than "holds a fact": "66 million years ago" needs "years" and "ago" too."""
    from index.english.dictionary import stem
    from index.text.stopwords import EN_STOPWORDS

    def stems(text: str) -> set[str]:
        return {stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in EN_STOPWORDS}

    said = stems(QUOTED.sub("", line))
    return is_english_line(line) and any(stems(a) and stems(a) <= said for a in answers)


def public_metrics(rows: Sequence[tuple[str, dict[str, bool | None]]]) -> PublicMetrics:
    """Metrics over (kind, public_row) pairs; kind is in / near / off."""
    answerable = [r for kind, r in rows if kind == "in"]
    near = [r for kind, r in rows if kind == "near"]
    off = [r for kind, r in rows if kind == "off"]
    metrics = PublicMetrics(questions=len(rows), answerable=len(answerable), near_topic=len(near), off_topic=len(off))
    if answerable:
        n = len(answerable)
        metrics.retrieved_at_1 = sum(r["r1"] for r in answerable) / n
        metrics.retrieved_at_5 = sum(r["r5"] for r in answerable) / n
        metrics.answered = sum(r["answered"] for r in answerable) / n
        metrics.false_abstention = sum(r["abstained"] for r in answerable) / n
        lines = [r["en_line"] for r in answerable if r.get("en_line") is not None]
        if lines:
            metrics.english_line = sum(bool(x) for x in lines) / len(lines)
    right = [bool(r.get("hedged")) for kind, r in rows if kind == "in" and r["answered"]]
    wrong = [bool(r.get("hedged")) for kind, r in rows if not r["abstained"] and not (kind == "in" and r["answered"])]
    metrics.hedged_right, metrics.hedged_wrong = share(right), share(wrong)
    if near:
        metrics.near_abstention = sum(r["abstained"] for r in near) / len(near)
    if off:
        metrics.off_abstention = sum(r["abstained"] for r in off) / len(off)
    return metrics


PUBLIC_COLUMNS = [
    ("ret@1", "retrieved_at_1"),
    ("ret@5", "retrieved_at_5"),
    ("answered", "answered"),
    ("false abst", "false_abstention"),
    ("near abst", "near_abstention"),
    ("off abst", "off_abstention"),
    ("en line", "english_line"),
    ("marked: right", "hedged_right"),
    ("wrong", "hedged_wrong"),
]


def public_table(rows: list[tuple[str, str, PublicMetrics]], label: str = "set") -> str:
    return markdown(
        [label, "lang", "n in", "n near", "n off", *(name for name, _ in PUBLIC_COLUMNS)],
        [
            [
                name,
                lang,
                m.answerable,
                m.near_topic,
                m.off_topic,
                *(fmt(getattr(m, attr)) for _, attr in PUBLIC_COLUMNS),
            ]
            for name, lang, m in rows
        ],
    )
