"""Running a benchmark on tiny sizes and checking its report's shape (tests/bench/test_<module>.py).

No timing is asserted anywhere: a benchmark is not a test. Every index goes to a temporary folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.__main__ import main

MAX_PARAGRAPHS = 12  # of the real corpus: a small index builds in seconds
MACHINE_KEYS = {"cores", "cpu_model", "python", "packages", "date"}


def run_benchmark(name: str, args: list[str], results: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    """``python -m bench <name> --results <results> <args>`` in this process; returns its report
    after checking what every report has: the machine, a merge into latest.json, a printed table."""
    assert main([name, "--results", str(results), *args]) == 0
    report = json.loads((results / f"{name}.json").read_text(encoding="utf-8"))
    assert report["benchmark"] == name
    assert set(report["machine"]) >= MACHINE_KEYS
    latest = json.loads((results / "latest.json").read_text(encoding="utf-8"))
    assert name in latest["benchmarks"] and "machine" in latest
    assert f"## {name}" in capsys.readouterr().out
    return report
