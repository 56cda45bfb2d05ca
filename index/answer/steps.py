"""The answer model's steps over an examined question: rank its candidates, extend the best one to
its neighbours, tell whether it asks for a list, decide whether the corpus answers it. Pure functions
of the model and what examining found (index/engine.py examines; training reads the same Examined).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from index.answer.decide import gate_vector
from index.answer.extend import extension
from index.answer.features import QUESTION_KINDS, Candidate, Terms
from index.answer.model import AnswerModel, Decision
from index.answer.understand import Query
from index.retrieve.retriever import SearchOutcome


@dataclass
class Examined:
    """A question as the answer steps see it: retrieved, its candidates scored by features."""

    query: Query
    outcome: SearchOutcome
    candidates: list[Candidate]
    matrix: np.ndarray  # candidate features (index.answer.features.CANDIDATE_FEATURES)
    terms: Terms
    evidence: np.ndarray  # what retrieval says of the question (index.answer.decide.EVIDENCE)
    item: int | None  # the sentence of the list item it points at ("the 2nd lesson")
    pointed: bool  # it points at a part of the article that exists (a section, a list item)
    seconds: tuple[float, float]  # embedding, search
    vector: np.ndarray  # the question's own (not steered toward the corpus's words)
    view: str = "glossed"  # the corpus's English view (StoredIndex.english_view)
    refers: tuple[bool, ...] = ()  # whether each candidate opens with a pronoun (question_type.opens_with_pronoun)
    kinds: np.ndarray | None = None  # the question's learned kind shares (features.QUESTION_KINDS)


def rank(model: AnswerModel, examined: Examined) -> list[tuple[int, float]]:
    """The candidates' sentences with the scorer's probability, best first; a list item the
    question points at leads."""
    probabilities = model.scorer.probability(examined.matrix)
    ranked = sorted(
        ((c.sentence, float(p)) for c, p in zip(examined.candidates, probabilities, strict=True)),
        key=lambda pair: (-pair[1], pair[0]),
    )
    if examined.item is not None:
        top = ranked[0][1] if ranked else 1.0
        ranked = [(examined.item, top), *((s, p) for s, p in ranked if s != examined.item)]
    return ranked


def extend(model: AnswerModel, examined: Examined, ranked: list[tuple[int, float]]) -> list[int]:
    """The best sentence's neighbours that its answer unit takes in (none for a pointed-at item)."""
    if examined.item is not None:
        return []
    score = dict(ranked)
    probabilities = np.array([score[c.sentence] for c in examined.candidates])
    return extension(
        examined.candidates,
        examined.matrix,
        probabilities,
        model.extender,
        model.extend_threshold_for(asks_for_fact(examined.kinds)),
        examined.refers,
        examined.kinds,
    )


def learned_kind(kinds: np.ndarray | None) -> str:
    """The kind the learned shares (features.QUESTION_KINDS) give the question: none known, a fact."""
    return "fact" if kinds is None or not np.any(kinds) else QUESTION_KINDS[int(np.argmax(kinds))]


def asks_for_fact(kinds: np.ndarray | None) -> bool:
    """Whether the learned kind shares take the question for a fact (no shares: a fact)."""
    return learned_kind(kinds) == "fact"


def asks_for_list(examined: Examined) -> bool:
    """Whether the question asks for several things (the learned question kind): its answer is
    the whole list its best sentence belongs to."""
    return learned_kind(examined.kinds) == "list"


def decide(model: AnswerModel, examined: Examined, ranked: list[tuple[int, float]]) -> Decision:
    """Whether the corpus answers the question, by the model's gates, and how sure they are."""
    order = {c.sentence: i for i, c in enumerate(examined.candidates)}
    matrix = examined.matrix[[order[s] for s, _ in ranked]] if ranked else examined.matrix
    features = gate_vector(np.array([p for _, p in ranked]), matrix, examined.evidence)
    return model.decide(features, examined.query.language, examined.view)
