"""Is a generated answer grounded in the passages it cites? Checked before it is shown (issue #23).

What a small model gets wrong is checked one way each:
- every number, with its magnitude, unit and bound (index/text/numbers.py, index/text/bounds.py), must occur
  in a cited passage: "320 billion" for 320 亿, "100,000" for 100 万 and "at least 75.6%" for
  最高 75.6% are refused, "up to 75.6% at best" and "about US$60 billion" are not — or be worked out of
  their numbers (a gap, a total, a ratio, a count of listed items: index/text/derived.py); and it must
  not stand beside the label of another of the passage's numbers (input and output prices swapped);
- every name — a Latin-script one (a capitalised word inside a sentence, a word with digits or
  inner capitals, an acronym) or a Chinese proper noun — must occur in a cited passage, or in the
  lexicon's English for one of its words (马斯克 → Elon Musk): "Python and JavaScript" is refused;
- every sentence must be supported by one cited sentence: enough of its content words occur in it,
  as they are (a name, a number) or through the glossary either way (English stem → Chinese words,
  Chinese word → English). "Composer 2.5 is 25 times larger" has no sentence saying "larger". A
  sentence whose quantities the checks above verified needs fewer of its words held (ANCHORED_SUPPORT).

Pure; ``Grounding`` holds the lexicon and glossary of one index version.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from index.english.dictionary import dictionary_entries, stem, tech_term_keys
from index.generate.cut import cited_numbers, sentences, source_sentences, unmarked, written
from index.generate.misplaced import misplaced
from index.generate.placement import quantity_spans, spaced, stated_numbers
from index.text.bounds import Mention, matches
from index.text.derived import item_counts, lone_numerals, worked_out
from index.text.names import NAME_WORD
from index.text.numbers import MONTHS, identifiers
from index.text.relative_days import unstated_relative_days
from index.text.stopwords import EN_STOPWORDS
from index.text.tokens import chinese_words, tokenize

if TYPE_CHECKING:
    from index.build.store import StoredIndex

# an answer's clauses for a number's scope: a colon binds what it names to the value after it
# ("CursorBench v3.1: 63.2%"), where a source's colon ends a lead-in
MIN_SUPPORT = 0.6  # share of a sentence's content words one cited sentence must hold
# ... when the sentence states a quantity the checks verified (value, bound, placement): it is anchored
# to its source's claim, and an English paraphrase around a figure meets the dictionary in few words
ANCHORED_SUPPORT = 0.3
_HAN = re.compile(r"[\u3400-\u9fff]+")
_NEGATED = re.compile(r"n?['’]t\b")
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
        "dated",
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
_ARTICLE_NUMERALS = frozenset("一")
_CJK_NAME_TAGS = ("nr", "ns", "nt", "nz")  # jieba: person, place, organisation, other proper noun


@dataclass(frozen=True)
class Problem:
    kind: str  # "number" | "name" | "sentence"
    what: str

    def __str__(self) -> str:
        return f"{self.kind} not in the cited passages: {self.what}"


@dataclass
class Grounding:
    """The checks with one corpus's words: ``lexicon`` Chinese → English, ``glossary`` English
    stem → Chinese words, ``english`` the English vocabulary a sentence-initial capital is read
    against ("The", "Cursor" the common noun), ``subject`` the corpus's subject (text.names.subject_names)."""

    lexicon: Mapping[str, str]
    glossary: Mapping[str, list[str]]
    english: frozenset[str] = frozenset()
    subject: frozenset[str] = frozenset()
    _glossed: dict[str, frozenset[str]] = field(default_factory=dict)
    _sensed: dict[str, frozenset[str]] = field(default_factory=dict)

    @cached_property
    def _english_stems(self) -> frozenset[str]:
        """The vocabulary's words by their stems: an inflected word opening a sentence ("Sharded") is one."""
        return frozenset(stem(w) for w in self.english)

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
                    words.update(w.lower() for w in NAME_WORD.findall(english))
            self._glossed[text] = frozenset(words)
        return self._glossed[text]

    def _known(self, lower: str) -> bool:
        key = stem(lower)
        return key in self.glossary or key in tech_term_keys() or lower in self.english

    # -- names ------------------------------------------------------------------------------
    def names(self, text: str) -> list[str]:
        """The Latin-script names of an English text and the CJK proper nouns of any text."""
        found: list[str] = []
        for sentence in sentences(unmarked(text)):
            taken = quantity_spans(sentence)
            for position, match in enumerate(NAME_WORD.finditer(sentence)):
                if any(a <= match.start() < b for a, b in taken):
                    continue  # USD 15, 1M: part of a quantity
                word = match.group()
                lower = word.lower()
                if lower in _CALENDAR or word in ("I", "US", "CN"):
                    continue
                # an acronym the glossary knows (GPU, CEO) is a word; one it doesn't (HSDP) a name
                acronym = bool(re.search(r"[A-Z]{2,}", word)) and not self._known(lower)
                mixed = bool(re.search(r"\d", word)) or bool(re.search(r"[a-z][A-Z]", word)) or acronym
                capital = word[:1].isupper() and not re.fullmatch(r"[A-Z]{2,}s?", word)
                common = lower in self.english or stem(lower) in self._english_stems or lower in EN_STOPWORDS
                common = common or lower in _FRAME
                if mixed or (capital and not (position == 0 and common)):
                    found.append(word)
        found += [w for w in _cjk_proper_nouns(text)]
        # every part with digits of a code or name: kimi-k2p5-rl-0713 is not kimi-k2p5-rl-0317
        found += [p for i in identifiers(unmarked(text)) for p in re.split(r"[-_/]", i) if re.search(r"\d", p)]
        return list(dict.fromkeys(found))

    def name_supported(self, name: str, sources: Sequence[str]) -> bool:
        lower = name.lower()
        if lower in self.subject:
            return True
        forms = (lower, lower[:-1]) if lower.endswith("s") and len(lower) > 2 else (lower,)  # H100s
        if re.search(r"\d", name):  # K2 is not K2.5: a name with digits is matched whole
            # ASCII neighbours only: a Chinese text glues a code to its words (即MBH99）)
            whole = re.compile("|".join(rf"(?<![a-z0-9_.]){re.escape(f)}(?![a-z0-9_]|\.\d)" for f in forms))
            return any(whole.search(spaced(source)) for source in sources)
        if any(form in spaced(source) for source in sources for form in forms):
            return True
        if _HAN.search(name):
            return False
        joined = "\n".join(sources)
        return lower in self.glossed_words(joined) or lower in self._senses(joined)

    def _senses(self, text: str) -> frozenset[str]:
        """Every word of every common sense the dictionary gives the Chinese words of ``text``: a
        capitalised common word is a name only when no sense says it (地表, "the earth's surface":
        "strongest on Earth")."""
        if text not in self._sensed:
            tokens = {t for t in tokenize(text) if _HAN.fullmatch(t)}
            self._sensed[text] = frozenset(
                w.lower()
                for entries in dictionary_entries(tokens).values()
                for pinyin, definitions in entries
                if not pinyin[:1].isupper()
                for w in NAME_WORD.findall(definitions)
            )
        return self._sensed[text]

    # -- sentences ----------------------------------------------------------------------------
    def content_words(self, sentence: str) -> list[str]:
        """A sentence's words that say something: no stopwords, no framing ("the article says"),
        no numbers or their bounds ("up to", "at best": checked as quantities)."""
        plain = unmarked(sentence)
        for start, end in quantity_spans(plain):
            plain = plain[:start] + " " * (end - start) + plain[end:]
        words = []
        for match in NAME_WORD.finditer(plain):
            if _NEGATED.match(plain, match.end()):
                continue  # isn't, don't: an auxiliary
            lower = match.group().lower()
            if lower not in EN_STOPWORDS and lower not in _FRAME and len(lower) > 1 and lower != "s":
                words.append(match.group())
        words += [w for w in chinese_words(plain) if len(w) > 1]
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
        return key in {stem(w) for w in self.glossed_words(source)} | {
            stem(w.lower()) for w in NAME_WORD.findall(source)
        }

    def held(self, word: str, source: str) -> bool:
        """``source`` says ``word``: in any form word_in reads; a Chinese word also when the source
        writes it in English (性能 → performance)."""
        if self.word_in(word, source):
            return True
        if not _HAN.fullmatch(word):
            return False
        glossed = {w.lower() for w in NAME_WORD.findall(self.lexicon.get(word, "")) if w.lower() not in EN_STOPWORDS}
        return bool(glossed & {w.lower() for w in NAME_WORD.findall(source)})

    def support(self, sentence: str, sources: Sequence[str]) -> float:
        """The largest share of the sentence's content words and quantities (not a name's version
        number) one source sentence, or up to three in a row, holds."""
        words = self.content_words(sentence)
        stated = stated_numbers(unmarked(sentence), sources)
        if not words and not stated:
            return 1.0
        best = 0.0
        for source in sources:
            # up to three sentences in a row: an answer sentence may join what they say
            own = source_sentences(source)
            windows = own + [a + b for a, b in itertools.pairwise(own)]
            windows += ["".join(own[i : i + 3]) for i in range(len(own) - 2)]
            counts, numerals = item_counts(source), lone_numerals(source)
            for candidate in windows:
                held = sum(1 for w in words if self.held(w, candidate))
                known = stated_numbers(candidate)
                held += sum(1 for m in stated if matches(m, known) or worked_out(m, known, counts, numerals))
                best = max(best, held / (len(words) + len(stated)))
        return best

    def says(self, words: Sequence[str], text: str) -> bool:
        """Any of ``words`` is in ``text``, in any form word_in reads."""
        return any(self.word_in(w, text) for w in words)

    # -- the whole check ---------------------------------------------------------------------
    def problems(self, answer: str, cited: Mapping[int, str]) -> list[Problem]:
        """What in ``answer`` (with [n] markers, n a key of ``cited``: passage texts) its cited
        passages don't say; empty when it is grounded. Dates in Chinese numerals and decimals in
        words are read in digits."""
        answer, cited = written(answer), {n: written(text) for n, text in cited.items()}
        everything = list(cited.values())
        found: list[Problem] = []
        plain = unmarked(answer)
        holds = _holds_in(everything)
        found += [Problem("number", m.quantity.text) for m in _checked(plain, everything) if not holds(m)]
        found += [Problem("number", text) for text in unstated_relative_days(plain, everything)]
        for name in self.names(answer):
            if not self.name_supported(name, everything):
                found.append(Problem("name", name))
        for sentence in sentences(answer):
            own = [cited[n] for n in cited_numbers(sentence) if n in cited] or everything
            needed = ANCHORED_SUPPORT if _anchored(sentence, own) else MIN_SUPPORT
            if self.support(sentence, own) < needed:  # its numbers are still read: a reading may accept it
                found.append(Problem("sentence", unmarked(sentence).strip()[:80]))
            found += [Problem("number", f"{text} (said of something else)") for text in misplaced(self, sentence, own)]
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


