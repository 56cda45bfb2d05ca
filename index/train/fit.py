"""`python -m index train`: the answer model learned from public data, reproducibly.

1. Examples (train/examples.py): the public sets' training articles and our development
   questions, every question examined by the engine's own steps; each source weighs SOURCE_SHARE.
2. The scorer: gradient-boosted trees ranking the candidates of each answerable question.
3. Two gates: trees on question-level features computed with out-of-fold scorer probabilities (as
   a new question would see them), answerable questions against off-topic ones (other articles',
   the background's) and against near-topic ones (their paragraph left out). Thresholds are
   chosen on out-of-fold gate probabilities, per language: the off-topic gate's for a
   false-abstention rate of OFF_FALSE_ABSTENTION, then the near-topic gate's for
   GATE_FALSE_ABSTENTION of both together.
4. The extender (train/extender.py): whether a neighbour of the best sentence joins its answer unit.
5. The held-out sets (never trained on) are asked end to end through Engine.ask; their metrics,
   the data's hash, the seed and this command are written into the model file.

LightGBM is needed here only (the `train` extra); the answer path reads the trees with numpy
(model.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from index.answer.decide import GATE_FEATURES, gate_vector
from index.answer.features import CANDIDATE_FEATURES
from index.answer.model import MODEL_FILE, AnswerModel, Trees, gate_margin, save_model, threshold_for
from index.evaluate import public
from index.evaluate.protocol import ask_public, indexed
from index.train.examples import Example, examples_of, own_files
from index.train.extender import fit_extender
from index.train.trees import (
    FOLDS,
    FULL_GROUP,
    GATE_SEEDS,
    GATE_TREES,
    SCORER_SEEDS,
    SCORER_TREES,
    SEED,
    SOURCE_SHARE,
    bagged,
    fold_of,
    lowest_threshold,
    question_weights,
)

log = logging.getLogger(__name__)
GATE_FALSE_ABSTENTION = 0.03  # the target on training data, both gates together; held-out sets must stay under 0.05
OFF_FALSE_ABSTENTION = 0.015  # the off-topic gate's part of it; the near-topic gate takes what it leaves
HEDGE_RIGHT_RATE = 0.10  # at most this share of right answers (out of fold, of each source) say they may not be one
SECOND_PRECISION = 0.25  # a second sentence joins where such seconds rescue at least one answer in four they join


def _scorer_rows(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Candidates of answerable questions, their labels, weights (a question's weight shared by its
    candidates: LightGBM weighs a question by their sum) and the candidates per question."""
    usable = [e for e in examples if e.kind == "in" and e.labels.any()]
    weights = question_weights(usable, lambda e: (e.language,))
    return (
        np.concatenate([e.matrix for e in usable]),
        np.concatenate([e.labels for e in usable]),
        np.concatenate([np.full(len(e.labels), w / len(e.labels)) for e, w in zip(usable, weights, strict=True)]),
        np.array([len(e.labels) for e in usable]),
    )


def _scorer(examples: Sequence[Example]) -> Trees:
    x, y, weights, group = _scorer_rows(examples)
    return bagged(SCORER_SEEDS, CANDIDATE_FEATURES, x, y, weights, SCORER_TREES, group=group)


def _gate(x: np.ndarray, answerable: np.ndarray, weights: np.ndarray) -> Trees:
    return bagged(GATE_SEEDS, GATE_FEATURES, x, answerable, weights, GATE_TREES)


def out_of_fold(examples: Sequence[Example]) -> tuple[list[np.ndarray], Trees]:
    """Each example's scorer probabilities from a scorer that never saw its article, and the
    scorer trained on all."""
    probabilities: list[np.ndarray] = [np.zeros(0)] * len(examples)
    for fold in range(FOLDS):
        inside = [e for e in examples if fold_of(e.group) != fold]
        trees = _scorer(inside)
        for i, example in enumerate(examples):
            if fold_of(example.group) == fold:
                probabilities[i] = trees.probability(example.matrix)
    return probabilities, _scorer(examples)


def thresholds_for(
    probabilities: np.ndarray,
    answerable: np.ndarray,
    languages: np.ndarray,
    rate: float,
    weights: np.ndarray,
    declined: np.ndarray | None = None,
) -> dict[str, float]:
    """Per language (zh, and en for all others), the highest threshold at which the answerable
    questions it declines, with those another gate already ``declined``, weigh at most ``rate`` of
    them all (0 if those already declined weigh more, or there are none)."""
    already = np.zeros(len(probabilities), dtype=bool) if declined is None else declined
    found = {}
    for language in ("zh", "en"):
        mine = answerable & ((languages == "zh") == (language == "zh"))
        rest = mine & ~already
        order = np.argsort(probabilities[rest], kind="stable")
        scores, shares = probabilities[rest][order], np.cumsum(weights[rest][order])
        spent = weights[mine & already].sum()
        total = spent + (shares[-1] if len(shares) else 0.0)
        if not total or spent / total > rate:
            found[language] = 0.0
            continue
        lowest = int(np.count_nonzero((spent + shares) / total <= rate))  # declining these costs at most ``rate``
        found[language] = float(scores[lowest]) if lowest < len(scores) else float(probabilities[mine].max())
    return found


