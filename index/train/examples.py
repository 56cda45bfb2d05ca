"""The training examples of `python -m index train`: the public sets' training articles as corpora
(XQuAD by the protocol, the last paragraph left out, and two more corpora leaving out other
paragraphs; CMRC in groups of public.CMRC_GROUP), each indexed and every question run through the
engine's own steps up to the candidates' features (Engine.examine). A candidate is positive when it
holds a gold answer. Off-topic questions: another group's questions, and XQuAD's (both languages)
against CMRC. Our own development questions (tests/eval/dev_*.jsonl and the follow-ups'
followups*_dev.jsonl, asked as a thread asks them; never the holdout sets) over our corpus are a
third source. Examined questions are kept under the work folder, keyed by the code
that examined them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from index.answer.understand import understand
from index.config import IndexSettings, load_settings
from index.evaluate import public
from index.evaluate.protocol import gold_spans, indexed, squeezed
from index.text.language import QuestionError

if TYPE_CHECKING:
    from index.answer.understand import Query
    from index.engine import Engine

REPO = Path(__file__).resolve().parents[2]
LEAVE_OUT_VARIANTS = (-1, 0, 2)  # XQuAD training corpora: which paragraph of each article is left out

CMRC_TRAIN_GROUPS = 9


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
    view: str = "glossed"  # the corpus's English: word-for-word glosses, or verified renderings
    refers: tuple[bool, ...] = ()  # whether each candidate opens with a pronoun (the extend step reads it)
    kinds: tuple[float, ...] = ()  # the question's learned kind shares (the extend step reads them)


# what examining a question depends on: a change to any of these files examines the questions anew
_EXAMINED_BY = (
    "*.py", "text/*.py", "english/*.py", "build/*.py", "retrieve/*.py", "answer/*.py", "train/examples.py",
    "evaluate/public.py", "data/question_kinds.json",
)  # fmt: skip
_NOT_EXAMINING = {"answer/model.py"}


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """Of the code as this process first read it (an edit during a run must not key its results)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for pattern in _EXAMINED_BY:
        for path in sorted(root.glob(pattern)):
            name = path.relative_to(root).as_posix()
            if name not in _NOT_EXAMINING:
                digest.update(name.encode() + path.read_bytes())
    return digest.hexdigest()


def _folder_digest(folder: Path) -> str:
    """Of a corpus given as a folder (our article, its metadata and renderings beside it): a set's
    documents key its examples, and this folder's files are ours."""
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _kept(work: Path, public_set: public.PublicSet, kind: str, identity: tuple) -> tuple[Path, Path]:
    """The set's folder under ``work`` (leave-out variants share one index: embeddings reused) and the
    file its examined questions of ``kind`` are kept in, keyed by the code, ``identity`` and the corpus."""
    folder = work / re.sub(r"\W+", "-", public_set.name.split("@")[0])
    renderings = public_set.renderings.read_bytes() if public_set.renderings is not None else b""
    corpus = (sorted(public_set.documents.items()), hashlib.sha256(renderings).hexdigest())
    key = hashlib.sha256(pickle.dumps((_code_digest(), *identity, corpus))).hexdigest()
    name = re.sub(r"\W+", "-", public_set.name)
    return folder, folder / f"{kind}-{name}-{key[:16]}.pkl"


def _engine(public_set: public.PublicSet, folder: Path, settings: IndexSettings | None) -> Engine:
    """An engine over the set's corpus, indexed (or brought up to date) in ``folder``, or in
    ``settings``' index when given; leave-out variants share the folder and its embeddings."""
    from index.build.builder import build_index
    from index.engine import Engine

    folder.mkdir(parents=True, exist_ok=True)
    if settings is None:
        settings = indexed(public_set, folder)
    else:
        build_index(settings, progress=False)
    return Engine(settings)


def collect(
    public_set: public.PublicSet, work: Path, source: str, settings: IndexSettings | None = None
) -> list[Example]:
    """Index the set's corpus under ``work`` and examine every question (kept in ``work``: the same
    set examined by the same code is read back)."""
    identity = (public_set.name, public_set.questions, _folder_digest(settings.corpus_dir) if settings else "")
    folder, cache = _kept(work, public_set, "examples", identity)
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    engine = _engine(public_set, folder, settings)
    settings = engine.settings
    snapshot = engine.snapshot
    stored = snapshot.stored
    examples = []
    for question in public_set.questions:
        try:
            if question.context is None:
                query = understand(question.q)
            else:  # a follow-up, as a thread asks it
                query = _recalled(engine, engine.understand(stored, question.q, question.context), settings.top_k)
        except QuestionError:
            continue
        examined = engine.examine(snapshot, query, settings.top_k, "hybrid")
        gold = gold_spans(question.gold)
        texts = [squeezed(stored.sentence_text(stored.sentences[c.sentence])) for c in examined.candidates]
        labels = np.array([any(g in t for g in gold) for t in texts], dtype=bool)
        group = question.article if source != "own" else f"own/{question.id}"
        examples.append(
            Example(
                question.id,
                group,
                source,
                query.language,
                question.kind,
                examined.matrix,
                labels,
                examined.evidence,
                examined.view,
                examined.refers,
                tuple(float(v) for v in examined.kinds) if examined.kinds is not None else (),
            )
        )
    cache.write_bytes(pickle.dumps(examples))
    return examples


