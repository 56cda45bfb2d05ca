"""The CLI's commands, one function each: (args, settings) → exit code. Output formatting lives here."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from index.answer.messages import message
from index.build.store import ENGLISH_VIEW, MANIFEST, VERSIONS
from index.build.versions import current_version
from index.config import IndexSettings
from index.errors import EXIT_OK, IndexLoadError, QuestionError, UsageError
from index.models import AskResult, Passage


def build(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.build.builder import build_index

    result = build_index(settings, force=args.force, progress=not args.quiet and sys.stderr.isatty())
    print(result.summary(settings.index_dir))
    return EXIT_OK


def stats(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.build.store import Manifest

    version = current_version(settings.index_dir)
    if version is None:
        raise IndexLoadError(f"no index in {settings.index_dir}; run `python -m index build`")
    path = settings.index_dir / VERSIONS / version
    try:
        manifest = Manifest.model_validate_json((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise IndexLoadError(f"cannot read {path / MANIFEST} ({error}); run `python -m index build --force`") from None
    size = sum(f.stat().st_size for f in path.iterdir() if f.is_file())
    print(f"index      {path}")
    print(
        f"version    {version}  (built {manifest.built_at} in {manifest.build_seconds:.1f} s, "
        f"package {manifest.package_version}, schema {manifest.schema_version})"
    )
    print(f"embedder   {manifest.embedder_name}  [{manifest.embedder_id}], dim {manifest.dim}")
    print(f"chunker    size {manifest.chunker.size} chars, overlap {manifest.chunker.overlap} sentences")
    print(
        f"vectors    {manifest.index_type}, {manifest.chunk_count} chunks, {manifest.sentence_count} sentences, "
        f"{size / 1024:.0f} KiB on disk"
    )
    print(f"reused     {manifest.reused_embeddings} embeddings at the last build")
    print(f"english    {_english_summary(path / ENGLISH_VIEW, manifest.sentence_count)}")
    print(f"documents  {len(manifest.documents)}")
    for doc in manifest.documents:
        meta = doc.meta
        print(
            f"  {meta.doc_id}: {doc.path}  “{meta.title}” {meta.author} {meta.date} [{meta.language}] "
            f"sha256 {doc.sha256[:12]}"
        )
    return EXIT_OK


def _english_summary(path: Path, sentences: int) -> str:
    """How many sentences the English view holds as verified translations (the others as they are
    written in English, or glossed word for word), and how many readers are shown a newer method's."""
    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            rendered = int(data["rendered"].sum()) if "rendered" in data else 0
            shown = int((np.char.str_len(data["shown"]) > 0).sum()) if "shown" in data else 0
    except (OSError, ValueError, KeyError):
        return "no English view stored (python -m index build makes one)"
    newer = f"; {shown} shown to readers as a newer method renders them" if shown else ""
    return f"{rendered} of {sentences} sentences as verified translations (the others: own English or a gloss){newer}"


def chunks(args: argparse.Namespace, settings: IndexSettings) -> int:
    from index.build.chunking import chunk_document
    from index.build.corpus import load_corpus

    documents = load_corpus(settings.corpus_dir)
    if args.doc and args.doc not in {d.doc_id for d in documents}:
        raise UsageError(f"no document {args.doc!r}; documents: {', '.join(d.doc_id for d in documents)}")
    for doc in documents:
        if args.doc and doc.doc_id != args.doc:
            continue
        for chunk in chunk_document(doc.doc_id, doc.text, doc.meta.title, settings.chunk_size, settings.chunk_overlap):
            if args.json:
                print_json(chunk.model_dump())
            else:
                paragraphs = ",".join(map(str, chunk.paragraphs))
                print(f"── {chunk.chunk_id}  {chunk.section}  ¶{paragraphs}  [{chunk.start}:{chunk.end}]")
                print(chunk.text)
                print()
    return EXIT_OK


def print_json(obj: object) -> None:
    """One JSON line, valid UTF-8 whatever the input held (a lone surrogate becomes U+FFFD)."""
    sys.stdout.write(valid_text(json.dumps(obj, ensure_ascii=False)) + "\n")
    sys.stdout.flush()


_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_text(text: str) -> str:
    """``text`` with what isn't Unicode text (the surrogates Python uses for undecodable bytes of
    argv or stdin) replaced by U+FFFD, so that it encodes as UTF-8."""
    return _SURROGATE.sub("\ufffd", text)