def thresholds_per_view(
    probabilities: np.ndarray,
    answerable: np.ndarray,
    languages: np.ndarray,
    rate: float,
    weights: np.ndarray,
    views: np.ndarray,
    declined: np.ndarray | None = None,
) -> dict[str, float]:
    """thresholds_for, and for English questions (the ones the English view serves) one per view of
    the corpora with a group's worth of them ("en/glossed", "en/rendered": a corpus is indexed glossed
    or with its renderings), each holding ``rate`` in its view; "en" is the lowest of them, for a view
    not trained. One threshold for both let the glossed view decline 0.07 of answerable English
    questions held out; the lowest for both left the rendered view's near-topic gate at 0.32 declined
    out of fold, its own 0.44 (false abstention 0.015 → 0.038)."""
    found = thresholds_for(probabilities, answerable, languages, rate, weights, declined)
    english = languages != "zh"
    for view in dict.fromkeys(views.tolist()):
        mine = answerable & (views == view)
        if (mine & english).sum() >= FULL_GROUP:
            threshold = thresholds_for(probabilities, mine, languages, rate, weights, declined)["en"]
            found[f"en/{view}"] = threshold
            found["en"] = min(found["en"], threshold)
    return found


def thresholds_of(thresholds: dict[str, float], languages: np.ndarray, views: np.ndarray) -> np.ndarray:
    """Each question's threshold (model.threshold_for) by its language and its corpus's view."""
    return np.array(
        [threshold_for(thresholds, str(lang), str(view)) for lang, view in zip(languages, views, strict=True)]
    )


def hedge_margins_for(
    margins: np.ndarray, right: np.ndarray, languages: np.ndarray, weights: np.ndarray, sources: np.ndarray
) -> dict[str, float]:
    """Per language, the gate margin (model.gate_margin) below which an answer says it may not be
    one: as high as keeps the right answers it marks (``right``: answered, and the best candidate
    holds the answer) at HEDGE_RIGHT_RATE of them in every source with a group's worth of them
    (pooled, CMRC's one-paragraph articles, rarely marked, let XQuAD's be marked 0.13). Out of fold
    most answers under it are wrong: of questions whose paragraph is missing, of another article's,
    or answerable ones the scorer missed."""
    answered = right & (margins >= 0)
    found: dict[str, float] = {}
    for source in dict.fromkeys(sources.tolist()):
        mine = sources == source
        for language, margin in thresholds_for(margins, answered & mine, languages, HEDGE_RIGHT_RATE, weights).items():
            in_language = answered & mine & ((languages == "zh") == (language == "zh"))
            if in_language.sum() >= FULL_GROUP:
                found[language] = min(found.get(language, math.inf), margin)
    return {language: found.get(language, 0.0) for language in ("zh", "en")}


def second_ratio_for(examples: Sequence[Example], probabilities: Sequence[np.ndarray]) -> float:
    """The lowest ratio (second's probability / best's) at which a second sentence still holds the
    answer, when the best doesn't, for SECOND_PRECISION of the questions it joins."""
    ratios, rescues = [], []
    for e, p in zip(examples, probabilities, strict=True):
        if e.kind != "in" or len(p) < 2:
            continue
        order = np.argsort(-p, kind="stable")
        ratios.append(p[order[1]] / max(p[order[0]], 1e-9))
        rescues.append(bool(e.labels[order[1]]) and not bool(e.labels[order[0]]))
    found = lowest_threshold(np.array(ratios), np.array(rescues), np.ones(len(ratios)), SECOND_PRECISION)
    return 1.0 if math.isinf(found) else found


def best_holds(example: Example, probabilities: np.ndarray) -> bool:
    """Whether the candidate scored best holds the answer."""
    return bool(len(probabilities)) and bool(example.labels[int(np.argmax(probabilities))])


def out_of_fold_report(
    examples: Sequence[Example], probabilities: Sequence[np.ndarray], declined: np.ndarray
) -> dict[str, dict[str, float]]:
    """Per source, language and kind: how often the out-of-fold models decline, and for answerable
    questions how often the best candidate holds the answer."""
    rows: dict[str, list[tuple[bool, bool]]] = {}
    for e, p, no in zip(examples, probabilities, declined, strict=True):
        rows.setdefault(f"{e.source} {e.language} {e.kind}", []).append((bool(no), best_holds(e, p)))
    return {
        key: {
            "n": len(v),
            "declined": round(sum(d for d, _ in v) / len(v), 3),
            "top1": round(sum(t for _, t in v) / len(v), 3),
        }
        for key, v in sorted(rows.items())
    }


