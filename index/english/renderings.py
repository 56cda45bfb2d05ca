"""Renderings of the corpus's sentences in the other language, made once per corpus by a language
model (`python -m index enrich`), checked before use and kept in JSONL files.

A rendering is keyed by its sentence's text (a hash), the model that made it and the prompt
version: a changed sentence, model or prompt is rendered again, the rest reused. Only a *verified*
rendering is used (the index's English view, an English asker's answer line), checked again
whenever it is read: every quantity of the source is in it with the same meaning (magnitude,
unit, bound), every Latin-script name or code of the source is in it, no Chinese is left in an
English one (none but a quoted Chinese term), and its length is that of a translation. A failed
sentence keeps its word-for-word gloss.

Where renderings are read: the package's own (``index/data/renderings.jsonl``: the bundled
article's, for any corpus that holds its sentences), ``<document>.renderings.jsonl`` beside a
corpus's documents, and ``renderings.jsonl`` in the index folder (what ``enrich`` makes).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ValidationError

from index.english.dictionary import person_names
from index.text.bounds import matches, mentions
from index.text.language import detect_language
from index.text.numbers import MONTHS, Quantity, identifiers

SIDECAR_SUFFIX = ".renderings.jsonl"
CACHE_FILE = "renderings.jsonl"
# the renderings the package ships, keyed by content: the bundled article's sentences rendered once, and
# used wherever they are indexed (`--corpus` on a copy of the article reads them as corpus/ does)
SHIPPED = Path(__file__).resolve().parents[1] / "data" / CACHE_FILE
_HAN = re.compile(r"[\u3400-\u9fff]")
# two of problems()' findings, which enrich acts on: it glosses Chinese left, re-asks a dropped name
NAME_MISSING = "name missing: "
CHINESE_LEFT = "Chinese left in the English"
PERSON_MISSING = "person not named: "
_LATIN_LETTER = re.compile(r"[A-Za-z]")
_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"|'[^']*'")
# a Latin-script word a rendering must keep: a name or a code (capitalised, or with a digit)
_LATIN_NAME = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9.+\-]*[A-Za-z0-9+]|(?<![A-Za-z0-9])[A-Z](?![A-Za-z0-9])")
# the instructions enrich gives the model (index/generate/enrich.py), echoed back instead of a translation
_PROMPT_ECHO = re.compile(r"had these problems|not to translate|output only the", re.IGNORECASE)
_IMPERATIVE = "别不要勿莫"  # what 千万 goes before as an adverb
# the newest rendering method (enrich's PROMPT_VERSION) the answer model's English view was made with when
# it was trained: a newer method changes what a reader is shown, not what the model reads (view_and_shown)
VIEW_METHOD = 7
# an English rendering is about 1.5–4 times as many characters as its Chinese source
LENGTH_RATIO = (0.8, 7.0)


def sentence_key(text: str) -> str:
    """What a rendering is keyed by: the sentence's text, white space normalised."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:24]


class Rendering(BaseModel):
    """One sentence in the other language, as a model made it and the checks found it."""

    key: str  # sentence_key of the source
    source: str
    language: str  # of the rendering: "en" for a Chinese sentence, "zh" for an English one
    text: str
    model: str  # the model file's sha256 (gguf:…) or the endpoint's model name
    prompt: int  # the prompt's version
    verified: bool
    problems: list[str] = []


# an English gloss the source gives its own Chinese term, in brackets: 继续预训练（Continued Pretraining)
_OWN_GLOSS = re.compile(r"(?<=[\u3400-\u9fff])[（(][A-Za-z][^）)]*[）)]")


def _latin_names(text: str) -> list[str]:
    """The names and codes a rendering must keep: not those only in the source's bracketed English
    for its own term (a translation says the term in English anyway)."""
    text = _OWN_GLOSS.sub(" ", text)
    found = [w for w in _LATIN_NAME.findall(text) if any(c.isupper() or c.isdigit() for c in w)]
    return list(dict.fromkeys([*found, *(i for i in identifiers(text) if re.search(r"[A-Za-z]", i))]))


