"""The public training articles rendered once by the local model (`python -m index enrich --public
xquad`, `make enrich-public`): every paragraph of XQuAD's 36 Chinese articles, so that training and
`eval --public` can index them with the English view a user's enriched corpus has. XQuAD is the one
public set with English questions, the only ones the English view serves.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from index.config import load_settings
from index.english.renderings import CACHE_FILE, kept, write_file
from index.evaluate import public
from index.generate.enrich import EnrichResult, corpus_paragraphs, enrich
from index.generate.settings import LLMSettings

SETS = {"xquad": public.XQUAD_RENDERINGS}


def enrich_public(
    name: str,
    llm: LLMSettings,
    work: Path = Path("var/enrich"),
    folder: Path | None = None,
    output: Path | None = None,
    say: Callable[[str], None] = print,
) -> EnrichResult:
    """Render every sentence of the public set ``name`` (resumable in ``work``), then write its
    renderings, verified or not, to ``output`` (the package's file by default): of each sentence the
    one the English view reads and the newest, as a corpus's sidecar holds them."""
    if name not in SETS:
        raise ValueError(f"unknown public set {name!r}; one of: {', '.join(SETS)}")
    folder = folder or public.public_dir()
    articles = public.load_squad(folder / public.XQUAD_ZH)
    whole = public.protocol_set(name, articles, leave_out=None, languages=("zh",))
    corpus = public.write_corpus(whole, work / name / "corpus")
    settings = load_settings(corpus_dir=corpus, index_dir=work / name / "index")
    result = enrich(settings, llm, say=say)
    keys = [i.key for p in corpus_paragraphs(settings) for i in p]
    target = output or SETS[name]
    # the renderings the English view was trained on stay beside a newer method's (renderings.kept)
    view, latest = kept([target, settings.index_dir / CACHE_FILE])
    written = write_file(target, keys, view, latest)
    covered = sum(1 for key in keys if key in latest)
    say(f"{covered} of {len(keys)} sentences' renderings ({written} lines) → {target}")
    return result


__all__ = ["SETS", "enrich_public"]