def _checked(text: str, sources: Sequence[str]) -> list[Mention]:
    """The quantities of ``text`` (an answer or one of its sentences) to check against ``sources``: not
    a version the sources write, not 一 as an article, not a spelled word ("first" is a word as often)."""
    return [
        m for m in stated_numbers(text, sources) if m.quantity.text not in _ARTICLE_NUMERALS and not m.quantity.spelled
    ]


def _holds_in(sources: Sequence[str]) -> Callable[[Mention], bool]:
    """Whether a quantity is one of ``sources``' own or worked out of theirs (a gap, a count)."""
    known = [k for source in sources for k in stated_numbers(source)]
    counts = frozenset().union(*(item_counts(source) for source in sources))
    numerals = frozenset().union(*(lone_numerals(source) for source in sources))
    return lambda m: matches(m, known) or worked_out(m, known, counts, numerals)


def _anchored(sentence: str, sources: Sequence[str]) -> bool:
    """``sentence`` states a quantity to check, and ``sources`` state or work out each of its quantities."""
    quantities = _checked(unmarked(sentence), sources)
    return bool(quantities) and all(map(_holds_in(sources), quantities))


def _stop(word: str) -> bool:
    lower = word.lower()
    return lower in EN_STOPWORDS or lower in _FRAME or lower == "per" or len(lower) < 2