def _recalled(engine: Engine, query: Query, k: int) -> Query:
    """A follow-up that says "that" with what was said before it, as training reads it: the sentence
    retrieval ranks best for the question before. The engine takes the answer's sentences, which
    only an answer model can choose: the committed one would make each training depend on the last."""
    snapshot = engine.snapshot
    stored = snapshot.stored
    previous = engine.question_before(stored, query)
    if previous is None:
        return query
    scores = engine.examine(snapshot, previous, k, "hybrid", describe=False).outcome.sentence_scores
    if not scores:
        return query
    best = max(scores, key=lambda s: (scores[s], -s))
    return dataclasses.replace(query, said=(stored.sentence_text(stored.sentences[best]),))


def collect_background(
    public_set: public.PublicSet, work: Path, settings: IndexSettings | None = None
) -> list[Example]:
    """The background's generic questions asked of the set's corpus, as off-topic examples: what a
    question about something else looks like on this kind of corpus (the public sets have no such
    questions for XQuAD's articles). Each is examined with itself left out of the background, as a
    new question would be; all of one question's examples share a fold group."""
    from index.build.background import background_digest, background_questions, compute_background
    from index.engine import Snapshot

    identity = (background_digest(), public_set.name, _folder_digest(settings.corpus_dir) if settings else "")
    folder, cache = _kept(work, public_set, "background", identity)
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    engine = _engine(public_set, folder, settings)
    settings = engine.settings
    snapshot = engine.snapshot
    stored = snapshot.stored
    background, chunk_vectors = stored.background, stored.chunk_vectors()
    examples = []
    for i, text in enumerate(background_questions()):
        try:
            query = understand(text)
        except QuestionError:
            continue
        # the whole background made again without it: its vectors, best cosines and the passages' bias
        rest = [j for j in range(len(background.vectors)) if j != i]
        without = compute_background(
            background.vectors[rest],
            chunk_vectors,
            stored.sentence_vectors,
            languages=[background.languages[j] for j in rest],
        )
        alone = Snapshot(dataclasses.replace(stored, background=without), snapshot.retriever)
        examined = engine.examine(alone, query, settings.top_k, "hybrid")
        labels = np.zeros(len(examined.candidates), dtype=bool)
        examples.append(
            Example(f"{public_set.name}:background-{i}", f"background/{i}", "background", query.language, "off",
                    examined.matrix, labels, examined.evidence, examined.view)
        )  # fmt: skip
    cache.write_bytes(pickle.dumps(examples))
    return examples


def training_sets(folder: Path) -> list[public.PublicSet]:
    zh = public.load_squad(folder / public.XQUAD_ZH)
    english = public.questions_by_id(folder / public.XQUAD_EN)
    # with the questions of other kinds written for them: people ask why and how, not only facts
    xquad = public.with_kind_questions(public.split(zh, "train"), english, {})
    sets = [
        public.protocol_set(f"train-xquad@leave{leave}", xquad, english, leave_out=leave)
        for leave in LEAVE_OUT_VARIANTS
    ]
    # the same corpora as an enriched corpus reads them (the English view from verified renderings):
    # the model learns both, as users' corpora come either way
    if public.XQUAD_RENDERINGS.is_file():
        for leave in LEAVE_OUT_VARIANTS:
            rendered = public.protocol_set(f"train-xquad-rendered@leave{leave}", xquad, english, leave_out=leave)
            rendered.renderings = public.XQUAD_RENDERINGS
            sets.append(rendered)
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


# our development questions and follow-ups (tests/eval); the holdout sets are never trained on
OWN_SETS = ("dev_*.jsonl", "followups*_dev.jsonl")


def own_files(repo: Path = REPO) -> list[Path]:
    """Our development question files (none outside a checkout)."""
    return sorted(path for pattern in OWN_SETS for path in (repo / "tests" / "eval").glob(pattern))


_KINDS = {"in": "in", "hard_out": "near", "out": "off"}


def own_set(repo: Path) -> public.PublicSet | None:
    """Our development questions as a set over our own corpus, for the gate ("plus our off-topic
    lists", issue 21): an answerable one's gold is its facts. None outside a checkout."""
    from index.evaluate.metrics import load_questions

    files = own_files(repo)
    if not files:
        return None
    found = public.PublicSet("own-dev")
    for path in files:
        for q in load_questions(path):
            found.questions.append(
                public.PublicQuestion(q.id, q.lang, q.q, tuple(q.facts), _KINDS[q.type], "own", q.context)
            )
    return found


def examples_of(folder: Path, work: Path, say: Callable[[str], None]) -> list[Example]:
    _code_digest()  # the code as it is now keys the examples, whatever is edited while they are made
    started = time.perf_counter()
    examples: list[Example] = []
    for found in training_sets(folder):
        examples += collect(found, work, "xquad" if "xquad" in found.name else "cmrc")
        examples += collect_background(found, work)
        say(f"examined {found.name}: {len(found.questions)} questions ({time.perf_counter() - started:.0f} s)")
    own = own_set(REPO)
    if own is not None:
        settings = load_settings(corpus_dir=REPO / "corpus", index_dir=work / "own" / "index")
        examples += collect(own, work, "own", settings)
        examples += collect_background(own, work, settings)
        say(f"examined our development questions: {len(own.questions)}")
    return [e for e in examples if len(e.matrix)]
