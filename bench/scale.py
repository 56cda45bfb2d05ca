"""Scale: synthetic corpora of growing size, vector and lexical sides, against exact search.

Vector side (dim 384, float32, random unit vectors by default): exact ``IndexFlatIP`` against the
approximate index as ``index.build.store.make_vector_index`` builds it (HNSW, forced by a threshold of 0),
over a sweep of efSearch values, and an IVF alternative over a sweep of nprobe values: build time,
size on disk, resident memory, single-query p50/p99 and recall@10 against the exact top 10.
Lexical side: ``index.build.lexical.LexicalIndex`` over recombined article text: build time, memory and
query p50/p99 (BM25 scores plus the top-50 candidates the retriever takes); then what an index
version stores of it (``LexicalIndex.save``): disk size, memory-mapped load time and memory, and
query p50/p99 on the loaded index.
The two sides: bench/_scale_vector.py and bench/_scale_lexical.py; this module runs and renders them.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._report import table
from bench._scale_lexical import GOAL_LEXICAL_P50_MS, lexical_side
from bench._scale_vector import DIM, GOAL_RECALL, GOAL_VECTOR_P50_MS, K, vector_side
from bench._setup import CORPUS_DIR, offline


def _ints(text: str) -> list[int]:
    return [int(float(x)) for x in text.split(",") if x.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--sizes",
        type=_ints,
        default=[10_000, 100_000],
        metavar="N,N",
        help="corpus sizes in chunks (default 10000,100000; 1e6 accepted)",
    )
    parser.add_argument(
        "--lexical-sizes",
        type=_ints,
        default=None,
        metavar="N,N",
        help="sizes for the lexical side (default: --sizes; 0 = none)",
    )
    parser.add_argument(
        "--vectors",
        choices=["random", "clustered"],
        default="random",
        help="random unit vectors (worst case, default) or clustered ones",
    )
    parser.add_argument("--no-vector", action="store_true", help="lexical side only")
    parser.add_argument("--ef-search", type=_ints, default=[64, 128, 256, 512, 1024], metavar="N,N")
    parser.add_argument(
        "--nprobe", type=_ints, default=[8, 32, 128], metavar="N,N", help="IVF nprobe sweep (empty: no IVF)"
    )
    parser.add_argument(
        "--hnsw-max",
        type=lambda x: int(float(x)),
        default=10**9,
        metavar="N",
        help="skip building HNSW above N chunks (its build time grows ~n log n)",
    )
    parser.add_argument("--queries", type=int, default=200, help="queries for recall@10 (default 200)")
    parser.add_argument(
        "--latency-queries", type=int, default=100, help="single queries timed per configuration (default 100)"
    )
    parser.add_argument("--threads", type=int, default=2, help="faiss.omp_set_num_threads (default 2)")
    parser.add_argument(
        "--corpus", type=Path, default=CORPUS_DIR, metavar="DIR", help="where the synthetic text's sentences come from"
    )
    parser.add_argument("--seed", type=int, default=0)


def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    lexical_sizes = args.sizes if args.lexical_sizes is None else [n for n in args.lexical_sizes if n > 0]
    report: dict[str, Any] = {
        "config": {
            "sizes": args.sizes,
            "lexical_sizes": lexical_sizes,
            "vectors": args.vectors,
            "dim": DIM,
            "k": K,
            "ef_search": args.ef_search,
            "nprobe": args.nprobe,
            "queries": args.queries,
            "latency_queries": args.latency_queries,
            "threads": args.threads,
            "seed": args.seed,
        },
        "vector": [],
        "lexical": [],
    }
    started = time.perf_counter()
    if not args.no_vector:
        for n in args.sizes:
            report["vector"].append(vector_side(n, args))
    for n in lexical_sizes:
        report["lexical"].append(lexical_side(n, args))
    report["seconds"] = round(time.perf_counter() - started, 1)
    return report


def _default_hnsw(v: dict[str, Any]) -> str:
    if not v["hnsw"]["sweep"]:
        return "not built"
    return "met" if v["goal"]["default_hnsw_met"] else "NOT met"


def _sweep_rows(n: int, index: dict[str, Any], label: Callable[[dict[str, Any]], str]) -> list[list[Any]]:
    """One row per searched setting of an approximate index; its build costs on the first only."""
    return [
        [
            n,
            label(r),
            *([index["build_seconds"], index["disk_mib"], index["rss_delta_mib"]] if i == 0 else [None] * 3),
            r["search_ms"]["p50"],
            r["search_ms"]["p99"],
            r["recall_at_10"],
        ]
        for i, r in enumerate(index["sweep"])
    ]


def render(report: dict[str, Any]) -> str:
    rows = []
    for v in report["vector"]:
        n = v["n"]
        f = v["flat"]
        rows.append(
            [
                n,
                "flat (exact)",
                f["build_seconds"],
                f["disk_mib"],
                f["rss_delta_mib"],
                f["search_ms"]["p50"],
                f["search_ms"]["p99"],
                1.0,
            ]
        )
        if "search_ms_1_thread" in f:
            rows.append(
                [
                    n,
                    "flat, search_vectors (1 thread)",
                    None,
                    None,
                    None,
                    f["search_ms_1_thread"]["p50"],
                    f["search_ms_1_thread"]["p99"],
                    1.0,
                ]
            )
        rows += _sweep_rows(n, v["hnsw"], lambda r: f"hnsw efSearch={r['ef_search']}")
        if v.get("ivf"):
            rows += _sweep_rows(n, v["ivf"], lambda r, iv=v["ivf"]: f"ivf{iv['nlist']} nprobe={r['nprobe']}")
    lines = []
    if rows:
        lines.append(
            table(["chunks", "vector index", "build s", "disk MiB", "RSS Δ MiB", "p50 ms", "p99 ms", "recall@10"], rows)
        )
        for v in report["vector"]:
            lines.append(
                f"{v['n']}: goal p50 ≤ {GOAL_VECTOR_P50_MS} ms & recall@10 ≥ {GOAL_RECALL}: "
                f"default HNSW {_default_hnsw(v)}; "
                f"best meeting it: {v['goal']['best_meeting']}"
            )
    lex = [
        [
            x["n"],
            x["build"]["build_seconds"],
            x["build"]["texts_per_second"],
            x["build"]["rss_delta_mib"],
            x["build"]["vocabulary"],
            x["search_ms"]["scores_and_top50"]["p50"],
            x["search_ms"]["scores_and_top50"]["p99"],
            "met" if x["goal"]["met"] else "NOT met",
        ]
        for x in report["lexical"]
    ]
    if lex:
        lines += [
            "",
            table(
                [
                    "chunks",
                    "lexical build s",
                    "texts/s",
                    "RSS Δ MiB",
                    "vocabulary",
                    "p50 ms",
                    "p99 ms",
                    f"p50 ≤ {GOAL_LEXICAL_P50_MS} ms",
                ],
                lex,
            ),
        ]
    loads = [
        [
            x["n"],
            x["load"]["save_seconds"],
            x["load"]["disk_mib"],
            x["load"]["seconds"],
            x["load"]["rss_delta_mib"],
            x["load"]["search_ms"]["scores_and_top50"]["p50"],
            x["load"]["search_ms"]["scores_and_top50"]["p99"],
            "yes" if x["load"]["same_scores"] else "NO",
        ]
        for x in report["lexical"]
        if "load" in x
    ]
    if loads:
        headers = ["chunks", "save s", "disk MiB", "load s (mmap)", "RSS Δ MiB", "p50 ms", "p99 ms", "same scores"]
        lines += ["", table(headers, loads)]
    return "\n".join(lines)
