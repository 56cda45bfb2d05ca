"""Every sentence of a corpus rendered in the other language, once per corpus, by the configured model
(`python -m index enrich`): the question path never generates, so a model too slow to answer
questions can still translate the article while it is built.

A paragraph is translated at once, its sentences numbered, so that each sentence has its
paragraph's context and keeps its alignment. Amounts are handed to the model already in the other
language (the project's own 600 亿美元 → US$60 billion), then every rendering is checked
(index.english.renderings.problems); a failed one is asked again alone, with its paragraph as
context and its problems named; failing again, it is asked clause by clause without its paragraph
(a long sentence the model cut short, a number it borrowed from the paragraph), and if that fails
too its sentence keeps the word-for-word gloss. A verified rendering is made again only when every
sentence is asked differently since (REMADE_BEFORE), and the older one ships beside the new: the answer
model's English view reads the method it was trained on (renderings.VIEW_METHOD), a reader the newest.
A failed one is made again when the method (PROMPT_VERSION) is newer than the one that failed. Every
ask is greedy: the checks are necessary, not sufficient, and sampled drafts pass them with wrong meanings.
Each result is written as soon as it is made: a killed run loses at most the paragraph in hand, and
the next run renders only what lacks a rendering by this model and prompt.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from index.build.builder import chunk_sentences
from index.build.chunking import chunk_document, split_paragraphs
from index.build.corpus import Document, load_corpus
from index.build.store import sentence_text
from index.config import IndexSettings
from index.english.lexicon import build_lexicon, corpus_words, own_names
from index.english.render import gloss_sentence
from index.english.renderings import (
    CACHE_FILE,
    CHINESE_LEFT,
    NAME_MISSING,
    SHIPPED,
    SIDECAR_SUFFIX,
    Rendering,
    Writer,
    kept,
    problems,
    read,
    sentence_key,
    sources,
    target_language,
    write_file,
)
from index.errors import GenerationError, UsageError
from index.generate.settings import LLMSettings
from index.generate.translator import Item, Translator, marked, opening_names

# 3: a sentence failing twice is asked clause by clause; 4: one that drops only the names it opens with
# is asked again with the reply begun with them; 5: a list item is asked without its mark; 6: a rendering
# names the people its sentence names in Chinese (renderings.PERSON_MISSING); 7: those people are handed
# to the model by their English names, as amounts are; 8: asked for meaning, not word by word, after a worked
# example, the corpus's own names for its terms handed over in English (every sentence asked anew)
PROMPT_VERSION = 8
# a rendering made by a prompt older than this is made again, verified or not: every sentence is asked
# differently since; until its new one passes the checks, the older verified one stays in use
REMADE_BEFORE = 8


@dataclass
class EnrichResult:
    sentences: int = 0  # the corpus's sentences that want a rendering
    reused: int = 0
    verified: int = 0
    failed: int = 0  # kept their gloss
    repaired: int = 0  # made before, checked again by today's checks: now verified (Chinese left glossed) or failed
    seconds: float = 0.0
    written: list[Path] = field(default_factory=list)

    def summary(self, path: Path) -> str:
        made = self.verified + self.failed
        return (
            f"enriched {made} of {self.sentences} sentences ({self.reused} already rendered): "
            f"{self.verified} verified, {self.failed} kept their gloss, {self.repaired} repaired, "
            f"{self.seconds:.0f} s → {path}"
        )


def corpus_paragraphs(settings: IndexSettings, documents: Sequence[Document] | None = None) -> list[list[Item]]:
    """The corpus's sentences as the index cuts them, grouped by paragraph, in corpus order."""
    found: list[list[Item]] = []
    for doc in documents if documents is not None else load_corpus(settings.corpus_dir):
        chunks = chunk_document(doc.doc_id, doc.text, doc.meta.title, settings.chunk_size, settings.chunk_overlap)
        starts = [p.start for p in split_paragraphs(doc.text)]
        by_paragraph: dict[int, list[Item]] = {}
        seen: set[str] = set()
        for sentence in chunk_sentences(chunks):
            text = sentence_text(chunks, sentence)
            language = target_language(text, doc.meta.language)
            key = sentence_key(text)
            if language is None or key in seen:
                continue
            seen.add(key)
            paragraph = bisect.bisect_right(starts, sentence.start)
            by_paragraph.setdefault(paragraph, []).append(Item(key, text, language, doc.path))
        found += [by_paragraph[p] for p in sorted(by_paragraph)]
    return found


