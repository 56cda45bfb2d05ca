"""The decide step: answer, or say the article doesn't. A learned gate over what retrieval found and
how sure the scorer is of its best candidate, calibrated on public questions whose paragraph is in
the corpus, left out of it (near-topic) or in another corpus (off-topic).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from index.answer.decline import names, unmentioned
from index.answer.features import CANDIDATE_FEATURES, Terms, bigram_set, token_set
from index.answer.question_type import ASKED
from index.build.store import Background
from index.retrieve.retriever import SearchOutcome

# what retrieval says of a question, whatever the scorer makes of its candidates
EVIDENCE = (
    "dense_top",
    "adjusted_top",
    "dense_margin",
    "background_max",
    "absent_share",
    "words",
    "agree",
    "english",
    "names",
    "absent_names",
    "retrieved_share",
    "top_passage_share",
    "retrieved_bigrams",
    "top_passage_bigrams",
)
GATE_FEATURES = (
    "best_probability",
    "second_probability",
    "probability_gap",
    "best_logit",
    "best_cos",
    "max_cos",
    "best_lex",
    "max_lex",
    "max_lex_passage",
    "best_bigram",
    "max_bigram",
    "best_latin",
    "best_gloss",
    "max_gloss",
    "best_rendered",
    "best_holds_asked",
    *(f"asks_{name}" for name in (*ASKED, "other")),
    *EVIDENCE,
)
_COLUMN = {name: i for i, name in enumerate(CANDIDATE_FEATURES)}


def retrieval_evidence(
    outcome: SearchOutcome,
    terms: Terms,
    background: Background,
    own_vector: np.ndarray,
    language: str,
    question: str = "",
    passages: Sequence[str] = (),
) -> np.ndarray:
    """One row of EVIDENCE. ``own_vector``: the question's own vector (not steered toward the corpus's
    words), which the background's off-topic questions are compared with. A name the question uses
    that no passage writes in any form (Bitcoin, a person) says the corpus is about something else,
    or lacks the paragraph about it. ``passages``: the texts of the retrieved passages, best first.
    Of a question whose paragraph is missing, retrieval still finds the article's passages through
    its topic words, but its specific words are in none of them: how much of the question the
    retrieved passages hold, and the best one, tells such a question from one they answer."""
    hits = outcome.hits
    tokens = [token_set(text) for text in passages]
    pairs = [bigram_set(text) for text in passages]
    dense_top = max((h.dense for h in hits), default=0.0)
    agree = bool(outcome.dense_order and outcome.lexical_order) and outcome.dense_order[0] == outcome.lexical_order[0]
    return np.array(
        [
            dense_top,
            max((h.dense_adjusted for h in hits), default=0.0),
            (dense_top - background.top_mean) / background.top_spread,
            float((background.vectors @ own_vector).max()) if len(background.vectors) else 0.0,
            len(terms.absent) / max(1, terms.words),
            float(terms.words),
            1.0 if agree else 0.0,
            0.0 if language == "zh" else 1.0,
            float(len(names(question))),
            float(len(unmentioned(question, terms))),
            terms.share(frozenset().union(*tokens)),
            terms.share(tokens[0]) if tokens else 0.0,
            terms.bigram_share(frozenset().union(*pairs)),
            terms.bigram_share(pairs[0]) if pairs else 0.0,
        ],
        dtype=np.float32,
    )


# what a sentence holding the kind of thing asked holds (a number asked: a digit or a percentage)
_ANSWERED_BY = {"number": ("digit", "percent"), "date": ("date", "year"), "reason": ("reason",)}


def holds_asked(row: np.ndarray) -> float:
    """Whether the best candidate holds the kind of thing the question asks for: 1 or 0 for a
    question asking a number, a date or a reason, 0.5 for one asking something no flag tells. A
    question about the article's subject whose best sentence holds no number when a number is
    asked is what a missing paragraph looks like."""
    for asked, held in _ANSWERED_BY.items():
        if row[_COLUMN[f"asks_{asked}"]]:
            return 1.0 if any(row[_COLUMN[f"holds_{h}"]] for h in held) else 0.0
    return 0.5


def gate_vector(probabilities: np.ndarray, matrix: np.ndarray, evidence: np.ndarray) -> np.ndarray:
    """One row of GATE_FEATURES: how sure the scorer is of its best candidates (``probabilities``, one
    per row of the candidate ``matrix``), and the retrieval ``evidence``."""
    if len(probabilities):
        order = np.argsort(-probabilities, kind="stable")
        p_best = float(probabilities[order[0]])
        p_second = float(probabilities[order[1]]) if len(order) > 1 else 0.0
        row = matrix[order[0]]
    else:
        p_best, p_second, row = 0.0, 0.0, np.zeros(len(CANDIDATE_FEATURES))

    def top(column: str) -> float:
        return float(matrix[:, _COLUMN[column]].max()) if len(matrix) else 0.0

    scored = [
        p_best,
        p_second,
        p_best - p_second,
        math.log((p_best + 1e-6) / (1 - p_best + 1e-6)),
        float(row[_COLUMN["cos"]]),
        top("cos"),
        float(row[_COLUMN["lex"]]),
        top("lex"),
        top("lex_passage"),
        float(row[_COLUMN["bigram"]]),
        top("bigram"),
        float(row[_COLUMN["latin"]]),
        float(row[_COLUMN["gloss_cos"]]),
        top("gloss_cos"),
        float(row[_COLUMN["gloss_rendered"]]),
        holds_asked(row),
        *(float(row[_COLUMN[f"asks_{name}"]]) for name in (*ASKED, "other")),
    ]
    return np.concatenate([np.array(scored, dtype=np.float32), evidence.astype(np.float32)])
