"""Is a generated answer grounded in the passages it cites? Checked before it is shown (issue #23).

What a small model gets wrong is checked one way each:
- every number, with its magnitude and unit (index/numbers.py), must occur in a cited passage:
  "320 billion" for 320 亿 and "100,000" for 100 万 are refused;
- every name — a Latin-script one (a capitalised word inside a sentence, a word with digits or
  inner capitals, an acronym) or a Chinese proper noun — must occur in a cited passage, or in the
  lexicon's English for one of its words (马斯克 → Elon Musk): "Python and JavaScript" is refused;
- every sentence must be supported by one cited sentence: enough of its content words occur in it,
  as they are (a name, a number) or through the glossary either way (English stem → Chinese words,
  Chinese word → English). "Composer 2.5 is 25 times larger" has no sentence saying "larger".

Pure; ``Grounding`` holds the lexicon and glossary of one index version.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from index.crosslingual import stem, tech_term_keys
from index.numbers import MONTHS, quantities, same_quantity
from index.stopwords import EN_STOPWORDS
from index.tokenizer import tokenize

MIN_SUPPORT = 0.6  # share of a sentence's content words one cited sentence must hold
NEIGHBOUR_WORDS = 3  # a number's word is the first content word this close after it (else before)
_MARKER = re.compile(r"\[(\d+)\]")
_SENTENCE_END = re.compile(r"[.!?](?:\s*\[\d+\])*(?=\s|$)|[。！？](?:\s*\[\d+\])*|\n+")
_SOURCE_SENTENCE = re.compile(r"(?<=[。！？!?；;\n])|(?<=\.)\s")
_HAN = re.compile(r"[\u3400-\u9fff]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*")  # K2.5, v3.1; "H100-class" is two, "Cursor's" one
# What an answer says about answering, not about the subject: "the article says", "according to".
_FRAME = frozenset(
    [
        "article",
        "author",
        "passage",
        "passages",
        "text",
        "says",
        "say",
        "said",
        "states",
        "stated",
        "state",
        "writes",
        "wrote",
        "written",
        "mentions",
        "mentioned",
        "mention",
        "according",
        "reports",
        "reported",
        "notes",
        "noted",
        "describes",
        "described",
        "explains",
        "explained",
        "claims",
        "also",
        "however",
        "therefore",
        "thus",
    ]
)
_CALENDAR = frozenset(m.lower() for m in MONTHS) | frozenset(m[:3].lower() for m in MONTHS)
_ARTICLE_NUMERALS = frozenset("一两")
_CJK_NAME_TAGS = ("nr", "ns", "nt", "nz")  # jieba: person, place, organisation, other proper noun


@dataclass(frozen=True)
class Problem:
    kind: str  # "number" | "name" | "sentence"
    what: str

    def __str__(self) -> str:
        return f"{self.kind} not in the cited passages: {self.what}"


def sentences(text: str) -> list[str]:
    """An answer's sentences, each with the markers written after it ("… 70.2%. [1]")."""
    found, at = [], 0
    for match in _SENTENCE_END.finditer(text):
        sentence = text[at : match.end()].strip()
        if sentence:
            found.append(sentence)
        at = match.end()
    rest = text[at:].strip()
    return [*found, rest] if rest else found


def cited_numbers(sentence: str) -> list[int]:
    return [int(n) for n in _MARKER.findall(sentence)]


def _plain(text: str) -> str:
    return _MARKER.sub(" ", text)


def source_sentences(text: str) -> list[str]:
    """A passage's sentences; a table row with its table's header row (the column names)."""
    found: list[str] = []
    header: str | None = None
    for line in text.split("\n"):
        if "\t" in line:
            if header is None:
                header = line
                found.append(line.strip())
            else:
                found.append(f"{header}\n{line}".strip())
            continue
        header = None
        found += [s.strip() for s in _SOURCE_SENTENCE.split(line) if s.strip()]
    return found


