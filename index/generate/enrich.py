"""Every sentence of a corpus rendered in the other language, once per corpus, by the configured model
(`python -m index enrich`): the question path never generates, so a model too slow to answer
questions can still translate the article while it is built.

A paragraph is translated at once, its sentences numbered, so that each sentence has its
paragraph's context and keeps its alignment. Amounts are handed to the model already in the other
language (the project's own 600 亿美元 → US$60 billion), then every rendering is checked
(index.english.renderings.problems); a failed one is asked again alone, with its paragraph as
context and its problems named; failing again, it is asked clause by clause without its paragraph
(a long sentence the model cut short, a number it borrowed from the paragraph), and if that fails
too its sentence keeps the word-for-word gloss. A verified rendering is never made again; a failed
one is, when the method (PROMPT_VERSION) is newer than the one that failed. Every ask is greedy:
the checks are necessary, not sufficient, and sampled drafts pass them with wrong meanings.
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
    SIDECAR_SUFFIX,
    Rendering,
    Writer,
    names,
    problems,
    read,
    sentence_key,
    sources,
    spoken,
    target_language,
    write_file,
)
from index.errors import GenerationError, UsageError
from index.generate.clauses import clauses_of, joined
from index.generate.settings import LLMSettings
from index.text.amounts import renderings

# 3: a sentence failing twice is asked clause by clause; 4: one that drops only the names it opens with
# is asked again with the reply begun with them; 5: a list item is asked without its mark; 6: a rendering
# names the people its sentence names in Chinese (renderings.PERSON_MISSING)
PROMPT_VERSION = 6
_LANGUAGE_NAMES = {"en": "English", "zh": "Simplified Chinese"}
_SYSTEM = (
    "You translate {source} into natural, fluent {target} for readers of an article about technology. "
    "Translate each numbered line into one numbered {target} line, in the same order. Copy names, "
    "numbers, amounts and words already in {target} exactly as they are written. Output only the "
    "numbered {target} lines."
)
_RETRY = (
    "Context, not to translate:\n{paragraph}\n\nTranslate only this sentence into one line of natural "
    "{target}{keep}. An earlier translation had these problems: {problems}. Output only the translation.\n\n"
    "{sentence}"
)
_NUMBERED = re.compile(r"^\s*(\d+)\s*[.)、:：]\s*(.+?)\s*$")
# a list item's mark: read as "1. • …", the local model answered nothing for two of the article's items
_LIST_MARK = re.compile(r"^\s*[•·▪◦‣*+\-]\s+")


@dataclass(frozen=True)
class Item:
    """A sentence of the corpus to render, and where it is."""

    key: str
    text: str
    language: str  # of the rendering
    document: str  # the document's path in the corpus


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


def prepared(text: str, language: str) -> str:
    """A sentence as the model reads it: without a list item's mark, a table row's cells apart, amounts
    already in English."""
    text = _LIST_MARK.sub("", text, count=1)
    if language == "en":
        for written, english in _fixed(text):
            text = text.replace(written, f" {english} ", 1)
    return re.sub(r" {2,}", " ", text.replace("\t", " | ")).strip()


def _fixed(text: str) -> list[tuple[str, str]]:
    """(as written, in English) of the amounts a rendering must state, as the project renders them."""
    kept = {q.text for q in spoken(text)}
    return [(written, english) for written, english in renderings(text) if written in kept]


class Translator:
    """Asks the model for renderings through ``chat.completions.create`` (a local model or an endpoint)."""

    def __init__(self, client: Any, llm: LLMSettings) -> None:
        self.client = client
        self.llm = llm

    def _ask(self, system: str, user: str, budget: int, begun: str = "") -> str:
        """The model's reply; ``begun``: the reply's start, sent as a last assistant message for the
        model to go on from (a model served by llama.cpp does; another endpoint answers afresh)."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        messages += [{"role": "assistant", "content": begun}] if begun else []
        reply = self.client.chat.completions.create(
            model=self.llm.model or "",
            messages=messages,
            max_tokens=min(self.llm.max_tokens * 4, budget),
            temperature=0.0,
        )
        return str(reply.choices[0].message.content or "")

    def paragraph(self, items: Sequence[Item]) -> list[str]:
        """One rendering per item ("" where the reply has no line for it)."""
        target = items[0].language
        source = _LANGUAGE_NAMES["zh" if target == "en" else "en"]
        system = _SYSTEM.format(source=source, target=_LANGUAGE_NAMES[target])
        user = "\n".join(f"{n}. {prepared(item.text, target)}" for n, item in enumerate(items, 1))
        lines: dict[int, str] = {}
        for line in self._ask(system, user, _budget(user)).splitlines():
            match = _NUMBERED.match(line)
            if match and 1 <= int(match.group(1)) <= len(items):
                lines.setdefault(int(match.group(1)), match.group(2))
        return [lines.get(n, "") for n in range(1, len(items) + 1)]

    def sentence(self, item: Item, paragraph: Sequence[Item], found: Sequence[str]) -> str:
        """One sentence again, alone, with its paragraph as context and its problems named."""
        target = _LANGUAGE_NAMES[item.language]
        kept = [f"{written} = {english}" for written, english in _fixed(item.text)] if item.language == "en" else []
        kept += names(item.text)
        user = _RETRY.format(
            paragraph=" ".join(i.text for i in paragraph),
            target=target,
            keep=f", writing these exactly so: {'; '.join(kept)}" if kept else "",
            problems="; ".join(found),
            sentence=prepared(item.text, item.language),
        )
        system = f"You are a careful translator into {target}."
        lines = self._ask(system, user, _budget(item.text)).strip().splitlines()
        return lines[0] if lines else ""

    def led(self, item: Item, lead: str) -> str:
        """One sentence alone, the reply begun with ``lead`` (another endpoint's whole reply is checked
        as it is)."""
        system = _SYSTEM.format(source=_LANGUAGE_NAMES["zh"], target=_LANGUAGE_NAMES[item.language])
        user = f"1. {prepared(item.text, item.language)}"
        lines = self._ask(system, user, _budget(item.text), begun=f"1. {lead}").strip().splitlines()
        numbered = _NUMBERED.match(lines[0]) if lines else None
        line = numbered.group(2) if numbered else (lines[0] if lines else "")
        goes_on = line[:1].islower() or line[:1] in "'’,"  # only what follows the lead ("'s response …")
        return f"{lead}{line}" if goes_on and not line.startswith(lead) else line

    def clauses(self, item: Item) -> str:
        """A Chinese sentence's clauses as numbered lines, with no paragraph to borrow from, joined
        again with the sentence's own punctuation ("" when the reply lacks a clause)."""
        parts = clauses_of(item.text)
        made = self.paragraph([Item(item.key, part, item.language, item.document) for part, _ in parts])
        if not all(made):
            return ""
        return joined([(line, mark) for line, (_, mark) in zip(made, parts, strict=True)])


