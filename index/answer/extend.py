"""The extend step: the answer unit grows from the best sentence to its neighbours in the passage
(the claim before an explanation, the reason after it, the second half of a comparison) when a
learned model says the neighbour holds the answer too. Answer units are spans of consecutive
sentences of a passage, up to two either side of the best, chosen by the model rather than by rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from index.answer.features import EXTEND_FEATURES, QUESTION_KINDS, Candidate
from index.answer.model import Trees

# the neighbours considered, relative to the best candidate: two away only along with the one
# between, so that a span is consecutive sentences ("X。这意味着什么？意味着 Y" has its claim at -2)
OFFSETS = (-2, -1, 1, 2)


def neighbours(
    passages: Sequence[int],
    matrix: np.ndarray,
    probabilities: np.ndarray,
    refers: Sequence[bool] = (),
    kinds: np.ndarray | None = None,
) -> tuple[int, list[tuple[int, int]], np.ndarray]:
    """The best candidate, its neighbours as (candidate, offset), and one EXTEND_FEATURES row each.
    ``passages``: each candidate's passage rank; candidates of a passage are in document order, so
    a neighbour is the candidate next to the best in the same passage (headings are no candidates).
    ``refers``: whether each candidate opens with a pronoun (question_type.opens_with_pronoun);
    ``kinds``: the question's learned kind shares (features.QUESTION_KINDS; none known: zeros)."""
    if len(probabilities) == 0:
        return -1, [], np.zeros((0, len(EXTEND_FEATURES)), dtype=np.float32)
    asked = np.zeros(len(QUESTION_KINDS), dtype=np.float32) if kinds is None else np.asarray(kinds, dtype=np.float32)
    order = np.argsort(-probabilities, kind="stable")
    rank = np.empty(len(order))
    rank[order] = np.arange(len(order))
    best = int(order[0])

    def same_passage(i: int) -> bool:
        return 0 <= i < len(passages) and passages[i] == passages[best]

    found: list[tuple[int, int]] = []
    rows: list[np.ndarray] = []
    for offset in OFFSETS:
        other = best + offset
        if not same_passage(other) or (abs(offset) == 2 and not same_passage(best + offset // 2)):
            continue
        p_best, p_other = float(probabilities[best]), float(probabilities[other])
        opens = float(refers[other]) if len(refers) > other else 0.0
        head = [offset, p_best, p_other, p_other / max(p_best, 1e-9), rank[other], opens]
        found.append((other, offset))
        rows.append(np.concatenate([np.array(head, dtype=np.float32), asked, matrix[best], matrix[other]]))
    matrix_out = np.stack(rows).astype(np.float32) if rows else np.zeros((0, len(EXTEND_FEATURES)), dtype=np.float32)
    return best, found, matrix_out


def kept(found: Sequence[tuple[int, int]], probabilities: np.ndarray, threshold: float) -> list[int]:
    """The neighbours (candidate positions) whose probability reaches ``threshold``; one two away
    from the best only with the one between."""
    passing = {offset: other for (other, offset), p in zip(found, probabilities, strict=True) if p >= threshold}
    for near, far in ((1, 2), (-1, -2)):
        if near not in passing:
            passing.pop(far, None)
    return sorted(passing.values())


def extension(
    candidates: Sequence[Candidate],
    matrix: np.ndarray,
    probabilities: np.ndarray,
    extender: Trees | None,
    threshold: float,
    refers: Sequence[bool] = (),
    kinds: np.ndarray | None = None,
) -> list[int]:
    """The sentences the best candidate's answer unit takes in besides itself. ``probabilities``:
    the scorer's, one per candidate; ``extender``: Trees over EXTEND_FEATURES (None: no model)."""
    if extender is None or len(candidates) < 2:
        return []
    _, found, rows = neighbours([c.passage_rank for c in candidates], matrix, probabilities, refers, kinds)
    if not found:
        return []
    chance = extender.probability(rows)
    return [candidates[i].sentence for i in kept(found, chance, threshold)]
