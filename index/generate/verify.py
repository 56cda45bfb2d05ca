"""A model's reply checked before anyone sees it: its [n] markers parsed and renumbered, reasoning
and the sentinel recognised, language, links and grounding verified; and the streaming preview.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from index.generate.outcome import MAX_PASSAGES, SENTINEL, Check, GeneratedAnswer, GenerationFailure, Outcome
from index.models import Passage

_OPEN, _CLOSE = re.escape("[［【〔"), re.escape("]］】〕")  # escaped: they go inside [...] sets
_MARKER = re.compile(
    rf"(?P<lead>[ \t]*)[{_OPEN}]\s*(?:\^|#|(?:passage|source|ref|n)\s*=?\s*)?"
    rf"(?P<inner>[0-9０-９][0-9０-９\s,，、;；\-–—~～]*)\s*[{_CLOSE}]",
    re.IGNORECASE,
)
_RANGE = re.compile(r"^(\d+)-(\d+)$")
_CANONICAL_RUN = re.compile(r"(?:\[\d+\])+")
_CANONICAL = re.compile(r"\[(\d+)\]")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
# Upper case only: "Y is not in the article [2]" is an answer, not an abstention.
_SENTINEL_RE = re.compile(r"NOT[ _-]?IN[ _-]?(?:THE[ _-]?)?ARTICLE")
_URL = re.compile(r"(?:https?://|www\.|discord\.gg/)[^\s<>()\[\]（）【】「」\"'，。、]+", re.IGNORECASE)
_HAN = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


def _numbers(inner: str, count: int) -> list[int]:
    """Passage numbers named inside one bracket: '1', '1, 3', '1-2', '２'. Out-of-range ones go."""
    inner = re.sub(r"\s*[-–—~～]\s*", "-", unicodedata.normalize("NFKC", inner))
    found: list[int] = []
    for token in re.split(r"[,，、;；\s]+", inner):
        span = _RANGE.match(token)
        if span:
            low, high = int(span.group(1)), int(span.group(2))
            if 1 <= low <= high <= count:
                found.extend(range(low, high + 1))
        elif token.isdigit() and 1 <= int(token) <= count:
            found.append(int(token))
    return found


def _merge_run(run: re.Match[str]) -> str:
    """[1][1][2] → [1][2]."""
    return "".join(f"[{n}]" for n in dict.fromkeys(_CANONICAL.findall(run[0])))


def normalise_markers(text: str, count: int) -> tuple[str, list[int]]:
    """Every numeric citation-like bracket rewritten as canonical ``[n]`` markers naming one of the
    ``count`` passages ([0], [99] and other invalid ones stripped; [1-2] → [1][2]; 【1】 → [1]);
    adjacent duplicates merged. Returns the text and the cited numbers in order of first appearance."""

    def rewrite(match: re.Match[str]) -> str:
        numbers = list(dict.fromkeys(_numbers(match.group("inner"), count)))
        if not numbers:
            return ""  # drop the marker with the space before it
        return match.group("lead") + "".join(f"[{n}]" for n in numbers)

    text = _MARKER.sub(rewrite, text)
    text = _CANONICAL_RUN.sub(_merge_run, text)
    cited = list(dict.fromkeys(int(n) for n in _CANONICAL.findall(text)))
    return text, cited


def renumber(text: str, count: int) -> tuple[str, list[int]]:
    """Markers renumbered 1..m in order of first appearance; returns the text and, for each new
    number, the passage number it stands for (``order[new - 1] == passage``)."""
    text, order = normalise_markers(text, count)
    new_of = {passage: i for i, passage in enumerate(order, 1)}
    return _CANONICAL.sub(lambda m: f"[{new_of[int(m.group(1))]}]", text), order


def strip_reasoning(text: str) -> str:
    """Drop <think>…</think> blocks (reasoning models served through Ollama/vLLM emit them);
    an unterminated one hides everything after it."""
    text = _THINK.sub("", text)
    opened = text.lower().find("<think>")
    return text[:opened] if opened >= 0 else text


def is_sentinel(text: str) -> bool:
    return bool(_SENTINEL_RE.search(text))


def _language_ok(text: str, language: str) -> bool:
    """The answer is in the language asked for: a Chinese one has Chinese in it; an English one
    is mostly English words (quoted Chinese terms are fine; ~2 characters make a Chinese word)."""
    han, words = len(_HAN.findall(text)), len(_LATIN_WORD.findall(text))
    if language == "zh":
        return han > 0
    if language == "en":
        return han <= 2 * words
    return True


def _unsupported_links(text: str, passages: Sequence[Passage]) -> list[str]:
    corpus = "\n".join(p.text for p in passages)
    return [url for url in _URL.findall(text) if url.rstrip(".,;:!?") not in corpus]


def verify(
    raw: str | None,
    passages: Sequence[Passage],
    language: str,
    model: str,
    finish_reason: str | None = "stop",
    check: Check | None = None,
) -> Outcome:
    """A model reply checked against the passages it was given (and by ``check``: grounding)."""
    if finish_reason in ("length", "content_filter"):
        return GenerationFailure("length", f"finish_reason={finish_reason}")
    text = strip_reasoning(raw or "").strip()
    if not text:
        return GenerationFailure("empty", "no answer text")
    if is_sentinel(text):
        return GeneratedAnswer(text="", cited=[], abstained=True, model=model)
    count = min(len(passages), MAX_PASSAGES)
    text, cited = normalise_markers(text, count)
    text = re.sub(r"[ \t]+\n", "\n", text).strip()
    if not cited:
        return GenerationFailure("uncited", "no [n] naming a supplied passage")
    if not _language_ok(text, language):
        return GenerationFailure("wrong_language", f"expected {language}")
    links = _unsupported_links(text, passages[:count])
    if links:
        return GenerationFailure("unsupported_link", f"{len(links)} link(s) not in the passages")
    problem = check(text, passages[:count]) if check is not None else None
    if problem is not None:
        return GenerationFailure("ungrounded", problem)
    return GeneratedAnswer(text=text, cited=cited, abstained=False, model=model)


_PARTIAL_MARKER = re.compile(rf"[{_OPEN}][^{_CLOSE}\n]{{0,24}}$")


Shown = Callable[[str], str]  # a partial answer (markers as given) → the part fit to show


def preview(raw: str, passage_count: int, shown: Shown | None = None) -> str:
    """What a stream has said so far, fit to show: reasoning hidden, a half-written marker or
    sentinel held back, only what ``shown`` lets stay (the grounded sentences), markers
    renumbered exactly as ``to_citations`` will number them."""
    text = strip_reasoning(raw).lstrip()
    if is_sentinel(text) or SENTINEL.startswith(text.replace(" ", "_")):
        return ""
    text = _PARTIAL_MARKER.sub("", text)
    if shown is not None:
        text, _ = normalise_markers(text, min(passage_count, MAX_PASSAGES))
        text = shown(text)
    text, _ = renumber(text, min(passage_count, MAX_PASSAGES))
    return text.strip()
