"""`python -m index`: the argument parser and ``main``; the commands are in ``index.cli.commands``.

Exit codes (``index.errors``): 0 ok, 1 failure, 2 usage or input error (one line on stderr, no
traceback). Only the parser and the errors load before the arguments are parsed: ``--help``
imports neither pydantic, numpy, faiss nor torch.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from index.errors import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    EmbedderError,
    GenerationError,
    IndexLoadError,
    InputError,
    exit_code,
)

if TYPE_CHECKING:  # settings (pydantic-settings) load after the arguments parse: --help needs none
    from index.config import IndexSettings


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def _common_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--index", type=Path, metavar="DIR", default=default, help="index folder (default: settings, var/index)"
    )
    parser.add_argument(
        "--corpus", type=Path, metavar="DIR", default=default, help="corpus folder (default: settings, corpus)"
    )
    parser.add_argument(
        "--model", metavar="NAME", default=default, help="embedding model (default: bundled multilingual-e5-small)"
    )


def _parser() -> argparse.ArgumentParser:
    # The common options work before or after the command; after it, unset ones must not
    # overwrite what was given before it, hence SUPPRESS there.
    common = argparse.ArgumentParser(add_help=False)
    _common_options(common, argparse.SUPPRESS)

    parser = _Parser(prog="python -m index", description="Index the article and answer questions about it.")
    _common_options(parser, None)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    build = sub.add_parser("build", parents=[common], help="build or incrementally rebuild the index")
    build.add_argument("--force", action="store_true", help="re-embed everything")
    build.add_argument("--chunk-size", type=int, metavar="CHARS")
    build.add_argument("--quiet", action="store_true", help="no progress bar")

    sub.add_parser("stats", parents=[common], help="manifest and counts")

    chunks = sub.add_parser("chunks", parents=[common], help="the chunks of the corpus")
    chunks.add_argument("--doc", metavar="ID")
    chunks.add_argument("--json", action="store_true")

    for name, text in (("search", "ranked passages only"), ("ask", "answer with citations and passages")):
        p = sub.add_parser(name, parents=[common], help=text)
        p.add_argument(
            "question",
            help="the question ('-' with --json: one per stdin line)" if name == "ask" else "the question",
        )
        p.add_argument("--k", type=int, metavar="N")
        p.add_argument("--json", action="store_true")
        p.add_argument("--mode", choices=["hybrid", "dense", "lexical"], default="hybrid")
        if name == "ask":
            p.add_argument(
                "--llm",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="written answer through LLM_BASE_URL/LLM_MODEL, extractive as fallback "
                "(default: on when both are set)",
            )

    ev = sub.add_parser("eval", parents=[common], help="retrieval and answer metrics on a question file")
    ev.add_argument("file", type=Path, nargs="*", help="question files (JSONL), scored as one set")
    ev.add_argument(
        "--public",
        metavar="NAME",
        action="append",
        help="a public set by the outside checks' protocol (xquad-heldout, xquad-train, xquad-dev, "
        "xquad-kinds-heldout, xquad-kinds-train, cmrc-heldout, cmrc-train); "
        "its corpus is indexed under var/public/NAME",
    )
    ev.add_argument("--public-dir", type=Path, metavar="DIR", help="the public sets (default ../shared/eval/public)")
    ev.add_argument(
        "--title-line",
        choices=("with", "without", "both"),
        default="with",
        help="public sets: documents opening with their title line, as bare text, or both (default with)",
    )
    ev.add_argument(
        "--english-view",
        choices=("glossed", "rendered", "both"),
        default="glossed",
        help="public sets: XQuAD's corpus as indexed without a model (glossed, as the outside checks index it), "
        "as enriched (rendered: the package's renderings beside it), or both (default glossed)",
    )
    ev.add_argument("--k", type=int, default=5, metavar="N")
    ev.add_argument("--json", action="store_true")
    ev.add_argument("--compare", action="store_true", help="every bundled embedder × dense/lexical/hybrid")
    ev.add_argument("--failures", action="store_true", help="list the questions that failed")
    ev.add_argument(
        "--llm",
        action="store_true",
        help="also answer through the configured LLM (LLM_*), reported beside extractive; with LLM_WRITE=0, "
        "and for public sets, the answers of the engine with the model's check",
    )

    sub.add_parser("chat", parents=[common], help="interactive: ask questions in the terminal")

    tr = sub.add_parser("train", help="train the answer model on the public sets (reproducible; minutes)")
    tr.add_argument("--public-dir", type=Path, metavar="DIR", help="the public sets (default ../shared/eval/public)")
    tr.add_argument(
        "--work", type=Path, default=Path("var/train"), metavar="DIR", help="where training corpora are indexed"
    )
    tr.add_argument("--output", type=Path, metavar="FILE", help="model file (default: the package's)")
    which = tr.add_mutually_exclusive_group()
    which.add_argument(
        "--kinds", action="store_true", help="train the question-kind model instead (index/data/question_kinds.json)"
    )
    which.add_argument(
        "--about",
        action="store_true",
        help="train the model of questions about the article itself instead (index/data/about_kinds.json)",
    )

    gl = sub.add_parser("glosses", help="choose each dictionary word's English gloss with e5 (reproducible; minutes)")
    gl.add_argument("--public-dir", type=Path, metavar="DIR", help="the public sets (default ../shared/eval/public)")
    gl.add_argument("--output", type=Path, metavar="FILE", help="table file (default: the package's)")

    en = sub.add_parser(
        "enrich",
        parents=[common],
        help="render every sentence in the other language with the configured LLM (LLM_MODEL), once per corpus",
    )
    en.add_argument(
        "--beside-corpus",
        action="store_true",
        help="also write each document's renderings beside it (<document>.renderings.jsonl: what ships with a corpus)",
    )
    en.add_argument(
        "--public",
        metavar="NAME",
        choices=("xquad",),
        help="render a public training set instead (every paragraph of XQuAD's articles) into the package's data",
    )
    en.add_argument("--public-dir", type=Path, metavar="DIR", help="the public sets (default ../shared/eval/public)")
    local = sub.add_parser("local-model", parents=[common], help="assemble the local GGUF model (needs network)")
    local.add_argument("--cache", type=Path, default=Path("var/models"), metavar="DIR", help="where to keep it")
    return parser


def _settings(args: argparse.Namespace) -> IndexSettings:
    from index.config import load_settings

    return load_settings(
        index_dir=args.index,
        corpus_dir=args.corpus,
        model=args.model,
        chunk_size=getattr(args, "chunk_size", None),
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _settings(args)
        from index.cli import commands, jobs

        name = args.command.replace("-", "_")
        run = getattr(commands, name, None) or getattr(jobs, name)
        return int(run(args, settings) or EXIT_OK)
    except (InputError, IndexLoadError, EmbedderError, GenerationError) as error:
        print(f"error: {error}", file=sys.stderr)
        return exit_code(error)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except PermissionError as error:  # not a broken index: rebuilding wouldn't help
        print(f"error: permission denied: {error.filename or error}", file=sys.stderr)
        return EXIT_FAILURE
    except OSError as error:  # a folder that is a file, a full disk: one line, no traceback
        where = f" ({error.filename})" if error.filename else ""
        print(f"error: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_FAILURE
