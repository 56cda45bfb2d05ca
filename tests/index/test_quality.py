"""Answer quality must not regress: the evaluation harness (index/evaluate/metrics.py) over the question
sets in tests/eval, with the session engine, against the figures measured on this code.

A figure may read one question apart on another machine (CPUs round embeddings differently, and a
question at a gate's threshold can fall either way), so a floor is the measured figure less the
larger of 0.03 and what one question moves it (``Metrics.steps``), rounded down; a ceiling the
same above. A figure over fewer than MIN_ASSERTED questions is printed, not asserted. The answer
model trains on the dev sets, never on the holdout. When quality improves, re-measure; when a
change lowers a figure, the change needs a reason.
"""

from __future__ import annotations

import math

import pytest

from index.evaluate.metrics import EvalQuestion, Metrics, Report, evaluate, load_questions, table
from tests.index.support import REPO

EVAL = REPO / "tests" / "eval"
SETS = {
    "dev": [
        "dev_questions.jsonl",
        "dev_extra.jsonl",
        "dev_offtopic.jsonl",
        "dev_more.jsonl",
        "dev_more2.jsonl",
        "dev_more3.jsonl",
        "dev_more4.jsonl",
        "dev_more5.jsonl",
    ],
    "holdout": [
        "holdout_questions.jsonl",
        "holdout_extra.jsonl",
        "holdout_fresh.jsonl",
        "holdout_colloquial.jsonl",
        "holdout_blind.jsonl",
        "holdout_blind2.jsonl",
        "holdout_blind3.jsonl",
        "holdout_blind4.jsonl",
        "holdout_blind5.jsonl",
        "holdout_blind6.jsonl",
        "holdout_blind7.jsonl",
        "holdout_blind8.jsonl",
        "holdout_blind9.jsonl",
    ],
    # follow-ups, each with the question it follows as context: the dev ones shaped the rule
    # (index/answer/followup.py) and are training data, the holdout ones were written before their first run; the
    # "answer" ones lean on what the answer before said (a person, a score it stated)
    "followups": [
        "followups_dev.jsonl",
        "followups_holdout.jsonl",
        "followups_answer_dev.jsonl",
        "followups_answer_holdout.jsonl",
    ],
}
# Measured 2026-12-08 (fourteenth session: near-topic declined and hedged wrong moved with its checks; the
# model of index/data/answer_model.json, the English view from the corpus's verified renderings, its title
# line from its sidecar): dev zh 164 / en 307 questions (trained on),
# holdout zh 348 / en 356 (never trained on), follow-ups zh 67 / en 60.
MEASURED: dict[str, dict[str, dict[str, float]]] = {
    "dev": {
        "zh": {"hit_at_1": 0.971, "recall_at_5": 0.99, "fact_rate": 0.99, "citation_precision": 0.971,
               "abstention_out": 0.961, "abstention_hard_out": 0.8, "false_abstention": 0.0,
               "hedged_right": 0.059, "hedged_wrong": 1.0},
        "en": {"hit_at_1": 0.945, "recall_at_5": 0.995, "fact_rate": 0.977, "citation_precision": 0.946,
               "abstention_out": 0.985, "abstention_hard_out": 0.727, "false_abstention": 0.005,
               "english_line": 0.985, "english_translated": 1.0, "hedged_right": 0.085, "hedged_wrong": 0.583},
    },
    "holdout": {
        "zh": {"hit_at_1": 0.952, "recall_at_5": 0.989, "fact_rate": 0.938, "citation_precision": 0.935,
               "abstention_out": 1.0, "abstention_hard_out": 0.552, "false_abstention": 0.026,
               "hedged_right": 0.059, "hedged_wrong": 0.478},
        "en": {"hit_at_1": 0.908, "recall_at_5": 0.993, "fact_rate": 0.901, "citation_precision": 0.886,
               "abstention_out": 0.955, "abstention_hard_out": 0.536, "false_abstention": 0.014,
               "english_line": 0.922, "english_translated": 1.0, "hedged_right": 0.055, "hedged_wrong": 0.359},
    },
    "followups": {
        "zh": {"hit_at_1": 0.909, "recall_at_5": 0.964, "fact_rate": 0.891, "citation_precision": 0.909,
               "abstention_out": 1.0, "abstention_hard_out": 0.556, "false_abstention": 0.0,
               "hedged_right": 0.082, "hedged_wrong": 0.2},
        "en": {"hit_at_1": 0.857, "recall_at_5": 0.939, "fact_rate": 0.837, "citation_precision": 0.854,
               "abstention_out": 1.0, "abstention_hard_out": 0.0, "false_abstention": 0.02, "english_line": 0.867,
               "english_translated": 1.0, "hedged_right": 0.024, "hedged_wrong": 0.333},
    },
}  # fmt: skip
# lower is better for these; higher for the rest
CEILINGS = frozenset({"false_abstention", "hedged_right"})
MIN_SLACK = 0.03
MIN_ASSERTED = 20  # questions: a figure over fewer is reported only (one question moves it 0.05 or more)


