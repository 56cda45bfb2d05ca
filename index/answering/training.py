"""`python -m index train`: the answer model learned from public data, reproducibly.

1. Examples: the public sets' training articles as corpora (XQuAD by the protocol, the last
   paragraph left out, and two more corpora leaving out other paragraphs; CMRC in groups of
   public.CMRC_GROUP), each indexed and every question run through the engine's own steps up to the
   candidates' features (Engine.examine). A candidate is positive when it holds a gold answer.
   Off-topic questions: another group's questions, and XQuAD's (both languages) against CMRC.
   Our own development questions (tests/eval/dev_*.jsonl, never the holdout sets) over our corpus
   are a third source: another kind of article and of asker. Each source weighs SOURCE_SHARE.
   Examined questions are kept under the work folder, keyed by the code that examined them.
2. The scorer: gradient-boosted trees on the candidates of answerable questions.
3. The gate: trees on question-level features computed with out-of-fold scorer probabilities (as
   a new question would see them), answerable against near- and off-topic questions; its
   threshold is chosen on out-of-fold gate probabilities for a false-abstention rate of
   GATE_FALSE_ABSTENTION in each language.
4. The held-out sets (never trained on) are asked end to end through Engine.ask; their metrics,
   the data's hash, the seed and this command are written into the model file.

scikit-learn is needed here only (it comes with sentence-transformers); the answer path reads the
trees with numpy (model.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from index import public
from index.answering.decide import GATE_FEATURES, gate_vector
from index.answering.features import CANDIDATE_FEATURES
from index.answering.model import MODEL_FILE, AnswerModel, Trees, from_sklearn, save_model
from index.answering.understand import understand
from index.config import IndexSettings, load_settings
from index.evaluation import PublicMetrics, gold_spans, public_metrics, public_row, squeezed
from index.text import QuestionError

log = logging.getLogger(__name__)
SEED = 0
FOLDS = 3
REPO = Path(__file__).resolve().parents[2]
GATE_FALSE_ABSTENTION = 0.03  # the target on training data; held-out sets must stay under 0.05
SECOND_PRECISION = 0.25  # a second sentence joins where such seconds rescue at least one answer in four they join
CMRC_TRAIN_GROUPS = 9
# how much each source of questions weighs in training, in all: our own development questions are
# another kind of article and question (an opinionated essay, colloquial askers), the public sets many
# articles of one kind
SOURCE_SHARE = {"xquad": 0.35, "cmrc": 0.35, "own": 0.30}
LEAVE_OUT_VARIANTS = (-1, 0, 2)  # XQuAD training corpora: which paragraph of each article is left out
SCORER_TREES = dict(n_estimators=250, max_depth=4, learning_rate=0.08, subsample=0.8)
GATE_TREES = dict(n_estimators=200, max_depth=3, learning_rate=0.08, subsample=0.8)


@dataclass
class Example:
    """One question of a training corpus, examined."""

    id: str
    group: str  # the article it is about: folds never split one
    source: str  # xquad, cmrc, own
    language: str
    kind: str  # in / near / off
    matrix: np.ndarray  # candidate features
    labels: np.ndarray  # which candidates hold a gold answer
    evidence: np.ndarray  # retrieval evidence (decide.EVIDENCE)


# what examining a question depends on: a change to any of these files examines the questions anew
_EXAMINED_BY = ("answering/*.py", "*.py")
_NOT_EXAMINING = {
    "training.py",
    "model.py",
    "cli.py",
    "commands.py",
    "evaluation.py",
    "generate.py",
    "llm_answer.py",
    "llm_outcome.py",
    "llm_prompt.py",
    "llm_verify.py",
    "llm_citations.py",
}


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """Of the code as this process first read it (an edit during a run must not key its results)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for pattern in _EXAMINED_BY:
        for path in sorted(root.glob(pattern)):
            if path.name not in _NOT_EXAMINING:
                digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


