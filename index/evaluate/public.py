"""Public question-answering sets (SQuAD-style JSON: CMRC 2018, XQuAD) as corpora and questions.

The protocol the outside checks use (../shared/eval/public/README.md): every article is a document
of one corpus; the last paragraph of each article is left out, and its questions should be declined
(near-topic); English XQuAD questions are asked of the Chinese paragraphs, gold being the Chinese
span of the same id. Splits are fixed by a hash of the article title, so training never sees the
held-out articles whatever the order of the files.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Kind = Literal["in", "near", "off"]
# which share of articles is held out: XQuAD's 36 → 12 (as the outside checks hold out 12 of 48)
HELD_OUT_SHARE = 1 / 3
SPLIT_SEED = "answer-layer-1"
PUBLIC_DIR_ENV = "ARTICLE_PUBLIC_DIR"


@dataclass(frozen=True)
class QA:
    id: str
    question: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Article:
    title: str
    paragraphs: tuple[str, ...]
    questions: tuple[tuple[QA, ...], ...]  # per paragraph


@dataclass(frozen=True)
class PublicQuestion:
    id: str
    lang: str
    q: str
    gold: tuple[str, ...]
    kind: Kind  # in: its paragraph is in the corpus; near: its article's, left out; off: another article's
    article: str
    context: str | None = None  # a follow-up's earlier question(s), one per line (our sets only)


@dataclass
class PublicSet:
    name: str
    documents: dict[str, str] = field(default_factory=dict)  # file name → text
    questions: list[PublicQuestion] = field(default_factory=list)
    english_answers: dict[str, tuple[str, ...]] = field(default_factory=dict)  # English question id → its gold
    renderings: Path | None = None  # the sentences' renderings, written beside the corpus (an enriched corpus)


def public_dir(repo: Path | None = None) -> Path:
    """Where the public sets are: $ARTICLE_PUBLIC_DIR, else ../shared/eval/public beside the repository."""
    if os.environ.get(PUBLIC_DIR_ENV):
        return Path(os.environ[PUBLIC_DIR_ENV])
    root = repo or Path(__file__).resolve().parents[2]
    return root.parent / "shared" / "eval" / "public"


def load_squad(path: Path) -> list[Article]:
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    articles = []
    for item in data:
        paragraphs = tuple(p["context"] for p in item["paragraphs"])
        questions = tuple(
            tuple(
                QA(q["id"], q["question"], tuple(dict.fromkeys(a["text"] for a in q["answers"] if a["text"].strip())))
                for q in p["qas"]
            )
            for p in item["paragraphs"]
        )
        articles.append(Article(item["title"], paragraphs, questions))
    return articles


def questions_by_id(path: Path) -> dict[str, str]:
    return {qa.id: qa.question for a in load_squad(path) for qs in a.questions for qa in qs}


def english_answers_by_id(path: Path) -> dict[str, tuple[str, ...]]:
    """XQuAD's English gold answers, by the id its English questions are asked under (``…-en``)."""
    return {f"{qa.id}-en": qa.answers for a in load_squad(path) for qs in a.questions for qa in qs}


