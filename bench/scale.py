"""Scale: synthetic corpora of growing size, vector and lexical sides, against exact search.

Vector side (dim 384, float32, random unit vectors by default): exact ``IndexFlatIP`` against the
approximate index as ``index.store.make_vector_index`` builds it (HNSW, forced by a threshold of 0),
over a sweep of efSearch values, and an IVF alternative over a sweep of nprobe values: build time,
size on disk, resident memory, single-query p50/p99 and recall@10 against the exact top 10.
Lexical side: ``index.lexical.LexicalIndex`` over recombined article text: build time, memory and
query p50/p99 (BM25 scores plus the top-50 candidates the retriever takes); then what an index
version stores of it (``LexicalIndex.save``): disk size, memory-mapped load time and memory, and
query p50/p99 on the loaded index.
"""

from __future__ import annotations

import argparse
import gc
import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench._report import log, peak_rss_mib, reset_peak, rss_mib, summary_ms, table
from bench._setup import CORPUS_DIR, QUESTIONS_FILE, load_questions, offline

DIM = 384
K = 10
POOL = 50  # candidates the retriever takes from each side
GOAL_VECTOR_P50_MS = 5.0
GOAL_RECALL = 0.95
GOAL_LEXICAL_P50_MS = 50.0


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


def _disk_mib(index: Any) -> float:
    import faiss

    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        path = Path(tmp) / "vectors.faiss"
        faiss.write_index(index, str(path))
        return round(path.stat().st_size / 2**20, 1)


def _time_single(index: Any, queries: np.ndarray) -> dict[str, Any]:
    """One query at a time, as the retriever asks."""
    times = []
    for q in queries:
        started = time.perf_counter()
        index.search(q.reshape(1, -1), K)
        times.append(time.perf_counter() - started)
    return summary_ms(times)


def _time_search_vectors(index: Any, queries: np.ndarray) -> dict[str, Any]:
    """One query at a time through ``index.store.search_vectors``, as the retriever searches."""
    from index.store import search_vectors

    times = []
    for q in queries:
        started = time.perf_counter()
        search_vectors(index, q, K)
        times.append(time.perf_counter() - started)
    return summary_ms(times)


def _recall(found: np.ndarray, truth: np.ndarray) -> float:
    hits = sum(len(set(f.tolist()) & set(t.tolist())) for f, t in zip(found, truth, strict=True))
    return round(hits / truth.size, 4)


class _Memory:
    """RSS growth and transient peak around a block (VmHWM reset first)."""

    def __enter__(self) -> _Memory:
        gc.collect()
        self.before = rss_mib()
        self.peak_ok = reset_peak()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.started
        self.delta = rss_mib() - self.before
        self.peak = peak_rss_mib() - self.before if self.peak_ok else None

    def report(self) -> dict[str, Any]:
        return {
            "build_seconds": round(self.seconds, 3),
            "rss_delta_mib": round(self.delta, 1),
            "peak_rss_delta_mib": None if self.peak is None else round(self.peak, 1),
        }