def bound(measured: float, step: float, ceiling: bool) -> float:
    """The floor (or ceiling) of a figure: at least one question's change, and 0.03, away."""
    slack = max(MIN_SLACK, step)
    if ceiling:
        return math.ceil((measured + slack) * 100 - 1e-9) / 100
    return math.floor((measured - slack) * 100 + 1e-9) / 100


def checked(report: Report, name: str) -> tuple[list[str], list[str]]:
    """The problems of one set's figures against their bounds, and the figures only reported."""
    problems, reported = [], []
    for lang, figures in MEASURED[name].items():
        metrics: Metrics = report.by_language[lang]
        for metric, measured in figures.items():
            value, step = getattr(metrics, metric), metrics.steps.get(metric, 1.0)
            ceiling = metric in CEILINGS
            limit = bound(measured, step, ceiling)
            line = f"{lang} {metric} {value} (measured {measured}, {'ceiling' if ceiling else 'floor'} {limit})"
            if step > 1 / MIN_ASSERTED:
                reported.append(line)
            elif value is None or (value > limit if ceiling else value < limit):
                problems.append(line)
    english = report.by_language["en"]
    if english.english_line_cjk or english.magnitude_errors:
        problems.append(f"en lines with Chinese {english.english_line_cjk}, magnitude errs {english.magnitude_errors}")
    return problems, reported


def _questions(files: list[str]) -> list[EvalQuestion]:
    questions = [q for name in files for q in load_questions(EVAL / name)]
    ids = [q.id for q in questions]
    assert len(ids) == len(set(ids)), "question ids repeat across the files"
    return questions


@pytest.fixture(scope="module")
def reports(engine) -> dict[str, Report]:  # type: ignore[no-untyped-def]
    texts = {c.chunk_id: c.text for c in engine.snapshot.stored.chunks}
    return {
        name: evaluate(_questions(files), lambda q, c: engine.ask(q, context=c), texts.__getitem__)
        for name, files in SETS.items()
    }


@pytest.mark.parametrize("name", list(SETS))
def test_quality_floors(reports: dict[str, Report], name: str, capsys: pytest.CaptureFixture[str]) -> None:
    report = reports[name]
    problems, reported = checked(report, name)
    with capsys.disabled():
        print(f"\n{name} ({' + '.join(SETS[name])}):")
        print(table([(name, lang, m) for lang, m in report.by_language.items()]))
        if reported:
            print("reported, not asserted (too few questions):\n  " + "\n  ".join(reported))
    assert not problems, "; ".join(problems)


def test_every_bound_is_at_least_one_question_away() -> None:
    assert bound(0.6, 0.1, ceiling=False) == 0.5  # ten questions: one may change
    assert bound(0.93, 1 / 273, ceiling=False) == 0.9  # many: 0.03
    assert bound(0.015, 1 / 273, ceiling=True) == 0.05
    assert bound(0.05, 0.05, ceiling=True) == 0.1
    for figures in MEASURED.values():
        for lang_figures in figures.values():
            for metric, measured in lang_figures.items():
                ceiling = metric in CEILINGS
                assert abs(bound(measured, 0.0, ceiling) - measured) >= MIN_SLACK - 1e-9


def test_the_sets_cover_both_languages_and_off_topic_questions() -> None:
    for name in ("dev", "holdout"):
        questions = _questions(SETS[name])
        for lang in ("zh", "en"):
            mine = [q for q in questions if q.lang == lang]
            assert sum(q.type == "in" for q in mine) >= 20
            assert sum(q.type == "out" for q in mine) >= 5
        assert all(q.gold and q.facts for q in questions if q.type == "in")
