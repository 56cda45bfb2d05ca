"""`python -m index train --kinds`: the question-kind model (index/answer/question_kind.py), learned
from questions labelled by kind: index/data/kind_questions.jsonl (everyday topics, no article's),
our development sets (tests/eval/dev_*.jsonl: a question's `kind`, else a fact) and the public sets'
training questions (facts, PUBLIC_FACTS per language). The L2 penalty is chosen by cross-validation
over the labelled questions; the holdout sets are never read.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from index.answer.about import is_meta_question, is_overview_question
from index.answer.question_kind import ABOUT_FILE, ABOUT_KINDS, KINDS, KINDS_FILE, KindModel, grams, save_kinds
from index.answer.understand import understand
from index.build.builder import build_index
from index.config import load_settings
from index.evaluate import public
from index.evaluate.metrics import load_questions
from index.text.language import QuestionError
from index.train.examples import REPO, own_files

KIND_QUESTIONS = Path(__file__).resolve().parents[1] / "data" / "kind_questions.jsonl"
ABOUT_QUESTIONS = KIND_QUESTIONS.with_name("about_questions.jsonl")
PUBLIC_FACTS = 300  # per public set and language: all facts; more would drown the kinds the public sets lack
MIN_COUNT = 2  # a gram in fewer training questions is no feature
PENALTIES = (1e-4, 1e-3, 1e-2)  # L2 penalties cross-validated
FOLDS = 5
STEPS = 300


def labelled(folder: Path) -> list[tuple[str, str]]:
    """(question, kind) of every labelled training question."""
    found = _rows(KIND_QUESTIONS)
    for path in own_files():
        for q in load_questions(path):
            if q.type == "in" and q.context is None:
                found.append((q.q, q.kind if q.kind in KINDS else "fact"))
    return found + _public(folder, "fact")


def about_labelled(folder: Path) -> list[tuple[str, str]]:
    """(question, kind) for the about model: questions about documents themselves and about what they
    discuss (index/data/about_questions.jsonl, on other documents), and real questions as content: the
    public sets' and our dev sets' (those the patterns of answer/about.py take, as they take them)."""
    found = _rows(ABOUT_QUESTIONS)
    for path in own_files():
        for q in load_questions(path):
            if q.type == "in" and q.context is None:
                kind = "meta" if is_meta_question(q.q) else "overview" if is_overview_question(q.q) else "content"
                found.append((q.q, kind))
    return found + _public(folder, "content")


def _rows(path: Path) -> list[tuple[str, str]]:
    return [(row["q"], row["kind"]) for row in map(json.loads, path.read_text(encoding="utf-8").splitlines())]


def _public(folder: Path, kind: str) -> list[tuple[str, str]]:
    """PUBLIC_FACTS training questions per public set and language, labelled ``kind``."""
    found = []
    for name in ("xquad-train", "cmrc-train"):
        questions = [q for q in public.named_set(name, folder).questions if q.kind == "in"]
        for language in ("zh", "en"):
            mine = sorted((q for q in questions if q.lang == language), key=lambda q: _digest(q.id))
            found += [(q.q, kind) for q in mine[:PUBLIC_FACTS]]
    return found


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def fit(rows: np.ndarray, labels: np.ndarray, penalty: float, kinds: int = len(KINDS)) -> tuple[np.ndarray, np.ndarray]:
    """Softmax regression by full-batch Adam, each kind weighing as much in all (the facts are many)."""
    n, d = rows.shape
    counts = np.bincount(labels, minlength=kinds).astype(float)
    weight = (n / (kinds * np.maximum(counts, 1)))[labels] / n
    target = np.eye(kinds)[labels]
    w, b = np.zeros((d, kinds)), np.zeros(kinds)
    moments = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    for step in range(1, STEPS + 1):
        logits = rows @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        error = (p - target) * weight[:, None]
        grads = (rows.T @ error + penalty * w, error.sum(axis=0))
        for i, (param, grad) in enumerate(zip((w, b), grads, strict=True)):
            m, v = moments[2 * i], moments[2 * i + 1]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            param -= 0.05 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w.astype(np.float32), b.astype(np.float32)


def vocabulary(texts: Sequence[str]) -> tuple[str, ...]:
    counts = Counter(g for text in texts for g in grams(text))
    return tuple(sorted(g for g, n in counts.items() if n >= MIN_COUNT))


def train_kinds(folder: Path, work: Path, output: Path = KINDS_FILE, say: Callable[[str], None] = print) -> KindModel:
    return _train(labelled(folder), KINDS, "python -m index train --kinds", work, output, say)


def train_about(folder: Path, work: Path, output: Path = ABOUT_FILE, say: Callable[[str], None] = print) -> KindModel:
    return _train(about_labelled(folder), ABOUT_KINDS, "python -m index train --about", work, output, say)


def _train(
    questions: list[tuple[str, str]],
    kinds: tuple[str, ...],
    command: str,
    work: Path,
    output: Path,
    say: Callable[[str], None],
) -> KindModel:
    from index.engine import Engine

    started = time.perf_counter()
    settings = load_settings(corpus_dir=REPO / "corpus", index_dir=work / "own" / "index")
    build_index(settings, progress=False)
    engine = Engine(settings)
    retriever = engine.snapshot.retriever
    texts, labels, vectors = [], [], []
    for text, kind in questions:
        try:
            query = understand(text)
        except QuestionError:
            continue
        texts.append(text)
        labels.append(kinds.index(kind))
        vectors.append(engine.vectors.of(query, retriever)[1])
    y = np.array(labels)
    folds = np.array([int(_digest(t), 16) % FOLDS for t in texts])
    scores = {}
    for penalty in PENALTIES:
        right = np.zeros(len(kinds))
        for fold in range(FOLDS):
            inside = folds != fold
            model = _model(texts, vectors, y, inside, penalty, kinds)
            rows = np.stack([model.features(vectors[i], texts[i]) for i in np.flatnonzero(~inside)])
            guessed = model.probabilities(rows).argmax(axis=1)
            for truth, guess in zip(y[~inside], guessed, strict=True):
                right[truth] += truth == guess
        recall = right / np.maximum(np.bincount(y, minlength=len(kinds)), 1)
        scores[penalty] = recall
        shown = ", ".join(f"{k} {r:.2f}" for k, r in zip(kinds, recall, strict=True))
        say(f"penalty {penalty:g}: out-of-fold recall {shown}")
    best = max(PENALTIES, key=lambda p: (scores[p].mean(), -p))
    model = _model(texts, vectors, y, np.ones(len(y), dtype=bool), best, kinds)
    counts = Counter(kinds[i] for i in y)
    meta = {
        "command": command,
        "questions": dict(sorted(counts.items())),
        "penalty": best,
        "out_of_fold_recall": {k: round(float(r), 3) for k, r in zip(kinds, scores[best], strict=True)},
    }
    model = KindModel(model.kinds, model.vocabulary, model.weights, model.bias, meta)
    save_kinds(model, output)
    say(f"wrote {output}: {len(texts)} questions, penalty {best:g} ({time.perf_counter() - started:.0f} s)")
    return model


def _model(
    texts: list[str],
    vectors: list[np.ndarray],
    y: np.ndarray,
    inside: np.ndarray,
    penalty: float,
    kinds: tuple[str, ...],
) -> KindModel:
    chosen = np.flatnonzero(inside)
    words = vocabulary([texts[i] for i in chosen])
    empty = KindModel(kinds, words, np.zeros((0, 0)), np.zeros(0))
    rows = np.stack([empty.features(vectors[i], texts[i]) for i in chosen])
    w, b = fit(rows, y[chosen], penalty, len(kinds))
    return KindModel(kinds, words, w, b)