def collect(
    public_set: public.PublicSet, work: Path, source: str, settings: IndexSettings | None = None
) -> list[Example]:
    """Index the set's corpus under ``work`` and examine every question (kept in ``work``: the same
    set examined by the same code is read back)."""
    from index.build import build_index
    from index.engine import Engine

    folder = work / re.sub(r"\W+", "-", public_set.name.split("@")[0])  # variants share one index: embeddings reused
    key = hashlib.sha256(
        pickle.dumps((_code_digest(), public_set.name, public_set.questions, sorted(public_set.documents.items())))
    ).hexdigest()[:16]
    name = re.sub(r"\W+", "-", public_set.name)
    cache = folder / f"examples-{name}-{key}.pkl"
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    folder.mkdir(parents=True, exist_ok=True)
    if settings is None:
        settings = indexed(public_set, folder)
    else:
        build_index(settings, progress=False)
    engine = Engine(settings)
    snapshot = engine.snapshot
    stored = snapshot.stored
    examples = []
    for question in public_set.questions:
        try:
            query = understand(question.q)
        except QuestionError:
            continue
        examined = engine.examine(snapshot, query, settings.top_k, "hybrid")
        gold = gold_spans(question.gold)
        texts = [squeezed(stored.sentence_text(stored.sentences[c.sentence])) for c in examined.candidates]
        labels = np.array([any(g in t for g in gold) for t in texts], dtype=bool)
        group = question.article if source != "own" else f"own/{question.id}"
        examples.append(
            Example(
                question.id, group, source, query.language, question.kind, examined.matrix, labels, examined.evidence
            )
        )
    cache.write_bytes(pickle.dumps(examples))
    return examples


def training_sets(folder: Path) -> list[public.PublicSet]:
    zh = public.load_squad(folder / public.XQUAD_ZH)
    english = public.questions_by_id(folder / public.XQUAD_EN)
    xquad = public.split(zh, "train")
    sets = [
        public.protocol_set(f"train-xquad@leave{leave}", xquad, english, leave_out=leave)
        for leave in LEAVE_OUT_VARIANTS
    ]
    cmrc = public.split(public.cmrc_articles(folder), "train")
    groups = [cmrc[i : i + public.CMRC_GROUP] for i in range(0, len(cmrc), public.CMRC_GROUP)][:CMRC_TRAIN_GROUPS]
    for i, group in enumerate(groups):
        others = groups[(i + 1) % len(groups)][:10]
        foreign = xquad[i % len(xquad) :: len(groups)]  # XQuAD questions, both languages, asked of CMRC
        off = public.protocol_set("off", others, leave_out=None).questions
        off += [q for q in public.protocol_set("off", foreign, english, leave_out=None).questions]
        found = public.protocol_set(f"train-cmrc-{i}", group, leave_out=None)
        found.questions += [public.PublicQuestion(q.id, q.lang, q.q, q.gold, "off", q.article) for q in off]
        sets.append(found)
    return sets


OWN_SETS = "dev_*.jsonl"  # our development questions (tests/eval); the holdout sets are never trained on
_KINDS = {"in": "in", "hard_out": "near", "out": "off"}


def own_set(repo: Path) -> public.PublicSet | None:
    """Our development questions as a set over our own corpus, for the gate ("plus our off-topic
    lists", issue 21): an answerable one's gold is its facts. None outside a checkout."""
    from index.evaluation import load_questions

    files = sorted((repo / "tests" / "eval").glob(OWN_SETS))
    if not files:
        return None
    found = public.PublicSet("own-dev")
    for path in files:
        for q in load_questions(path):
            if q.context is None:  # a follow-up's context is no public-set question's
                found.questions.append(public.PublicQuestion(q.id, q.lang, q.q, tuple(q.facts), _KINDS[q.type], "own"))
    return found


def _fit(x: np.ndarray, y: np.ndarray, weights: np.ndarray | None, params: dict) -> object:
    from sklearn.ensemble import GradientBoostingClassifier

    model = GradientBoostingClassifier(random_state=SEED, **params)
    model.fit(x, y, sample_weight=weights)
    return model


