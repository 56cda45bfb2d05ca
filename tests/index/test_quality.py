"""Answer quality must not regress: the evaluation harness (index/evaluation.py) over the question
sets in tests/eval, with the session engine, against floors set a little below measured values.

The floors were measured with the default settings (bundled multilingual-e5-small, chunk size
450) and set to (measured - 0.03) rounded down to 2 decimals; the false-abstention ceilings to
(measured + 0.03) rounded up. The answer model trains on the dev sets, never on the holdout.
When quality improves, raise the floors; when a change lowers them, the change needs a reason.
"""

from __future__ import annotations

import pytest

from index.evaluation import EvalQuestion, Metrics, Report, evaluate, load_questions, table
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
    # (index/followup.py), the holdout ones were written before their first run
    "followups": ["followups_dev.jsonl", "followups_holdout.jsonl"],
}
FLOOR_METRICS = ("hit_at_1", "recall_at_5", "fact_rate", "citation_precision", "abstention_out", "abstention_hard_out")

# Measured on 2026-12-04 with the learned answer layer (index/answering/, the model of
# index/data/answer_model.json: local-rarity share, retrieved-passage coverage, groups weighed by size, the
# scorer the mean of three bagged fits, two gates of five, one against off-topic questions (the
# background's generic questions among them), one against near-topic ones) and the English view
# (gloss cosines as features, gloss ranking in the fusion at weight 1): dev zh 164 / en 307 questions
# (trained on: the gates' and scorer's "own" source), holdout zh 348 / en 356 (never trained on),
# follow-ups zh 32 / en 25. The model is the one `python -m index train` makes from an empty work
# folder (2026-12-04, fifth session); the one before was fitted on examples partly examined by older
# code and could not be made again. Against it: dev off-topic en 0.89 → 0.85 (floor 0.86 → 0.81) and
# zh 0.94 → 1.00, near-topic en 0.36 → 0.32 (floor 0.32 → 0.28) and zh 0.80 → 0.70 (floor 0.75 →
# 0.67); holdout cite P en 0.88 → 0.87, fact zh 0.87 → 0.88; the rest unchanged.
#   dev       zh  hit@1 0.93  R@5 0.99  fact 0.99  cite P 0.97  abst out 1.00  hard 0.70  false abst 0.00
#   dev       en  hit@1 0.85  R@5 1.00  fact 0.97  cite P 0.95  abst out 0.85  hard 0.32  false abst 0.00
#   holdout   zh  hit@1 0.93  R@5 0.99  fact 0.88  cite P 0.92  abst out 1.00  hard 0.38  false abst 0.02
#   holdout   en  hit@1 0.89  R@5 0.99  fact 0.83  cite P 0.87  abst out 0.95  hard 0.14  false abst 0.01
#   followups zh  hit@1 0.96  R@5 0.96  fact 0.77  cite P 0.96  abst out 0.67  hard 0.00  false abst 0.04
#   followups en  hit@1 0.80  R@5 1.00  fact 0.75  cite P 0.89  abst out 0.67  hard 0.00  false abst 0.05
FLOORS: dict[str, dict[str, dict[str, float]]] = {
    "dev": {
        "zh": {
            "hit_at_1": 0.9,
            "recall_at_5": 0.96,
            "fact_rate": 0.96,
            "citation_precision": 0.94,
            "abstention_out": 0.91,
            "abstention_hard_out": 0.67,
        },
        "en": {
            "hit_at_1": 0.82,
            "recall_at_5": 0.96,
            "fact_rate": 0.93,
            "citation_precision": 0.91,
            "abstention_out": 0.81,
            "abstention_hard_out": 0.28,
        },
    },
    "holdout": {
        "zh": {
            "hit_at_1": 0.9,
            "recall_at_5": 0.95,
            "fact_rate": 0.83,
            "citation_precision": 0.89,
            "abstention_out": 0.97,
            "abstention_hard_out": 0.34,
        },
        "en": {
            "hit_at_1": 0.86,
            "recall_at_5": 0.96,
            "fact_rate": 0.8,
            "citation_precision": 0.85,
            "abstention_out": 0.92,
            "abstention_hard_out": 0.1,
        },
    },
    "followups": {
        "zh": {
            "hit_at_1": 0.93,
            "recall_at_5": 0.93,
            "fact_rate": 0.74,
            "citation_precision": 0.93,
            "abstention_out": 0.6,
            "abstention_hard_out": 0.0,
        },
        "en": {
            "hit_at_1": 0.77,
            "recall_at_5": 0.97,
            "fact_rate": 0.67,
            "citation_precision": 0.86,
            "abstention_out": 0.63,
            "abstention_hard_out": 0.0,
        },
    },
}
FALSE_ABSTENTION_CEILINGS = {
    "dev": {
        "zh": 0.03,
        "en": 0.03,
    },
    "holdout": {
        "zh": 0.05,
        "en": 0.05,
    },
    "followups": {
        "zh": 0.07,
        "en": 0.08,
    },
}


