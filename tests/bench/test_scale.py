"""bench/scale.py at 2,000 synthetic chunks (no model: random vectors, recombined text), and
`python -m bench report` printing the tables again."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.__main__ import main
from tests.bench.support import run_benchmark

pytestmark = pytest.mark.slow
ARGS = ["--sizes", "2000", "--ef-search", "16,128", "--nprobe", "8", "--queries", "20", "--latency-queries", "5"]


def test_scale_report_and_report_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = run_benchmark("scale", ARGS, tmp_path / "results", capsys)
    assert {"config", "vector", "lexical", "seconds"} <= set(report)
    (vector,) = report["vector"]
    assert {"flat", "hnsw", "ivf", "goal"} <= set(vector)
    assert all(0.0 <= row["recall_at_10"] <= 1.0 for row in vector["hnsw"]["sweep"])
    (lexical,) = report["lexical"]
    assert {"build", "search_ms", "load", "goal"} <= set(lexical)
    assert lexical["load"]["same_scores"] is True

    assert main(["report", "--results", str(tmp_path / "results")]) == 0
    assert "## scale" in capsys.readouterr().out