def _opening_names(text: str) -> str:
    """The Latin-script words a Chinese sentence opens with ("Cursor CEO Michael Truell 的…"): its
    English opens with them too, the subject, which a model asked plainly dropped."""
    found = re.match(r"[A-Za-z][\w.+\-]*(?: [A-Za-z0-9][\w.+\-]*)*(?= ?[\u3400-\u9fff])", text.strip())
    return found.group() if found else ""


def _marked(source: str, line: str) -> str:
    """A rendering of a list item with the item's mark, as its source has it (the model was asked
    without it)."""
    mark = _LIST_MARK.match(source)
    if not mark or not line or _LIST_MARK.match(line):
        return line
    return f"{mark.group().strip()} {line}"


def _budget(text: str) -> int:
    """Tokens a translation of ``text`` may take: about two per character, so that a model caught
    repeating itself stops soon (a Chinese character is about one English word's worth)."""
    return 48 + 2 * len(text)


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
        lead = _opening_names(item.text)
        if found and item.language == "en" and lead and all(p.startswith(NAME_MISSING) for p in found):
            fourth = translator.led(item, lead)
            if fourth and not problems(item.text, fourth, item.language):
                line, found = fourth, []
        line = _marked(item.text, line)
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
    done = {pair for pair, r in latest.items() if r.verified or r.prompt >= PROMPT_VERSION}
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
        translator = Translator(client, llm)
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
    """Each document's renderings (the latest of each of its sentences) in ``<document>.renderings.jsonl``."""
    latest = {r.key: r for path in sources(settings.corpus_dir, settings.index_dir) for r in read(path)}
    written = []
    for doc in documents:
        keys = [i.key for p in paragraphs for i in p if i.document == doc.path]
        path = settings.corpus_dir / doc.path
        target = path.with_name(path.name[: -len(path.suffix)] + SIDECAR_SUFFIX)
        if not any(k in latest for k in keys):
            continue
        write_file(target, keys, latest)
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