def _cjk_proper_nouns(text: str) -> list[str]:
    """Person, place and organisation names among the Chinese words of ``text`` (jieba's tags)."""
    han = "，".join(_HAN.findall(text))
    if not han:
        return []
    import jieba.posseg

    return [w.word for w in jieba.posseg.cut(han) if w.flag.startswith(_CJK_NAME_TAGS) and len(w.word) > 1]


@dataclass
class PassageVerifier:
    """``Grounding`` as ``index.generate.outcome.Verifier``: markers [n] name positions in the passages."""

    grounding: Grounding

    @staticmethod
    def cited_texts(text: str, passages: Sequence[object]) -> dict[int, str]:
        texts = [getattr(p, "text", "") for p in passages]
        return {n: texts[n - 1] for n in cited_numbers(text) if 1 <= n <= len(texts)}

    def problem(self, text: str, passages: Sequence[object]) -> str | None:
        return self.grounding.first_problem(text, self.cited_texts(text, passages))

    def shown(self, text: str, passages: Sequence[object]) -> str:
        return self.grounding.grounded_prefix(text, self.cited_texts(text, passages))

    def wording_only(self, text: str, passages: Sequence[object]) -> bool:
        """Whether only the word check refuses ``text``: its numbers and names are the passages'."""
        problems = self.grounding.problems(text, self.cited_texts(text, passages))
        return bool(problems) and all(p.kind == "sentence" for p in problems)


# -- with one index version's words ------------------------------------------------------------
def verifier_of(stored: StoredIndex) -> PassageVerifier:
    """What checks a generated answer against its cited passages, with this version's words."""
    return PassageVerifier(grounding_of(stored))


def grounding_of(stored: StoredIndex) -> Grounding:
    """The checks with this index version's words and subject."""
    from index.answer.english_line import lexicon_of
    from index.english.lexicon import english_vocabulary

    return Grounding(lexicon_of(stored), stored.glossary, english_vocabulary(), stored.subject)


def ungrounded_claims(stored: StoredIndex, result) -> list[str]:  # type: ignore[no-untyped-def]
    """The numbers and names of an answer that the passages it cites don't state (evaluation)."""
    grounding = grounding_of(stored)
    cited = {c.chunk_id for c in result.citations}
    texts = {i + 1: p.text for i, p in enumerate(p for p in result.passages if p.chunk_id in cited)}
    # markers are renumbered in the shown answer: check against every cited passage
    problems = grounding.problems(unmarked(result.answer, ""), texts) if texts else []
    return [str(p) for p in problems if p.kind in ("number", "name")]


__all__ = [
    "ANCHORED_SUPPORT",
    "MIN_SUPPORT",
    "Grounding",
    "PassageVerifier",
    "Problem",
    "grounding_of",
    "ungrounded_claims",
    "verifier_of",
]
