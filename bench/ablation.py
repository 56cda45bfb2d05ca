"""What each step of the answer path is worth: every step switched off in turn, on the public held-out split.

The steps left in the answer path beside the learned scorer and gate (index/answer/) are each
removed alone, and the public held-out sets (index/evaluate/public.py: XQuAD-zh/en and CMRC articles the
answer model never saw in training) are asked again with the same index. A step earns its place
when removing it costs answers or abstentions there, not on our own article's questions.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench._report import log, table
from bench._setup import offline

SETS = ("xquad-heldout", "cmrc-heldout")


def _patched(target: str, replacement: Callable[..., Any]) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """A step removed by putting a pass-through where the engine looks it up."""
    module_name, attribute = target.rsplit(".", 1)

    @contextlib.contextmanager
    def switched_off() -> Iterator[None]:
        import importlib

        module = importlib.import_module(module_name)
        original = getattr(module, attribute)
        setattr(module, attribute, replacement)
        try:
            yield
        finally:
            setattr(module, attribute, original)

    return switched_off


def _all(
    *switches: Callable[[], contextlib.AbstractContextManager[None]],
) -> Callable[[], contextlib.AbstractContextManager[None]]:
    @contextlib.contextmanager
    def switched_off() -> Iterator[None]:
        with contextlib.ExitStack() as stack:
            for switch in switches:
                stack.enter_context(switch())
            yield

    return switched_off


def _nothing() -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


# name → (what it does, retrieval parameters changed, answer-model fields changed, code replaced)
ABLATIONS: dict[str, tuple[str, dict[str, Any], dict[str, Any], Callable[[], contextlib.AbstractContextManager[None]]]]
ABLATIONS = {
    "all steps": ("the shipped answer path", {}, {}, _nothing),
    "translation steering": (
        "an English question's vector moved toward its words' Chinese translations",
        {"translation_weight": 0.0},
        {},
        _nothing,
    ),
    "lexical lead": (
        "a passage BM25 clearly prefers gains a little fused score",
        {"lexical_lead_bonus": 0.0},
        {},
        _nothing,
    ),
    "background bias": (
        "cosines less each passage's mean cosine with background questions",
        {"bias_weight": 0.0},
        {},
        _nothing,
    ),
    "dates as written": (
        "'May 18' searched as '5 月 18 日'",
        {},
        {},
        _patched("index.answer.understand.chinese_dates", lambda text: text),
    ),
    "truecase": (
        "a Chinese question's Latin words in the corpus's case",
        {},
        {},
        _patched("index.answer.vectors.truecase", lambda text, written_form: text),
    ),
    "lead-in completion": (
        "a lead-in sentence comes with its list items / rows, or the sentence it leads into",
        {},
        {},
        _patched("index.answer.compose._completed", lambda stored, sid: [sid]),
    ),
    "whole list": (
        "a question asking for several things ('哪三件事', 'what are the stages') gets the whole list",
        {},
        {},
        _patched("index.engine.asks_for_list", lambda examined: False),
    ),
    "second sentence": (
        "a second candidate joins when its probability is close",
        {},
        {"second_ratio": float("inf")},
        _nothing,
    ),
    "small talk": (
        "'hi' / '谢谢' answered with what the bot does, not searched",
        {},
        {},
        _patched("index.answer.understand.small_talk", lambda text: None),
    ),
    "about the article": (
        "questions about the article itself (its author, date, outline) answered from its metadata",
        {},
        {},
        _all(
            _patched("index.answer.understand.is_meta_question", lambda text, titles=(): False),
            _patched("index.answer.understand.is_author_question", lambda text, authors: False),
            _patched("index.answer.understand.is_overview_question", lambda text: False),
        ),
    ),
    "section and item references": (
        "'in section 3' / 'the 2nd lesson' searched in that part",
        {},
        {},
        _all(
            _patched("index.answer.understand.section_reference", lambda text: None),
            _patched("index.answer.understand.item_reference", lambda text: None),
        ),
    ),
    "heading": (
        "a sentence pointing back at its heading comes with it",
        {},
        {},
        _patched("index.engine.with_heading", lambda stored, chosen: chosen),
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="sets", action="append", choices=SETS, help="public set(s); default both")
    parser.add_argument("--only", action="append", choices=list(ABLATIONS), help="ablation(s); default all")
    parser.add_argument(
        "--public-dir", type=Path, default=None, help="the public QA data (default: index/evaluate/public.py's)"
    )
    parser.add_argument("--work", type=Path, default=Path("var/public"), help="where each set's index is built")


def run(args: argparse.Namespace) -> dict[str, Any]:
    offline()
    from index.answer.model import load_model
    from index.engine import Engine
    from index.evaluate import public
    from index.evaluate.protocol import ask_public, indexed
    from index.retrieve.retriever import RetrievalParams

    folder = args.public_dir or public.public_dir()
    names = args.only or list(ABLATIONS)
    if "all steps" not in names:
        names = ["all steps", *names]
    results: dict[str, dict[str, Any]] = {name: {} for name in names}
    for set_name in args.sets or SETS:
        found = public.named_set(set_name, folder)
        settings = indexed(found, args.work / set_name)
        for name in names:
            _, params, model_fields, switched_off = ABLATIONS[name]
            engine = Engine(
                settings,
                params=RetrievalParams(**params),
                model=dataclasses.replace(load_model(), **model_fields),
            )
            with switched_off():
                metrics = ask_public(engine, found.questions)
            results[name][set_name] = {lang: m.model_dump() for lang, m in metrics.items()}
            log(
                f"{set_name} without {name}: "
                + ", ".join(f"{lang} answered {m.answered:.3f}" for lang, m in metrics.items())
            )
    return {"ablations": {name: ABLATIONS[name][0] for name in names}, "results": results}


_COLUMNS = (
    ("answered", "answered"),
    ("FA", "false_abstention"),
    ("near", "near_abstention"),
    ("off", "off_abstention"),
)


def render(report: dict[str, Any]) -> str:
    results = report["results"]
    base = results["all steps"]
    rows = []
    for name, by_set in results.items():
        for set_name, by_lang in by_set.items():
            for lang, m in by_lang.items():
                cells = []
                for _, key in _COLUMNS:
                    value, reference = m.get(key), base[set_name][lang].get(key)
                    if value is None:
                        cells.append("–")
                    elif name == "all steps" or reference is None:
                        cells.append(f"{value:.3f}")
                    else:
                        cells.append(f"{value:.3f} ({value - reference:+.3f})")
                rows.append([name, set_name, lang, *cells])
    return table(["without", "set", "lang", *(label for label, _ in _COLUMNS)], rows)