def held_out(title: str, share: float = HELD_OUT_SHARE, seed: str = SPLIT_SEED) -> bool:
    """A fixed, order-independent split: the title's hash decides."""
    digest = hashlib.sha256(f"{seed}\n{title}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < share


def split(articles: Sequence[Article], part: Literal["train", "heldout", "all"]) -> list[Article]:
    if part == "all":
        return list(articles)
    return [a for a in articles if held_out(a.title) == (part == "heldout")]


def document_name(title: str) -> str:
    slug = re.sub(r"[^\w.-]+", "-", title.strip().lower()).strip("-.") or "article"
    return f"{slug}.txt"


def document_text(title: str, paragraphs: Iterable[str], title_line: bool = True) -> str:
    """An article as a corpus document: its title line (unless ``title_line`` is False: bare text, as
    a pasted text or a transcript is), then its paragraphs, a blank line apart."""
    body = "\n\n".join(p.strip() for p in paragraphs) + "\n"
    return f"{title}\n\n{body}" if title_line else body


def protocol_set(
    name: str,
    articles: Sequence[Article],
    english: dict[str, str] | None = None,
    leave_out: int | None = -1,
    off_topic: Sequence[Article] = (),
    languages: Sequence[str] = ("zh", "en"),
    title_line: bool = True,
) -> PublicSet:
    """The corpus and questions of the protocol. ``leave_out``: the paragraph of every article kept
    out of the corpus (-1 the last, as the checks do; None keeps all; a single-paragraph article keeps
    its paragraph). ``english``: question id → English question (XQuAD), asked beside the Chinese one.
    ``off_topic``: articles not in the corpus whose questions are asked too (they should be declined).
    ``title_line``: whether each document opens with its title line."""
    result = PublicSet(name)
    for article in articles:
        count = len(article.paragraphs)
        left = None if leave_out is None or count < 2 else leave_out % count
        kept = [p for i, p in enumerate(article.paragraphs) if i != left]
        result.documents[document_name(article.title)] = document_text(article.title, kept, title_line)
        for i, qas in enumerate(article.questions):
            kind: Kind = "near" if i == left else "in"
            result.questions += _asked(article.title, qas, kind, english, languages)
    for article in off_topic:
        for qas in article.questions:
            result.questions += _asked(article.title, qas, "off", english, languages)
    return result


def _asked(
    title: str, qas: Sequence[QA], kind: Kind, english: dict[str, str] | None, languages: Sequence[str]
) -> list[PublicQuestion]:
    asked = []
    for qa in qas:
        if not qa.answers or not qa.question.strip():
            continue
        if "zh" in languages:
            asked.append(PublicQuestion(f"{qa.id}-zh", "zh", qa.question, qa.answers, kind, title))
        if english is not None and "en" in languages and english.get(qa.id, "").strip():
            asked.append(PublicQuestion(f"{qa.id}-en", "en", english[qa.id], qa.answers, kind, title))
    return asked


def write_corpus(public: PublicSet, folder: Path, renderings: Path | None = None) -> Path:
    """The set's documents in ``folder`` (made or emptied of other .txt files), with ``renderings``
    beside them as the corpus's sidecar when given (else none); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    sidecar = folder / RENDERINGS_SIDECAR
    if renderings is not None and renderings.is_file():
        if not sidecar.is_file() or sidecar.read_bytes() != renderings.read_bytes():
            sidecar.write_bytes(renderings.read_bytes())
    else:
        sidecar.unlink(missing_ok=True)
    for stale in folder.glob("*.txt"):
        if stale.name not in public.documents:
            stale.unlink()
    for name, text in public.documents.items():
        path = folder / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    return folder


# -- the named sets of `python -m index eval --public NAME` -------------------------------------------

XQUAD_ZH = "xquad_dev.zh.json"
# every sentence of XQuAD's 36 Chinese articles rendered in English by the local model, checked
# (python -m index enrich --public xquad): what an enriched corpus of these articles reads
XQUAD_RENDERINGS = Path(__file__).resolve().parents[1] / "data" / "xquad_renderings.jsonl"
RENDERINGS_SIDECAR = "public.renderings.jsonl"
XQUAD_EN = "xquad_dev.en.json"
# questions of the other kinds people ask (reason, method, meaning, comparison, list, opinion) about
# XQuAD's 36 articles, each in Chinese and English, written for them (XQuAD's own are factoid)
XQUAD_KINDS = Path(__file__).resolve().parents[1] / "data" / "xquad_kinds.jsonl"
CMRC = ("cmrc2018_dev.json", "cmrc2018_trial.json")
CMRC_GROUP = 60  # CMRC articles are one paragraph each: a corpus of this many, as big as 12 XQuAD articles
PUBLIC_SETS = (
    "xquad-heldout", "xquad-train", "xquad-dev", "xquad-kinds-heldout", "xquad-kinds-train",
    "cmrc-heldout", "cmrc-train",
)  # fmt: skip


def named_set(name: str, folder: Path | None = None, title_line: bool = True, rendered: bool = False) -> PublicSet:
    """``xquad-heldout`` (the 12 articles training never sees), ``xquad-train``, ``xquad-dev`` (all 36);
    ``cmrc-heldout`` / ``cmrc-train``: CMRC articles in corpora of CMRC_GROUP, the first group of
    each split, with the next group's questions as off-topic ones. ``xquad-kinds-heldout`` /
    ``xquad-kinds-train``: XQuAD's corpora asked the questions of XQUAD_KINDS instead. ``title_line``:
    False writes every document as bare text (its name stays the title's). ``rendered``: XQuAD's corpus as enriched (the
    package's renderings of its sentences beside it)."""
    folder = folder or public_dir()
    if name not in PUBLIC_SETS:
        raise ValueError(f"unknown public set {name!r}; one of: {', '.join(PUBLIC_SETS)}")
    missing = [f for f in (XQUAD_ZH, XQUAD_EN, *CMRC) if not (folder / f).is_file()]
    if missing:
        raise FileNotFoundError(f"public sets not found in {folder} (set {PUBLIC_DIR_ENV}): {', '.join(missing)}")
    if name.startswith("xquad"):
        part = name.removeprefix("xquad-").removeprefix("kinds-").replace("dev", "all")
        articles = split(load_squad(folder / XQUAD_ZH), part)  # type: ignore[arg-type]
        english, answers = questions_by_id(folder / XQUAD_EN), english_answers_by_id(folder / XQUAD_EN)
        if "-kinds-" in name:
            articles = with_kind_questions(articles, english, answers, only=True)
        found = protocol_set(name, articles, english, title_line=title_line)
        found.english_answers = answers
        found.renderings = XQUAD_RENDERINGS if rendered else None
        return found
    articles = split(cmrc_articles(folder), "heldout" if name == "cmrc-heldout" else "train")
    return protocol_set(
        name, articles[:CMRC_GROUP], off_topic=articles[CMRC_GROUP : 2 * CMRC_GROUP], title_line=title_line
    )


def with_kind_questions(
    articles: Sequence[Article],
    english: dict[str, str],
    english_answers: dict[str, tuple[str, ...]],
    only: bool = False,
    path: Path = XQUAD_KINDS,
) -> list[Article]:
    """The articles with the questions ``path`` holds for them added to their paragraphs' (``only``:
    instead of them); their English wording goes into ``english``, their English gold into
    ``english_answers``, as XQuAD's own do."""
    added: dict[tuple[str, int], list[QA]] = {}
    if path.is_file():
        for row in map(json.loads, filter(str.strip, path.read_text(encoding="utf-8").splitlines())):
            added.setdefault((row["title"], row["paragraph"]), []).append(QA(row["id"], row["zh"], tuple(row["gold"])))
            english[row["id"]] = row["en"]
            english_answers[f"{row['id']}-en"] = tuple(row["gold_en"])
    return [
        Article(
            a.title,
            a.paragraphs,
            tuple(
                (() if only else tuple(qas)) + tuple(added.get((a.title, i), ())) for i, qas in enumerate(a.questions)
            ),
        )
        for a in articles
    ]


def cmrc_articles(folder: Path) -> list[Article]:
    return sorted((a for f in CMRC for a in load_squad(folder / f)), key=lambda a: _order(a.title))


def _order(title: str) -> str:
    return hashlib.sha256(f"{SPLIT_SEED}/order\n{title}".encode()).hexdigest()
