"""bench/bot.py still runs: one cold start, no idle wait, one burst of 5 concurrent /ask.

Checks the report's shape and that every ask was answered; no timing is asserted (a benchmark is
not a test)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.bot import main

pytestmark = pytest.mark.bench_smoke

SMOKE_ARGS = ["--runs", "1", "--idle-seconds", "0", "--concurrency", "5", "--rounds", "1", "--cold-bursts", "3"]


def test_bench_bot_smoke(e2e_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "results"
    assert main(["--results", str(results), "--index", str(e2e_index), *SMOKE_ARGS]) == 0

    report = json.loads((results / "bot.json").read_text(encoding="utf-8"))
    assert report["benchmark"] == "bot"
    assert {"cores", "cpu_model", "python", "packages"} <= set(report["machine"])
    assert report["versions"]["discord.py"] != "not installed"
    assert report["cold_start_s"]["cold_start"] > 0
    assert report["cold_start_s"]["on_ready"] >= report["cold_start_s"]["cold_start"]
    assert report["idle_memory_mib"]["rss"] > 0
    throughput = report["throughput"]
    assert throughput["asked"] == throughput["answered"] == throughput["acked_in_time"] == 5
    assert throughput["answers_per_second"] > 0
    assert {"p50", "p95"} <= set(throughput["answer_ms"])
    (cold,) = report["cold_bursts"]
    assert cold["concurrency"] == cold["asked"] == cold["answered"] == 3 and cold["delivered_twice"] == 0
    assert cold["peak_rss_mib"] >= cold["rss_before_mib"] > 0
    assert report["shutdown"] == [{"exit_code": 0, "seconds": report["shutdown"][0]["seconds"]}]
    out = capsys.readouterr().out
    assert "## bot" in out and "answers/s" in out
    print(out)
