"""Running the public protocol: a set's corpus written and indexed, its questions asked of an engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from index.config import IndexSettings, load_settings
from index.evaluate import public
from index.evaluate.metrics import PublicMetrics, public_metrics, public_row
from index.text.language import QuestionError


def indexed(public_set: public.PublicSet, folder: Path, base: IndexSettings | None = None) -> IndexSettings:
    """``base`` settings (the defaults if None) for the set's corpus, written to ``folder``/corpus and
    indexed in ``folder``/index (texts already embedded there are not embedded again)."""
    from index.build.builder import build_index

    corpus = public.write_corpus(public_set, folder / "corpus", public_set.renderings)
    settings = (base or load_settings()).model_copy(update={"corpus_dir": corpus, "index_dir": folder / "index"})
    build_index(settings, progress=False)
    return settings


def ask_public(
    engine: object,
    questions: Sequence[public.PublicQuestion],
    english_answers: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, PublicMetrics]:
    """Per-language metrics of the public protocol for these questions, asked of ``engine``;
    ``english_answers``: English questions' English gold, by question id (XQuAD)."""
    rows: dict[str, list[tuple[str, dict[str, bool | None]]]] = {}
    for question in questions:
        try:
            result = engine.ask(question.q)  # type: ignore[attr-defined]
        except QuestionError:
            continue
        row = public_row(question.gold, result, (english_answers or {}).get(question.id, ()))
        rows.setdefault(question.lang, []).append((question.kind, row))
    return {lang: public_metrics(r) for lang, r in sorted(rows.items())}