def model_id(llm: LLMSettings) -> str:
    """What a rendering's model is known by: a local file by its SHA-256, an endpoint's by its name."""
    path = llm.local_path
    if path is None:
        return str(llm.model)
    if not path.is_file():
        raise UsageError(f"no model file at {path}: run `make local-model` or set LLM_MODEL=gguf:<file>")
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return f"sha256:{digest.hexdigest()}"


def repaired(item: Item, text: str, lexicon: Mapping[str, str]) -> str | None:
    """A rendering whose one fault is Chinese the model left in it (对标, 门槛), those words glossed as
    the English line glosses them; None when it has other faults or still fails."""
    if item.language != "en" or not text or set(problems(item.text, text, "en")) != {CHINESE_LEFT}:
        return None

    def glossed(m: re.Match[str]) -> str:  # spaced from the words beside it, not from a quote mark
        before = " " if m.start() and text[m.start() - 1].isalnum() else ""
        after = " " if m.end() < len(text) and text[m.end()].isalnum() else ""
        return f"{before}{gloss_sentence(m.group(), lexicon).strip()}{after}"

    fixed = re.sub(r" {2,}", " ", re.sub(r"[\u3400-\u9fff]+", glossed, text)).strip()
    return fixed if not problems(item.text, fixed, "en") else None


def _render(
    translator: Translator, paragraph: Sequence[Item], model: str, lexicon: Mapping[str, str]
) -> list[Rendering]:
    made = []
    for item, line in zip(paragraph, translator.paragraph(paragraph), strict=True):
        found = problems(item.text, line, item.language) if line else ["no line for it"]
        if found:
            line = repaired(item, line, lexicon) or line
            found = problems(item.text, line, item.language) if line else found
        if found:
            again = translator.sentence(item, paragraph, found)
            again = repaired(item, again, lexicon) or again
            second = problems(item.text, again, item.language)
            line, found = (again, second) if again else (line, found)
        if found and item.language == "en":
            third = translator.clauses(item)
            third = repaired(item, third, lexicon) or third
            if third and not problems(item.text, third, item.language):
                line, found = third, []
        lead = opening_names(item.text)
        if found and item.language == "en" and lead and all(p.startswith(NAME_MISSING) for p in found):
            fourth = translator.led(item, lead)
            if fourth and not problems(item.text, fourth, item.language):
                line, found = fourth, []
        line = marked(item.text, line)
        made.append(Rendering(key=item.key, source=item.text, language=item.language, text=line, model=model,
                              prompt=PROMPT_VERSION, verified=not found, problems=found))  # fmt: skip
    return made