@dataclass
class Grounding:
    """The checks with one corpus's words: ``lexicon`` Chinese → English, ``glossary`` English
    stem → Chinese words, ``english`` the English vocabulary a sentence-initial capital is read
    against ("The", "Cursor" the common noun)."""

    lexicon: Mapping[str, str]
    glossary: Mapping[str, list[str]]
    english: frozenset[str] = frozenset()
    _glossed: dict[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def _longest(self) -> int:
        return max((len(w) for w in self.lexicon), default=1)

    def glossed_words(self, text: str) -> frozenset[str]:
        """The lower-case English words the lexicon gives the Chinese words of ``text``."""
        if text not in self._glossed:
            words: set[str] = set()
            for token in tokenize(text):
                english = self.lexicon.get(token)
                if english:
                    words.update(w.lower() for w in _WORD.findall(english))
            self._glossed[text] = frozenset(words)
        return self._glossed[text]

    def _known(self, lower: str) -> bool:
        key = stem(lower)
        return key in self.glossary or key in tech_term_keys() or lower in self.english

    # -- names ------------------------------------------------------------------------------
    def names(self, text: str) -> list[str]:
        """The Latin-script names of an English text and the CJK proper nouns of any text."""
        found: list[str] = []
        for sentence in sentences(_plain(text)):
            for position, match in enumerate(_WORD.finditer(sentence)):
                word = match.group()
                lower = word.lower()
                if lower in _CALENDAR or word in ("I", "US", "CN"):
                    continue
                # an acronym the glossary knows (GPU, CEO) is a word; one it doesn't (HSDP) a name
                acronym = bool(re.search(r"[A-Z]{2,}", word)) and not self._known(lower)
                mixed = bool(re.search(r"\d", word)) or bool(re.search(r"[a-z][A-Z]", word)) or acronym
                capital = word[:1].isupper() and not re.fullmatch(r"[A-Z]{2,}s?", word)
                common = lower in self.english or lower in EN_STOPWORDS or lower in _FRAME
                if mixed or (capital and not (position == 0 and common)):
                    found.append(word)
        found += [w for w in _cjk_proper_nouns(text)]
        return list(dict.fromkeys(found))

    def name_supported(self, name: str, sources: Sequence[str]) -> bool:
        lower = name.lower()
        if any(lower in source.lower() for source in sources):
            return True
        if _HAN.search(name):
            return False
        return lower in self.glossed_words("\n".join(sources))

    # -- sentences ----------------------------------------------------------------------------
    def content_words(self, sentence: str) -> list[str]:
        """A sentence's words that say something: no stopwords, no framing ("the article says"),
        no numbers (checked as quantities)."""
        plain = _plain(sentence)
        spans = [(q.start, q.end) for q in quantities(plain)]
        words = []
        for match in _WORD.finditer(plain):
            if any(s <= match.start() < e for s, e in spans):
                continue
            lower = match.group().lower()
            if lower not in EN_STOPWORDS and lower not in _FRAME and len(lower) > 1 and lower != "s":
                words.append(match.group())
        words += [w for w in tokenize(" ".join(_HAN.findall(plain))) if len(w) > 1]
        return list(dict.fromkeys(w.lower() if not _HAN.search(w) else w for w in words))

    def word_in(self, word: str, source: str) -> bool:
        lower = word.lower()
        if lower in source.lower():
            return True
        if _HAN.fullmatch(word):
            return False
        key = stem(lower)
        if any(chinese in source for chinese in self.glossary.get(key, ())):
            return True
        return key in {stem(w) for w in self.glossed_words(source)}

    def support(self, sentence: str, sources: Sequence[str]) -> float:
        """The largest share of the sentence's content words and quantities (not a name's version
        number) one source sentence holds."""
        words = self.content_words(sentence)
        stated = [q for q, _ in self.number_words(sentence)]
        if not words and not stated:
            return 1.0
        best = 0.0
        for source in sources:
            # one sentence, or two in a row: an answer sentence may join what two of them say
            own = source_sentences(source)
            for candidate in own + [a + b for a, b in itertools.pairwise(own)]:
                held = sum(1 for w in words if self.word_in(w, candidate))
                known = quantities(candidate)
                held += sum(1 for q in stated if any(same_quantity(q, k) for k in known))  # type: ignore[arg-type]
                best = max(best, held / (len(words) + len(stated)))
        return best

    def number_words(self, sentence: str) -> list[tuple[object, str]]:
        """Each quantity of an English sentence with the word it quantifies or describes: the
        first content word after it ("25 times larger", "1 million GPUs"), else the last before."""
        plain = _plain(sentence)
        tokens = [(m.start(), m.group()) for m in _WORD.finditer(plain)]
        pairs = []
        for q in quantities(plain):
            named = [w for at, w in tokens if at < q.start and plain[at + len(w) : q.start].strip() == ""]
            if q.kind == "number" and not q.scaled and named and named[-1][:1].isupper():
                continue  # a version: Composer 2.5, Opus 4.7 (checked as numbers and names)
            after = [w for at, w in tokens if at >= q.end and not _stop(w)][:1]
            near = [at for at, w in tokens if at >= q.end][:NEIGHBOUR_WORDS]
            if after and near and any(at >= q.end for at in near) and after[0] in [w for at, w in tokens if at in near]:
                pairs.append((q, after[0]))
                continue
            before = [w for at, w in tokens if at < q.start and not _stop(w)][-1:]
            if before:
                pairs.append((q, before[0]))
        return pairs

    def number_supported(self, q: object, word: str, sources: Sequence[str]) -> bool:
        """A source sentence states the quantity and holds its word."""
        for source in sources:
            for candidate in source_sentences(source):
                if any(same_quantity(q, k) for k in quantities(candidate)) and self.word_in(word, candidate):  # type: ignore[arg-type]
                    return True
        return False

    # -- the whole check ---------------------------------------------------------------------
    def problems(self, answer: str, cited: Mapping[int, str]) -> list[Problem]:
        """What in ``answer`` (with [n] markers, n a key of ``cited``: passage texts) its cited
        passages don't say; empty when it is grounded."""
        everything = list(cited.values())
        found: list[Problem] = []
        plain = _plain(answer)
        known = [q for text in everything for q in quantities(text)]
        for q in quantities(plain):
            if q.text in _ARTICLE_NUMERALS:
                continue  # 一个比喻 is "a metaphor": no number to check
            if not any(same_quantity(q, k) for k in known):
                found.append(Problem("number", q.text))
        for name in self.names(answer):
            if not self.name_supported(name, everything):
                found.append(Problem("name", name))
        for sentence in sentences(answer):
            own = [cited[n] for n in cited_numbers(sentence) if n in cited] or everything
            if self.support(sentence, own) < MIN_SUPPORT:
                found.append(Problem("sentence", _plain(sentence).strip()[:80]))
                continue
            for q, word in self.number_words(sentence):
                if not self.number_supported(q, word, everything):
                    found.append(Problem("number", f"{q.text} {word}"))  # type: ignore[attr-defined]
        return found

    def first_problem(self, answer: str, cited: Mapping[int, str]) -> str | None:
        problems = self.problems(answer, cited)
        return str(problems[0]) if problems else None

    def grounded_prefix(self, answer: str, cited: Mapping[int, str]) -> str:
        """The complete sentences of a partial answer, up to the first one that isn't grounded:
        what a streaming preview may show."""
        parts = sentences(answer)
        if parts and not re.search(r"[.!?。！？](?:\s*\[\d+\])*\s*$", answer):
            parts = parts[:-1]  # still being written
        shown: list[str] = []
        for sentence in parts:
            if self.problems(sentence, cited):
                break
            shown.append(sentence)
        return " ".join(shown)


def _stop(word: str) -> bool:
    lower = word.lower()
    return lower in EN_STOPWORDS or lower in _FRAME or len(lower) < 2


def _cjk_proper_nouns(text: str) -> list[str]:
    """Person, place and organisation names among the Chinese words of ``text`` (jieba's tags)."""
    han = "，".join(_HAN.findall(text))
    if not han:
        return []
    import jieba.posseg

    return [w.word for w in jieba.posseg.cut(han) if w.flag.startswith(_CJK_NAME_TAGS) and len(w.word) > 1]


@dataclass
class PassageVerifier:
    """``Grounding`` as ``index.llm_outcome.Verifier``: markers [n] name positions in the passages."""

    grounding: Grounding

    @staticmethod
    def _cited(text: str, passages: Sequence[object]) -> dict[int, str]:
        texts = [getattr(p, "text", "") for p in passages]
        return {n: texts[n - 1] for n in cited_numbers(text) if 1 <= n <= len(texts)}

    def problem(self, text: str, passages: Sequence[object]) -> str | None:
        return self.grounding.first_problem(text, self._cited(text, passages))

    def shown(self, text: str, passages: Sequence[object]) -> str:
        return self.grounding.grounded_prefix(text, self._cited(text, passages))


__all__ = ["MIN_SUPPORT", "Grounding", "PassageVerifier", "Problem", "cited_numbers", "sentences", "source_sentences"]
