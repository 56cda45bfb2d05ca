"""bench scale, the lexical side: BM25 (index.build.lexical.LexicalIndex) over recombined article text,
built and then as an index version stores it (saved, memory-mapped, loaded).
"""

from __future__ import annotations

import argparse
import gc
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench._report import Memory, log, summary_ms
from bench._setup import QUESTIONS_FILE, load_questions

POOL = 50  # candidates the retriever takes from each side
GOAL_LEXICAL_P50_MS = 50.0


def _time_lexical(lexical: Any, questions: list[list[str]]) -> dict[str, Any]:
    scores_t, top_t = [], []
    for tokens in questions:
        started = time.perf_counter()
        scores = lexical.scores(tokens)
        middle = time.perf_counter()
        top = np.argpartition(-scores, min(POOL, len(scores) - 1))[:POOL]
        top[np.argsort(-scores[top])]
        ended = time.perf_counter()
        scores_t.append(middle - started)
        top_t.append(ended - started)
    return {"scores": summary_ms(scores_t), "scores_and_top50": summary_ms(top_t), "queries": len(questions)}


def lexical_side(n: int, args: argparse.Namespace) -> dict[str, Any]:
    from bench import _synthetic
    from index.build.lexical import LexicalIndex
    from index.text.tokens import tokenize

    log(f"scale[{n}]: generating text")
    with Memory() as mem:
        texts = list(_synthetic.texts(args.corpus, n, seed=args.seed))
    out: dict[str, Any] = {"n": n, "characters": sum(map(len, texts)), "generate": mem.report()}
    questions = [tokenize(q) for q in load_questions(QUESTIONS_FILE)]
    log(f"scale[{n}]: LexicalIndex over {n} texts")
    with Memory() as mem:
        lexical = LexicalIndex(texts)
    out["build"] = {
        **mem.report(),
        "texts_per_second": round(n / mem.seconds, 1),
        "vocabulary": len(lexical.vocabulary),
    }
    del texts
    gc.collect()
    out["search_ms"] = _time_lexical(lexical, questions)
    built_scores = [lexical.scores(tokens) for tokens in questions[:20]]

    # what an index version stores (LexicalIndex.save) and what loading it costs (mmap, as load_version does)
    with tempfile.TemporaryDirectory(prefix="bench-scale-lexical-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        lexical.save(folder)
        save_seconds = time.perf_counter() - started
        disk = sum(f.stat().st_size for f in folder.iterdir()) / 2**20
        del lexical
        gc.collect()
        log(f"scale[{n}]: loading the saved lexical index (mmap)")
        with Memory() as mem:
            loaded = LexicalIndex.load(folder, n)
        same = all(np.array_equal(loaded.scores(t), s) for t, s in zip(questions[:20], built_scores, strict=True))
        out["load"] = {
            **mem.report(),
            "save_seconds": round(save_seconds, 3),
            "disk_mib": round(disk, 1),
            "search_ms": _time_lexical(loaded, questions),
            "same_scores": same,
        }
        out["load"]["seconds"] = out["load"].pop("build_seconds")
        del loaded
        gc.collect()
    p50 = out["search_ms"]["scores_and_top50"]["p50"]
    out["goal"] = {"p50_ms_max": GOAL_LEXICAL_P50_MS, "met": bool(p50 <= GOAL_LEXICAL_P50_MS)}
    return out