# The English line an English answer opens with (issue #23): holds the English fact (measured
# 2026-12-03 with the glosses e5 chooses, single characters too: holdout 0.850, dev 0.947,
# follow-ups 0.533, one of 15 lower: its line, rendering more clauses, ran past 320 characters
# before the fact), never Chinese outside quotes, never a number its quotes don't state
# answers marked as maybe not the answer (AskResult.hedged), holdout, measured 2026-12-04 (fifth
# session): right ones en 0.05 / zh 0.06 (a ceiling), wrong ones 0.26 / 0.26 (a floor)
HOLDOUT_MARKED = {"en": (0.08, 0.23), "zh": (0.09, 0.23)}
ENGLISH_LINE_FLOORS = {"dev": 0.93, "holdout": 0.83, "followups": 0.50}


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
    with capsys.disabled():
        print(f"\n{name} ({' + '.join(SETS[name])}):")
        print(table([(name, lang, m) for lang, m in report.by_language.items()]))
    problems = []
    for lang, floors in FLOORS[name].items():
        metrics: Metrics = report.by_language[lang]
        for metric in FLOOR_METRICS:
            value = getattr(metrics, metric)
            if value is None or value < floors[metric]:
                problems.append(f"{lang} {metric} {value} < {floors[metric]}")
        ceiling = FALSE_ABSTENTION_CEILINGS[name][lang]
        if metrics.false_abstention > ceiling:
            problems.append(f"{lang} false_abstention {metrics.false_abstention:.3f} > {ceiling}")
        if name == "holdout":  # marked answers: few right ones, more wrong ones (measured + / − 0.03)
            right, wrong = HOLDOUT_MARKED[lang]
            if metrics.hedged_right is None or metrics.hedged_right > right:
                problems.append(f"{lang} right answers marked {metrics.hedged_right} > {right}")
            if metrics.hedged_wrong is None or metrics.hedged_wrong < wrong:
                problems.append(f"{lang} wrong answers marked {metrics.hedged_wrong} < {wrong}")
    english = report.by_language["en"]
    if english.english_line is None or english.english_line < ENGLISH_LINE_FLOORS[name]:
        problems.append(f"en english_line {english.english_line} < {ENGLISH_LINE_FLOORS[name]}")
    if english.english_line_cjk or english.magnitude_errors:
        problems.append(f"en lines with Chinese {english.english_line_cjk}, magnitude errs {english.magnitude_errors}")
    assert not problems, "; ".join(problems)


def test_the_sets_cover_both_languages_and_off_topic_questions() -> None:
    for name in ("dev", "holdout"):
        questions = _questions(SETS[name])
        for lang in ("zh", "en"):
            mine = [q for q in questions if q.lang == lang]
            assert sum(q.type == "in" for q in mine) >= 20
            assert sum(q.type == "out" for q in mine) >= 5
        assert all(q.gold and q.facts for q in questions if q.type == "in")
