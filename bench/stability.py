"""How many answers change when every embedding moves by as little as another CPU moves it.

CPUs round the bundled encoder's arithmetic differently (its normalisation uses an approximate
reciprocal square root, whose bits differ between vendors), so two machines embed the same text a
few units in the last place apart. This benchmark adds seeded Gaussian noise of a given size to
every vector the encoder returns (the index's and the questions'), rebuilds the index, asks every
question of tests/eval again and counts the decisions (answered / declined) and answers that change.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench._report import ROOT, log, table
from bench._setup import CORPUS_DIR, offline

EVAL_DIR = ROOT / "tests" / "eval"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scales", default="1e-6,1e-5,1e-4", help="noise per vector component (comma-separated)")
    parser.add_argument("--seeds", type=int, default=2, help="noise draws per scale")
    parser.add_argument("--sets", default="dev_*.jsonl,holdout_*.jsonl,followups_*.jsonl", metavar="GLOBS")


@contextlib.contextmanager
def _noisy_encoder(scale: float, seed: int) -> Iterator[None]:
    """Every vector the bundled encoder returns moved by N(0, scale²) per component, then renormalised."""
    import numpy as np

    from index.build.embedding import bundled_e5

    engine = bundled_e5()
    original = engine.encode
    rng = np.random.default_rng(seed)

    def encode(texts: Any, is_query: bool = False) -> Any:
        vectors = np.asarray(original(texts, is_query), dtype=np.float32)
        vectors = vectors + (rng.standard_normal(vectors.shape) * scale).astype(np.float32)
        return (vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)).astype(np.float32)

    engine.encode = encode
    try:
        yield
    finally:
        engine.encode = original


def _answers(questions: list[dict[str, Any]]) -> dict[str, tuple[bool, str]]:
    from index.build.builder import build_index
    from index.config import load_settings
    from index.engine import Engine

    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(corpus_dir=CORPUS_DIR, index_dir=Path(folder) / "index")
        build_index(settings, progress=False)
        engine = Engine(settings)
        return {
            q["id"]: (r.abstained, r.answer) for q in questions for r in [engine.ask(q["q"], context=q.get("context"))]
        }


def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    files = sorted({p for pattern in args.sets.split(",") for p in EVAL_DIR.glob(pattern)})
    questions = [json.loads(line) for f in files for line in f.read_text(encoding="utf-8").splitlines() if line]
    log(f"{len(questions)} questions from {len(files)} files")
    base = _answers(questions)
    rows = []
    for scale in (float(s) for s in args.scales.split(",")):
        for seed in range(args.seeds):
            with _noisy_encoder(scale, seed):
                moved = _answers(questions)
            decisions = sorted(q for q in base if base[q][0] != moved[q][0])
            answers = sum(1 for q in base if base[q] != moved[q])
            log(f"noise {scale:g} seed {seed}: {len(decisions)} decisions, {answers} answers changed {decisions}")
            rows.append({"scale": scale, "seed": seed, "decisions": decisions, "answers": answers})
    return {"questions": len(questions), "runs": rows}


def render(report: dict[str, Any]) -> str:
    rows = [
        (f"{r['scale']:g}", r["seed"], len(r["decisions"]), r["answers"], ", ".join(r["decisions"]) or "–")
        for r in report["runs"]
    ]
    head = f"{report['questions']} questions; noise per component of a unit vector (≈ 0.05 each)\n\n"
    return head + table(["noise", "seed", "decisions changed", "answers changed", "which"], rows)
