"""`python -m bench <name> [options]` runs one benchmark; `python -m bench all` runs each with its defaults.

`python -m bench report` prints the tables of the last results (``latest.json``) without running anything.

A benchmark is a module with ``add_arguments(parser)``, ``run(args) -> dict`` and ``render(report) -> str``;
adding one (e.g. ``bot``) is one line in BENCHMARKS.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from bench._report import LATEST, RESULTS_DIR, log, write_report

BENCHMARKS: dict[str, str] = {
    "latency": "bench.latency",
    "build": "bench.build",
    "cli": "bench.cli",
    "scale": "bench.scale",
    "bot": "bench.bot",
    "ablation": "bench.ablation",
    "stability": "bench.stability",
}


def _module(name: str) -> ModuleType:
    return importlib.import_module(BENCHMARKS[name])


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    names = ",".join([*BENCHMARKS, "all", "report"])
    sub = parser.add_subparsers(dest="name", required=True, metavar="{" + names + "}")
    for name in BENCHMARKS:
        module = _module(name)
        p = sub.add_parser(name, help=(module.__doc__ or name).strip().splitlines()[0])
        p.add_argument(
            "--results",
            type=Path,
            default=RESULTS_DIR,
            metavar="DIR",
            help=f"where the JSON reports go (default {RESULTS_DIR})",
        )
        module.add_arguments(p)
    p = sub.add_parser("all", help="every benchmark with its default options")
    p.add_argument("--results", type=Path, default=RESULTS_DIR, metavar="DIR")
    p = sub.add_parser("report", help=f"print the tables of DIR/{LATEST} (runs nothing)")
    p.add_argument("--results", type=Path, default=RESULTS_DIR, metavar="DIR")
    return parser


def print_latest(results: Path) -> None:
    latest = json.loads((results / LATEST).read_text(encoding="utf-8"))
    m = latest["machine"]
    print(
        f"Machine: {m['cores']} cores ({m['cpu_model']}), {m['memory_gib']} GiB, Python {m['python']}, "
        + ", ".join(f"{k} {v}" for k, v in m["packages"].items())
        + "\n"
    )
    for name, report in latest["benchmarks"].items():
        if name in BENCHMARKS:
            when = report["machine"]["date"]
            load = report["machine"].get("load_average")
            print(f"## {name}\n\n(measured {when}, load average {load})\n\n{_module(name).render(report)}\n")


def run_one(name: str, args: argparse.Namespace) -> dict:
    module = _module(name)
    log(f"== bench {name}")
    report = module.run(args)
    path = write_report(name, report, args.results)
    print(f"## {name}\n\n{module.render(report)}\n\n(report: {path})\n", flush=True)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv) or ["all"])  # `make bench`: all
    if args.name == "report":
        print_latest(args.results)
        return 0
    if args.name != "all":
        run_one(args.name, args)
        return 0
    for name in BENCHMARKS:
        sub_args = parser.parse_args([name, "--results", str(args.results)])
        run_one(name, sub_args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