def _stdin_lines() -> Iterator[str]:
    """stdin's lines decoded as UTF-8, an invalid byte becoming U+FFFD (not an exception, not
    an escape that can't be written out again)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream standing in for stdin
        yield from (valid_text(line) for line in sys.stdin)
        return
    for raw in binary:
        yield raw.decode("utf-8", "replace")


def _say(line: str) -> None:
    print(line, file=sys.stderr)


def _engine(settings: IndexSettings, llm: bool | None = False, warm: bool = False):  # type: ignore[no-untyped-def]
    """An Engine over the index, building it first (said on stderr) if there is none yet; ``warm``:
    with the model loaded and the glossary's words embedded, as the bot starts."""
    from index.generate.settings import llm_for_flag
    from index.startup import open_engine

    llm_settings = llm_for_flag(llm)  # a bad LLM_* setting fails now, before any build
    return open_engine(settings, llm_settings, report=_say, warm=warm)


def _k(args: argparse.Namespace) -> int | None:
    if args.k is not None and not 1 <= args.k <= 50:
        raise UsageError("--k must be between 1 and 50")
    return args.k


def search(args: argparse.Namespace, settings: IndexSettings) -> int:
    k = _k(args)
    # a QuestionError is an input error: exit 2
    result = _engine(settings).search(args.question, k, args.mode)
    if args.json:
        print_json(result.model_dump())
    else:
        for passage in result.passages:
            print(_passage_line(passage))
            print("   " + passage.text.replace("\n", "\n   "))
    return EXIT_OK


def ask(args: argparse.Namespace, settings: IndexSettings) -> int:
    k = _k(args)
    if args.question == "-":
        if not args.json:
            raise UsageError("reading questions from stdin ('-') needs --json")
        return _ask_stream(settings, k, args.mode, args.llm)
    result = _engine(settings, args.llm).ask(args.question, k, mode=args.mode)
    if args.json:
        print_json(contract_json(result))
    else:
        print(render_answer(result))
    return EXIT_OK


def _ask_stream(settings: IndexSettings, k: int | None, mode: str, llm: bool | None = None) -> int:
    """One question per stdin line → one JSON object per line; the model is loaded once."""
    engine = _engine(settings, llm, warm=True)  # each question then costs one encode, not its new words' too
    for line in _stdin_lines():
        if not line.strip():
            continue
        try:
            print_json(contract_json(engine.ask(line.rstrip("\n"), k, mode=mode)))  # type: ignore[arg-type]
        except QuestionError as error:
            print_json({"question": line.strip()[:200], "error": str(error)})
    return EXIT_OK


def contract_json(result: AskResult) -> dict:
    return result.model_dump()


def _passage_line(passage: Passage) -> str:
    paragraphs = ",".join(map(str, passage.paragraphs))
    return f"{passage.rank}. [{passage.score:.4f}] {passage.section} ¶{paragraphs} ({passage.start}–{passage.end})"


def _both(key: str) -> str:
    """A label in English and Chinese: the terminal doesn't know its reader's language."""
    return f"{message(key, 'en')} / {message(key, 'zh')}"


def render_answer(result: AskResult) -> str:
    """An answer as the terminal shows it: the answer, then its sources."""
    lines = [result.answer, ""]
    if result.citations:
        lines.append(_both("article.sources") + ":")
        for c in result.citations:
            paragraphs = ",".join(map(str, c.paragraphs))
            quote = c.quote if len(c.quote) <= 160 else c.quote[:159] + "…"
            lines.append(f"  [{c.n}] {c.section} · ¶{paragraphs} · chars {c.start}–{c.end}")
            lines.append(f"      “{quote}”")
    elif result.nearest_sections and not all(section in result.answer for section in result.nearest_sections):
        # an extractive abstention already names them; a written one may not
        lines.append(_both("answer.nearest_sections") + ": " + "；".join(result.nearest_sections))
    return "\n".join(lines).rstrip()


CHAT_CONTEXT_QUESTIONS = 3  # the earlier questions a chat question may follow up on


def chat(args: argparse.Namespace, settings: IndexSettings) -> int:
    engine = _engine(settings, llm=None)
    title = engine.snapshot.stored.manifest.documents[0].meta.title if engine.snapshot.stored.manifest.documents else ""
    print(f"Ask about “{title}” in Chinese or English. 输入问题；exit / Ctrl-D 退出。")
    # a follow-up ("那价格呢？", "他挖走了谁？") is read after these, as in a thread; older ones are let go
    earlier: deque[str] = deque(maxlen=CHAT_CONTEXT_QUESTIONS)
    while True:
        try:
            line = input("\n> ")
        except EOFError:
            print()
            return EXIT_OK
        if line.strip().lower() in {"exit", "quit", ":q", "退出"}:
            return EXIT_OK
        if not line.strip():
            continue
        try:
            result = engine.ask(line, context=tuple(earlier))
        except QuestionError as error:
            print(f"（{error}）")
            continue
        print(render_answer(result))
        earlier.append(result.question)