def _vector_side(n: int, args: argparse.Namespace) -> dict[str, Any]:
    import faiss

    from bench._synthetic import unit_vectors

    faiss.omp_set_num_threads(args.threads)
    out: dict[str, Any] = {
        "n": n,
        "dim": DIM,
        "vectors": args.vectors,
        "raw_vectors_mib": round(n * DIM * 4 / 2**20, 1),
    }
    log(f"scale[{n}]: generating {args.vectors} vectors")
    with _Memory() as mem:
        data = unit_vectors(n, DIM, args.seed, args.vectors)
    out["generate"] = mem.report()
    queries = unit_vectors(args.queries, DIM, args.seed + 1_000_003, args.vectors, clusters=max(1, n // 100))
    timed = queries[: args.latency_queries]

    log(f"scale[{n}]: exact IndexFlatIP")
    with _Memory() as mem:
        flat = faiss.IndexFlatIP(DIM)
        flat.add(data)
    started = time.perf_counter()
    _, truth = flat.search(queries, K)
    batch_seconds = time.perf_counter() - started
    out["flat"] = {
        **mem.report(),
        "disk_mib": _disk_mib(flat),
        "batch_search_seconds": round(batch_seconds, 3),
        "search_ms": _time_single(flat, timed),
    }
    # what the retriever calls: index.store.search_vectors, on one OpenMP thread (README, finding 2)
    out["flat"]["search_ms_1_thread"] = _time_search_vectors(flat, timed)
    faiss.omp_set_num_threads(args.threads)
    del flat
    gc.collect()

    from index.config import IndexSettings

    threshold = IndexSettings.model_fields["approx_threshold"].default
    out["default_index_kind"] = "flat" if n <= threshold else "hnsw"  # what the default settings build
    if n > args.hnsw_max:
        out["hnsw"] = {"skipped": f"n > --hnsw-max {args.hnsw_max}", "sweep": []}
    else:
        out["hnsw"] = _hnsw(data, queries, truth, timed, args)
    gc.collect()
    if args.nprobe:
        out["ivf"] = _ivf(data, queries, truth, timed, args)
    del data
    gc.collect()
    out["goal"] = _vector_goal(out)
    return out


def _hnsw(
    data: np.ndarray, queries: np.ndarray, truth: np.ndarray, timed: np.ndarray, args: argparse.Namespace
) -> dict[str, Any]:
    import faiss

    from index.store import make_vector_index

    n = len(data)
    log(f"scale[{n}]: HNSW as make_vector_index builds it")
    with _Memory() as mem:
        hnsw, kind = make_vector_index(data, 0)
    inner = faiss.downcast_index(hnsw)
    hnsw_report: dict[str, Any] = {
        **mem.report(),
        "kind": kind,
        "disk_mib": _disk_mib(hnsw),
        "m": int(inner.hnsw.nb_neighbors(1)),
        "ef_construction": int(inner.hnsw.efConstruction),
        "built_ef_search": int(inner.hnsw.efSearch),
        "sweep": [],
    }
    for ef in args.ef_search:
        inner.hnsw.efSearch = ef
        _, found = hnsw.search(queries, K)
        row = {"ef_search": ef, "recall_at_10": _recall(found, truth), "search_ms": _time_single(hnsw, timed)}
        hnsw_report["sweep"].append(row)
        log(f"scale[{n}]:   efSearch {ef}: recall {row['recall_at_10']} p50 {row['search_ms']['p50']} ms")
    return hnsw_report


def _ivf(
    data: np.ndarray, queries: np.ndarray, truth: np.ndarray, timed: np.ndarray, args: argparse.Namespace
) -> dict[str, Any]:
    import faiss

    n = len(data)
    nlist = max(1, round(4 * math.sqrt(n)))
    log(f"scale[{n}]: IVF-Flat nlist={nlist}")
    with _Memory() as mem:
        quantizer = faiss.IndexFlatIP(DIM)
        ivf = faiss.IndexIVFFlat(quantizer, DIM, nlist, faiss.METRIC_INNER_PRODUCT)
        ivf.cp.niter = 10
        sample = data[np.random.default_rng(args.seed).choice(n, size=min(n, nlist * 40), replace=False)]
        ivf.train(sample)
        ivf.add(data)
    ivf_report: dict[str, Any] = {**mem.report(), "nlist": nlist, "disk_mib": _disk_mib(ivf), "sweep": []}
    for nprobe in args.nprobe:
        ivf.nprobe = min(nprobe, nlist)
        _, found = ivf.search(queries, K)
        row = {"nprobe": ivf.nprobe, "recall_at_10": _recall(found, truth), "search_ms": _time_single(ivf, timed)}
        ivf_report["sweep"].append(row)
        log(f"scale[{n}]:   nprobe {ivf.nprobe}: recall {row['recall_at_10']} p50 {row['search_ms']['p50']} ms")
    return ivf_report


def _vector_goal(out: dict[str, Any]) -> dict[str, Any]:
    """The cheapest configuration that meets recall@10 ≥ 0.95 with p50 ≤ 5 ms, if any."""
    candidates = [("hnsw", f"efSearch={r['ef_search']}", r) for r in out["hnsw"]["sweep"]]
    candidates += [("ivf", f"nprobe={r['nprobe']}", r) for r in out.get("ivf", {}).get("sweep", [])]
    meeting = [
        c for c in candidates if c[2]["recall_at_10"] >= GOAL_RECALL and c[2]["search_ms"]["p50"] <= GOAL_VECTOR_P50_MS
    ]
    best = min(meeting, key=lambda c: c[2]["search_ms"]["p50"]) if meeting else None
    built = out["hnsw"].get("built_ef_search")
    default = next((r for r in out["hnsw"]["sweep"] if r["ef_search"] == built), None) if built else None
    return {
        "p50_ms_max": GOAL_VECTOR_P50_MS,
        "recall_min": GOAL_RECALL,
        "default_hnsw_met": bool(
            default and default["recall_at_10"] >= GOAL_RECALL and default["search_ms"]["p50"] <= GOAL_VECTOR_P50_MS
        ),
        "best_meeting": None
        if best is None
        else {
            "index": best[0],
            "param": best[1],
            "recall_at_10": best[2]["recall_at_10"],
            "p50_ms": best[2]["search_ms"]["p50"],
        },
    }


def _time_lexical(lexical: Any, questions: list[list[str]]) -> dict[str, Any]:
    scores_t, top_t = [], []
    for tokens in questions:
        started = time.perf_counter()
        scores = lexical.scores(tokens)
        middle = time.perf_counter()
        top = np.argpartition(-scores, min(POOL, len(scores) - 1))[:POOL]
        top[np.argsort(-scores[top])]
        ended = time.perf_counter()
        scores_t.append(middle - started)
        top_t.append(ended - started)
    return {"scores": summary_ms(scores_t), "scores_and_top50": summary_ms(top_t), "queries": len(questions)}


def _lexical_side(n: int, args: argparse.Namespace) -> dict[str, Any]:
    from bench import _synthetic
    from index.lexical import LexicalIndex
    from index.tokenizer import tokenize

    log(f"scale[{n}]: generating text")
    with _Memory() as mem:
        texts = list(_synthetic.texts(args.corpus, n, seed=args.seed))
    out: dict[str, Any] = {"n": n, "characters": sum(map(len, texts)), "generate": mem.report()}
    questions = [tokenize(q) for q in load_questions(QUESTIONS_FILE)]
    log(f"scale[{n}]: LexicalIndex over {n} texts")
    with _Memory() as mem:
        lexical = LexicalIndex(texts)
    out["build"] = {
        **mem.report(),
        "texts_per_second": round(n / mem.seconds, 1),
        "vocabulary": len(lexical.vocabulary),
    }
    del texts
    gc.collect()
    out["search_ms"] = _time_lexical(lexical, questions)
    built_scores = [lexical.scores(tokens) for tokens in questions[:20]]

    # what an index version stores (LexicalIndex.save) and what loading it costs (mmap, as load_version does)
    with tempfile.TemporaryDirectory(prefix="bench-scale-lexical-") as tmp:
        folder = Path(tmp)
        started = time.perf_counter()
        lexical.save(folder)
        save_seconds = time.perf_counter() - started
        disk = sum(f.stat().st_size for f in folder.iterdir()) / 2**20
        del lexical
        gc.collect()
        log(f"scale[{n}]: loading the saved lexical index (mmap)")
        with _Memory() as mem:
            loaded = LexicalIndex.load(folder, n)
        same = all(np.array_equal(loaded.scores(t), s) for t, s in zip(questions[:20], built_scores, strict=True))
        out["load"] = {
            **mem.report(),
            "save_seconds": round(save_seconds, 3),
            "disk_mib": round(disk, 1),
            "search_ms": _time_lexical(loaded, questions),
            "same_scores": same,
        }
        out["load"]["seconds"] = out["load"].pop("build_seconds")
        del loaded
        gc.collect()
    p50 = out["search_ms"]["scores_and_top50"]["p50"]
    out["goal"] = {"p50_ms_max": GOAL_LEXICAL_P50_MS, "met": bool(p50 <= GOAL_LEXICAL_P50_MS)}
    return out


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
            report["vector"].append(_vector_side(n, args))
    for n in lexical_sizes:
        report["lexical"].append(_lexical_side(n, args))
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