def _question_weights(examples: Sequence[Example], by: Callable[[Example], tuple]) -> np.ndarray:
    """A weight per example: each source weighs its SOURCE_SHARE in all, shared evenly among the
    groups ``by`` makes of its examples, and within a group among its examples."""
    groups: dict[tuple, int] = {}
    for e in examples:
        groups[(e.source, *by(e))] = groups.get((e.source, *by(e)), 0) + 1
    per_source: dict[str, int] = {}
    for source, *_ in groups:
        per_source[source] = per_source.get(source, 0) + 1
    shares = {source: SOURCE_SHARE.get(source, 0.0) for source in per_source}
    total = sum(shares.values()) or 1.0
    return np.array(
        [1000.0 * shares[e.source] / total / per_source[e.source] / groups[(e.source, *by(e))] for e in examples]
    )


def _scorer_rows(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    usable = [e for e in examples if e.kind == "in" and e.labels.any()]
    weights = _question_weights(usable, lambda e: (e.language,))
    return (
        np.concatenate([e.matrix for e in usable]),
        np.concatenate([e.labels for e in usable]),
        np.concatenate([np.full(len(e.labels), w / len(e.labels)) for e, w in zip(usable, weights, strict=True)]),
    )


def _fold(group: str) -> int:
    return int(hashlib.sha256(f"{SEED}\n{group}".encode()).hexdigest(), 16) % FOLDS


def out_of_fold(examples: Sequence[Example]) -> tuple[list[np.ndarray], Trees]:
    """Each example's scorer probabilities from a scorer that never saw its article, and the
    scorer trained on all."""
    probabilities: list[np.ndarray] = [np.zeros(0)] * len(examples)
    for fold in range(FOLDS):
        inside = [e for e in examples if _fold(e.group) != fold]
        trees = from_sklearn(_fit(*_scorer_rows(inside), SCORER_TREES), CANDIDATE_FEATURES)
        for i, example in enumerate(examples):
            if _fold(example.group) == fold:
                probabilities[i] = trees.probability(example.matrix)
    return probabilities, from_sklearn(_fit(*_scorer_rows(examples), SCORER_TREES), CANDIDATE_FEATURES)


def thresholds_for(
    probabilities: np.ndarray, answerable: np.ndarray, languages: np.ndarray, rate: float, weights: np.ndarray
) -> dict[str, float]:
    """Per language (zh, and en for all others), the highest threshold whose weighted false-abstention
    rate is at most ``rate``."""
    found = {}
    for language in ("zh", "en"):
        mine = answerable & ((languages == "zh") == (language == "zh"))
        order = np.argsort(probabilities[mine], kind="stable")
        scores, shares = probabilities[mine][order], np.cumsum(weights[mine][order])
        if not len(scores):
            found[language] = 0.5
            continue
        below = shares / shares[-1] <= rate  # declining everything up to here costs at most ``rate``
        found[language] = float(scores[int(np.count_nonzero(below))]) if below.any() else float(scores[0])
    return found


def second_ratio_for(examples: Sequence[Example], probabilities: Sequence[np.ndarray]) -> float:
    """The lowest ratio (second's probability / best's) at which a second sentence still holds the
    answer, when the best doesn't, for SECOND_PRECISION of the questions it joins."""
    pairs = []
    for e, p in zip(examples, probabilities, strict=True):
        if e.kind != "in" or len(p) < 2:
            continue
        order = np.argsort(-p, kind="stable")
        ratio = p[order[1]] / max(p[order[0]], 1e-9)
        pairs.append((ratio, bool(e.labels[order[1]]) and not bool(e.labels[order[0]])))
    pairs.sort(reverse=True)
    best, helped = 1.0, 0
    for n, (ratio, helps) in enumerate(pairs, 1):
        helped += helps
        last_of_ties = n == len(pairs) or pairs[n][0] != ratio
        if last_of_ties and helped / n >= SECOND_PRECISION:
            best = ratio
    return float(best)


def out_of_fold_report(
    examples: Sequence[Example], probabilities: Sequence[np.ndarray], gate: np.ndarray, thresholds: dict[str, float]
) -> dict[str, dict[str, float]]:
    """Per source, language and kind: how often the out-of-fold models decline, and for answerable
    questions how often the best candidate holds the answer."""
    rows: dict[str, list[tuple[bool, bool]]] = {}
    for e, p, g in zip(examples, probabilities, gate, strict=True):
        declined = g < thresholds["zh" if e.language == "zh" else "en"]
        top = bool(len(p)) and bool(e.labels[int(np.argmax(p))])
        rows.setdefault(f"{e.source} {e.language} {e.kind}", []).append((declined, top))
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
        report[name] = {k: v.model_dump() for k, v in ask_public(engine, found.questions).items()}
    return report


def indexed(public_set: public.PublicSet, folder: Path, base: IndexSettings | None = None) -> IndexSettings:
    """``base`` settings (the defaults if None) for the set's corpus, written to ``folder``/corpus and
    indexed in ``folder``/index (texts already embedded there are not embedded again)."""
    from index.build import build_index

    settings = (base or load_settings()).model_copy(
        update={"corpus_dir": public.write_corpus(public_set, folder / "corpus"), "index_dir": folder / "index"}
    )
    build_index(settings, progress=False)
    return settings


def ask_public(engine: object, questions: Sequence[public.PublicQuestion]) -> dict[str, PublicMetrics]:
    """Per-language metrics of the public protocol for these questions, asked of ``engine``."""
    rows: dict[str, list[tuple[str, dict[str, bool]]]] = {}
    for question in questions:
        try:
            result = engine.ask(question.q)  # type: ignore[attr-defined]
        except QuestionError:
            continue
        rows.setdefault(question.lang, []).append((question.kind, public_row(question.gold, result)))
    return {lang: public_metrics(r) for lang, r in sorted(rows.items())}


def data_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in (public.XQUAD_ZH, public.XQUAD_EN, *public.CMRC):
        digest.update((folder / name).read_bytes())
    for path in sorted((REPO / "tests" / "eval").glob(OWN_SETS)):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def examples_of(folder: Path, work: Path, say: Callable[[str], None]) -> list[Example]:
    started = time.perf_counter()
    examples: list[Example] = []
    for found in training_sets(folder):
        examples += collect(found, work, "xquad" if "xquad" in found.name else "cmrc")
        say(f"examined {found.name}: {len(found.questions)} questions ({time.perf_counter() - started:.0f} s)")
    own = own_set(REPO)
    if own is not None:
        settings = load_settings(corpus_dir=REPO / "corpus", index_dir=work / "own" / "index")
        examples += collect(own, work, "own", settings)
        say(f"examined our development questions: {len(own.questions)}")
    return [e for e in examples if len(e.matrix)]


def train(folder: Path, work: Path, output: Path = MODEL_FILE, say: Callable[[str], None] = print) -> AnswerModel:
    _code_digest()
    started = time.perf_counter()
    examples = examples_of(folder, work, say)
    probabilities, scorer = out_of_fold(examples)
    gate_x = np.stack([gate_vector(p, e.matrix, e.evidence) for e, p in zip(examples, probabilities, strict=True)])
    answerable = np.array([e.kind == "in" for e in examples])
    languages = np.array([e.language for e in examples])
    weights = _question_weights(examples, lambda e: ("zh" if e.language == "zh" else "en", e.kind))
    groups = np.array([_fold(e.group) for e in examples])
    gate_oof = np.zeros(len(examples))
    for fold in range(FOLDS):
        inside = groups != fold
        trees = from_sklearn(_fit(gate_x[inside], answerable[inside], weights[inside], GATE_TREES), GATE_FEATURES)
        gate_oof[~inside] = trees.probability(gate_x[~inside])
    gate = from_sklearn(_fit(gate_x, answerable, weights, GATE_TREES), GATE_FEATURES)
    thresholds = thresholds_for(gate_oof, answerable, languages, GATE_FALSE_ABSTENTION, weights)
    ratio = second_ratio_for(examples, probabilities)
    report = out_of_fold_report(examples, probabilities, gate_oof, thresholds)
    say(f"trained: gate thresholds {thresholds}, second ratio {ratio:.3f} ({time.perf_counter() - started:.0f} s)")
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
    model = AnswerModel(scorer, gate, thresholds, ratio, meta)
    meta["heldout"] = heldout_metrics(model, folder, work)
    save_model(model, output)
    say(f"wrote {output} ({time.perf_counter() - started:.0f} s)")
    say(json.dumps(meta["heldout"], ensure_ascii=False))
    return model
