"""bench/cli.py on the commands that don't import torch: the report's shape (whole-process times)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.support import run_benchmark

# the index it reads is built with the model; the commands that import torch take 5-20 s each
# and only the full run (`python -m bench cli`) times them
pytestmark = [pytest.mark.model, pytest.mark.slow]
COMMANDS = "index --help,index stats,baseline: python -c pass"


def test_cli_report(session_index: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus, index_dir = session_index
    args = ["--runs", "1", "--commands", COMMANDS, "--corpus", str(corpus), "--index", str(index_dir)]
    report = run_benchmark("cli", args, tmp_path / "results", capsys)
    assert set(report) >= {
        "config",
        "median_seconds",
        "ratios",
        "imports",
        "torch_importers",
        "torch_without_embedding",
    }
    assert set(report["exit_codes"].values()) == {0}
    assert {"index --help", "index stats"} <= set(report["imports"])
    assert report["torch_without_embedding"] == []  # the goal: commands that don't embed don't import torch
