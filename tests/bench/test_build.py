"""bench/build.py on a small corpus: the report's shape (build_index vs bare encode_document)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.support import MAX_PARAGRAPHS, run_benchmark

pytestmark = [pytest.mark.model, pytest.mark.slow]


def test_build_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--rounds", "1", "--edits", "1", "--max-paragraphs", str(MAX_PARAGRAPHS)]
    report = run_benchmark("build", args, tmp_path / "results", capsys)
    assert {"config", "embedded", "median_seconds", "chunks_per_second", "ratios", "incremental", "goal"} <= set(report)
    assert report["embedded"]["texts"] == report["embedded"]["build_result_embedded"]
    assert report["incremental"]["runs"][0]["embedded"] >= 1