def enrich(
    settings: IndexSettings,
    llm: LLMSettings,
    *,
    beside_corpus: bool = False,
    progress: bool = True,
    client: Any = None,
    model: str | None = None,
    say: Callable[[str], None] = print,
) -> EnrichResult:
    """Render what lacks a rendering by this model and prompt; ``beside_corpus`` also writes each
    document's renderings beside it (what ships with a corpus)."""
    started = time.perf_counter()
    if not llm.enabled:
        raise UsageError("enrich needs a model: LLM_MODEL=gguf:<file> (make local-model) or LLM_BASE_URL and LLM_MODEL")
    model = model or model_id(llm)
    documents = load_corpus(settings.corpus_dir)
    paragraphs = corpus_paragraphs(settings, documents)
    cache = settings.index_dir / CACHE_FILE
    texts = [doc.text for doc in documents]
    lexicon = build_lexicon(corpus_words(texts), own_names(texts))
    # today's checks first: what they verify is not asked again, what they refuse since is
    repaired = _repair_kept(settings, paragraphs, model, lexicon)
    latest = {(r.key, r.model): r for path in sources(settings.corpus_dir, settings.index_dir) for r in read(path)}
    done = {
        pair for pair, r in latest.items() if r.prompt >= REMADE_BEFORE and (r.verified or r.prompt >= PROMPT_VERSION)
    }
    wanted = [[i for i in p if (i.key, model) not in done] for p in paragraphs]
    result = EnrichResult(sentences=sum(len(p) for p in paragraphs), repaired=repaired)
    result.reused = result.sentences - sum(len(p) for p in wanted)
    todo = [p for p in wanted if p]
    if todo:
        if client is None:
            from index.generate.generator import chat_client
            from index.generate.local_llm import LocalModelError

            try:
                client = chat_client(llm)
            except LocalModelError as error:
                raise UsageError(str(error)) from None
        translator = Translator(client, llm, own_names(texts))
        bar = _bar(sum(len(p) for p in todo)) if progress else None
        try:
            with Writer(cache) as writer:
                for paragraph in todo:
                    try:
                        made = _render(translator, paragraph, model, lexicon)
                    except Exception as error:  # the client's errors are many types (openai, llama.cpp, sockets)
                        done_now = result.verified + result.failed
                        raise GenerationError(
                            f"the model failed ({type(error).__name__}: {str(error)[:160]}); the {done_now} sentences "
                            f"rendered before are kept in {cache}: run enrich again to go on"
                        ) from None
                    for rendering in made:
                        writer.write(rendering)
                        result.verified += rendering.verified
                        result.failed += not rendering.verified
                    if bar is not None:
                        bar.update(len(paragraph))
        finally:
            if bar is not None:
                bar.close()
    if beside_corpus:
        result.written = _write_sidecars(settings, documents, paragraphs)
    result.seconds = time.perf_counter() - started
    say(result.summary(cache))
    return result


def _repair_kept(settings: IndexSettings, paragraphs: list[list[Item]], model: str, lexicon: Mapping[str, str]) -> int:
    """Renderings this model made before, checked again with today's checks (no model needed): a
    failed one that passes as it is, or once the Chinese left in it is glossed, is verified; a
    verified one that fails now is repaired so, or marked failed. Returns how many changed."""
    items = {i.key: i for p in paragraphs for i in p}
    latest = {r.key: r for path in sources(settings.corpus_dir, settings.index_dir) for r in read(path)}
    fixed = []
    for key, rendering in latest.items():
        if key not in items or rendering.model != model:
            continue
        item = items[key]
        found = problems(item.text, rendering.text, item.language) if rendering.text else ["no line for it"]
        if rendering.verified and not found:
            continue
        text = rendering.text if not found else repaired(item, rendering.text, lexicon)
        if text is not None:
            fixed.append(rendering.model_copy(update={"text": text, "verified": True, "problems": []}))
        elif rendering.verified:
            fixed.append(rendering.model_copy(update={"verified": False, "problems": found}))
    if fixed:
        with Writer(settings.index_dir / CACHE_FILE) as writer:
            for rendering in fixed:
                writer.write(rendering)
    return len(fixed)


def _write_sidecars(settings: IndexSettings, documents: Sequence[Document], paragraphs: list[list[Item]]) -> list[Path]:
    """Each document's renderings in ``<document>.renderings.jsonl``: of each sentence the one its English
    view reads (renderings.view_and_shown), then the latest that passes today's checks, else its latest;
    none the package ships already (renderings.SHIPPED)."""
    view, latest = kept(sources(settings.corpus_dir, settings.index_dir))
    shipped = {r.model_dump_json() for r in read(SHIPPED)}
    view, latest = ({k: r for k, r in m.items() if r.model_dump_json() not in shipped} for m in (view, latest))
    written = []
    for doc in documents:
        keys = [i.key for p in paragraphs for i in p if i.document == doc.path]
        path = settings.corpus_dir / doc.path
        target = path.with_name(path.name[: -len(path.suffix)] + SIDECAR_SUFFIX)
        if not any(k in latest or k in view for k in keys):
            continue
        write_file(target, keys, view, latest)
        written.append(target)
    return written


def _bar(total: int):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    return tqdm(total=total, desc="rendering", unit="sentence")


__all__ = [
    "PROMPT_VERSION",
    "EnrichResult",
    "Item",
    "Translator",
    "corpus_paragraphs",
    "enrich",
    "model_id",
]