def heldout_metrics(model: AnswerModel, folder: Path, work: Path) -> dict[str, dict[str, dict]]:
    """Every held-out public set asked end to end through Engine.ask with ``model``."""
    from index.engine import Engine

    report: dict[str, dict[str, dict]] = {}
    for name in ("xquad-heldout", "cmrc-heldout"):
        found = public.named_set(name, folder)
        engine = Engine(indexed(found, work / name), model=model)
        metrics = ask_public(engine, found.questions, found.english_answers)
        report[name] = {k: v.model_dump() for k, v in metrics.items()}
    return report


def data_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in (public.XQUAD_ZH, public.XQUAD_EN, *public.CMRC):
        digest.update((folder / name).read_bytes())
    for path in own_files():
        digest.update(path.read_bytes())
    if public.XQUAD_KINDS.is_file():
        digest.update(public.XQUAD_KINDS.read_bytes())
    return digest.hexdigest()


def train(folder: Path, work: Path, output: Path = MODEL_FILE, say: Callable[[str], None] = print) -> AnswerModel:
    started = time.perf_counter()
    examples = examples_of(folder, work, say)
    probabilities, scorer = out_of_fold(examples)
    gate_x = np.stack([gate_vector(p, e.matrix, e.evidence) for e, p in zip(examples, probabilities, strict=True)])
    answerable = np.array([e.kind == "in" for e in examples])
    languages = np.array([e.language for e in examples])
    weights = question_weights(examples, lambda e: ("zh" if e.language == "zh" else "en", e.kind))
    groups = np.array([fold_of(e.group) for e in examples])
    kinds = np.array([e.kind for e in examples])

    def gate_of(against: str) -> tuple[Trees, np.ndarray]:
        """A gate trained on answerable questions and those of kind ``against``, and its out-of-fold
        probabilities for every example."""
        used = answerable | (kinds == against)
        oof = np.zeros(len(examples))
        for fold in range(FOLDS):
            inside = used & (groups != fold)
            oof[groups == fold] = _gate(gate_x[inside], answerable[inside], weights[inside]).probability(
                gate_x[groups == fold]
            )
        return _gate(gate_x[used], answerable[used], weights[used]), oof

    gate, off_oof = gate_of("off")
    near_gate, near_oof = gate_of("near")

    views = np.array([e.view for e in examples])
    thresholds = thresholds_per_view(off_oof, answerable, languages, OFF_FALSE_ABSTENTION, weights, views)
    off_at = thresholds_of(thresholds, languages, views)
    declined = off_oof < off_at
    near = thresholds_per_view(near_oof, answerable, languages, GATE_FALSE_ABSTENTION, weights, views, declined)
    near_at = thresholds_of(near, languages, views)
    declined |= near_oof < near_at
    ratio = second_ratio_for(examples, probabilities)
    extender, extend_threshold, extend_other = fit_extender(examples, probabilities)
    margins = np.array([gate_margin(*four) for four in zip(off_oof, near_oof, off_at, near_at, strict=True)])
    right = answerable & np.array([best_holds(e, p) for e, p in zip(examples, probabilities, strict=True)])
    sources = np.array([e.source for e in examples])
    hedge = hedge_margins_for(margins, right, languages, weights, sources)
    report = out_of_fold_report(examples, probabilities, declined)
    say(
        f"trained: gate thresholds {thresholds}, near-topic {near}, hedge margin {hedge}, second ratio {ratio:.3f},"
        f" extend threshold {extend_threshold:.3f} (other kinds {extend_other})"
        f" ({time.perf_counter() - started:.0f} s)"
    )
    say(json.dumps(report, ensure_ascii=False))
    meta = {
        "command": "python -m index train",
        "seed": SEED,
        "data_sha256": data_digest(folder),
        "examples": len(examples),
        "candidates": int(sum(len(e.matrix) for e in examples)),
        "split": {"seed": public.SPLIT_SEED, "held_out_share": public.HELD_OUT_SHARE},
        "source_share": SOURCE_SHARE,
        "out_of_fold": report,
    }
    model = AnswerModel(
        scorer, gate, thresholds, ratio, meta, near_gate, near, hedge, extender, extend_threshold, extend_other
    )
    meta["heldout"] = heldout_metrics(model, folder, work)
    save_model(model, output)
    say(f"wrote {output} ({time.perf_counter() - started:.0f} s)")
    say(json.dumps(meta["heldout"], ensure_ascii=False))
    return model