def _contains(text: str, word: str) -> bool:
    """``word`` in ``text`` as a word of its own (any case: "continued pretraining" renders
    (Continued Pretraining) well), or its plural (1 million H100s)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(word)}s?(?![A-Za-z0-9])", text, re.IGNORECASE) is not None


def with_source_names(source: str, rendering: str) -> str:
    """``rendering`` with each Latin-script name of ``source`` written as the source writes it: a model
    that took "Cursor" for a word ("the cursor tells it") still kept the name, only not its capital."""
    for name in _latin_names(source):
        rendering = re.sub(
            rf"(?<![A-Za-z0-9]){re.escape(name)}(?=s?(?![A-Za-z0-9]))", name, rendering, flags=re.IGNORECASE
        )
    return rendering


def _unspoken(source: str, q: Quantity) -> bool:
    """A number a translation may leave out: 一 as an article (一个消息 "a message", 一块钢板 "a steel
    plate"), a heading's or a list's ordinal (三、性能怎么样, 第一，…)."""
    if q.text.startswith("一") and q.value == 1 and not q.scaled:
        return True
    if q.text in ("千万", "万万") and source[q.end : q.end + 1] in _IMPERATIVE:
        return True  # 千万别… "by no means", an adverb before a command
    opens = not source[: q.start].strip()
    return q.kind == "ordinal" and opens and source[q.end : q.end + 1] in ("、", "，", ",", "：", ":")


def _month(source: str, q: Quantity) -> str:
    """The English name of the month a bare number before 月 names (二月 "February"; 两个月 is a count)."""
    named = q.kind == "number" and q.value is not None and q.value % 1 == 0 and 1 <= q.value <= 12
    return MONTHS[int(q.value) - 1] if named and source[q.end :].lstrip().startswith("月") else ""  # type: ignore[arg-type]


def spoken(source: str) -> list[Quantity]:
    """The quantities of ``source`` a rendering must state (not 一 as an article, not a list's ordinal)."""
    return [m.quantity for m in mentions(source) if not _unspoken(source, m.quantity)]


def names(source: str) -> list[str]:
    """The Latin-script names and codes of ``source`` a rendering must keep."""
    return _latin_names(source)


def _numeral_in(source: str, q: Quantity) -> bool:
    """A small number the source writes as a bare Chinese numeral (阶段二 "stage two", 三件事)."""
    if q.value is None or q.kind not in ("number", "ordinal") or not 0 < q.value <= 10 or q.value % 1:
        return False
    return "一二三四五六七八九十"[int(q.value) - 1] in source or (q.value == 2 and "两" in source)


def problems(source: str, rendering: str, language: str) -> list[str]:
    """Why ``rendering`` (in ``language``) is no faithful rendering of ``source``; empty if none is found."""
    text = rendering.strip()
    if not text:
        return ["empty"]
    found: list[str] = []
    if _PROMPT_ECHO.search(text):
        found.append("the prompt echoed")
    said = mentions(text)
    stated = [m for m in mentions(source) if not _unspoken(source, m.quantity)]
    for m in stated:
        month = _month(source, m.quantity) if language == "en" else ""
        if month and re.search(rf"\b{month}\b", text):  # "may" the verb is no May
            continue
        if not any(matches(r, [m]) for r in said):
            found.append(f"number missing or changed: {m.quantity.text}")
    for r in said:
        if r.quantity.spelled:
            continue  # "first" is as often a word ("I first say") as a number
        if not matches(r, stated) and not _numeral_in(source, r.quantity):
            found.append(f"number not in the source: {r.quantity.text}")
    for name in _latin_names(source):
        if not _contains(text, name):
            found.append(f"{NAME_MISSING}{name}")
    if language == "en":
        for word, parts in persons(source):
            if not any(re.search(rf"(?<![A-Za-z]){re.escape(part)}", text, re.IGNORECASE) for part in parts):
                found.append(f"{PERSON_MISSING}{' '.join(parts)} ({word})")
        if _HAN.search(_QUOTED.sub(_quoted_term, text)):
            found.append(CHINESE_LEFT)
        low, high = LENGTH_RATIO
        if not low * len(source) <= len(text) <= high * len(source) + 40:
            found.append(f"length {len(text)} for a source of {len(source)}")
    elif language == "zh" and not _HAN.search(text):
        found.append("no Chinese in the Chinese")
    return found


def persons(source: str) -> list[tuple[str, tuple[str, ...]]]:
    """The people a Chinese sentence names in Chinese that the dictionary knows by name (马斯克 → Elon
    Musk): a rendering naming none of their names' words, even inside a word (Calvinism), is wrong
    whatever else it says (the model wrote "Mark", "Mars Express" for 马斯克)."""
    return [(word, person_names()[word]) for word in dict.fromkeys(_person_pattern().findall(source))]


@lru_cache(maxsize=1)
def _person_pattern() -> re.Pattern[str]:
    return re.compile("|".join(map(re.escape, sorted(person_names(), key=len, reverse=True))))


def target_language(text: str, document_language: str) -> str | None:
    """The language a sentence is rendered in, or None when it needs none (it is already in the
    other language, or holds no words)."""
    own = document_language if document_language in ("zh", "en") else detect_language(text)
    if not re.search(r"[A-Za-z\u3400-\u9fff]", text) or detect_language(text) != own:
        return None
    return "en" if own == "zh" else "zh"


def _quoted_term(match: re.Match[str]) -> str:
    """A quoted Chinese term ("套壳") may stay in the English; Chinese glued to English words inside
    quotes ("most懂 code") is a half-done translation, and is kept to be caught."""
    return match.group() if _LATIN_LETTER.search(match.group()) else ""


def read(path: Path) -> Iterator[Rendering]:
    """The renderings of one JSONL file (a line that doesn't parse, a file cut off mid-line: skipped)."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            yield Rendering.model_validate_json(line)
        except ValidationError:
            continue


def sources(corpus_dir: Path, index_dir: Path | None = None) -> list[Path]:
    """Where a corpus's renderings are, a later one's winning: the package's (SHIPPED), the sidecars
    beside its documents, then the index's own file."""
    found = sorted(corpus_dir.rglob(f"*{SIDECAR_SUFFIX}")) if corpus_dir.is_dir() else []
    return [SHIPPED, *found, *([index_dir / CACHE_FILE] if index_dir is not None else [])]


def _passing(paths: Iterable[Path]) -> Iterator[Rendering]:
    """The renderings of ``paths``, in order, that pass the checks as they are now: a better check
    applies to renderings made before it, without the model."""
    for path in paths:
        for rendering in read(path):
            if rendering.text and not problems(rendering.source, rendering.text, rendering.language):
                yield rendering


def verified(paths: Iterable[Path]) -> dict[str, Rendering]:
    """The rendering of each sentence key that passes the checks as they are now (a later file's or
    line's wins)."""
    return {rendering.key: rendering for rendering in _passing(paths)}


def view_and_shown(paths: Iterable[Path]) -> tuple[dict[str, Rendering], dict[str, Rendering]]:
    """Of each sentence key, the verified rendering the English view reads and the one a reader is
    shown. The view takes one made by a method the answer model was trained on (VIEW_METHOD) where
    there is one, else the newest; the reader always the newest."""
    known: dict[str, Rendering] = {}
    newer: dict[str, Rendering] = {}
    for rendering in _passing(paths):
        (known if rendering.prompt <= VIEW_METHOD else newer)[rendering.key] = rendering
    return newer | known, known | newer


def kept(paths: Sequence[Path]) -> tuple[dict[str, Rendering], dict[str, Rendering]]:
    """What a file of renderings keeps of each sentence (a corpus's sidecar, the public sets' file): the
    one the English view reads, and the newest that passes today's checks, else the latest made."""
    view, shown = view_and_shown(paths)
    return view, {r.key: r for path in paths for r in read(path)} | shown


class Writer:
    """Appends renderings to a JSONL file, each line flushed: a killed run loses at most the item
    it was making."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file: IO[str] = path.open("a", encoding="utf-8")

    def write(self, rendering: Rendering) -> None:
        self._file.write(json.dumps(rendering.model_dump(), ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def write_file(target: Path, keys: Sequence[str], *renderings: Mapping[str, Rendering]) -> int:
    """The renderings of ``keys`` (those there are, in that order; of each key, those of every mapping
    that differ, in the mappings' order) as the whole of ``target``, replaced at once (a reader never
    sees half a file); returns how many were written."""
    tmp = target.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    written = 0
    with Writer(tmp) as writer:
        for key in keys:
            for rendering in {m[key].model_dump_json(): m[key] for m in renderings if key in m}.values():
                writer.write(rendering)
                written += 1
    tmp.replace(target)
    return written


__all__ = [
    "CACHE_FILE",
    "CHINESE_LEFT",
    "NAME_MISSING",
    "PERSON_MISSING",
    "SHIPPED",
    "SIDECAR_SUFFIX",
    "VIEW_METHOD",
    "Rendering",
    "Writer",
    "kept",
    "names",
    "problems",
    "read",
    "sentence_key",
    "sources",
    "spoken",
    "target_language",
    "verified",
    "view_and_shown",
    "write_file",
]
