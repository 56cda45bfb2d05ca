"""Chinese → English words for the corpus: what the English answer line and verification read (issue #23).

The index stores the other direction (crosslingual.py: English stem → Chinese corpus words, for
search). An answer needs readable English for a Chinese word — 发布 → "release", 马斯克 → "Elon
Musk", 算力 → "compute" — from the same sources: the hand-written tech terms first (CC-CEDICT
predates most of them), then CC-CEDICT's first plain gloss. Made lazily, once per index version,
under a lock; a question costs dictionary look-ups.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping

from index.crosslingual import dictionary_entries
from index.tokenizer import term_pairs, tokenize

MAX_GLOSS_WORDS = 4  # a longer gloss explains rather than translates
_HAN = re.compile(r"[\u3400-\u9fff]")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP = ("CL:", "abbr.", "variant of", "surname", "old variant", "see ", "also written", "used in", "erhua",
         "Taiwan pr.", "classifier", "(bound form)", "(literary)", "(old)", "(archaic)", "(dialect)")  # fmt: skip
_NAME = re.compile(r"[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*")


def readable_gloss(pinyin: str, definitions: str) -> str | None:
    """An entry's first gloss that reads as a translation: 'to release' → 'release'; a person's
    or place's entry (capitalised pinyin) by its name ('Elon Musk (1971-), …' → 'Elon Musk')."""
    for gloss in definitions.split("/"):
        gloss = gloss.strip()
        if not gloss or gloss.startswith(_SKIP) or "variant of" in gloss:
            continue
        plain = " ".join(_PAREN.sub(" ", gloss).split()).strip(" ,;")
        if pinyin[:1].isupper():
            name = _NAME.match(plain)
            return name.group(0) if name else None
        plain = re.sub(r"^to ", "", plain.split(";")[0].split(",")[0].strip())
        if plain and len(plain.split()) <= MAX_GLOSS_WORDS and not _HAN.search(plain):
            return plain
    return None


def _best_gloss(entries: list[tuple[str, str]]) -> str | None:
    """A common word's sense before a name's: 比 is 'to compare' before 'Belgium'."""
    ordered = sorted(entries, key=lambda entry: entry[0][:1].isupper())
    for pinyin, definitions in ordered:
        gloss = readable_gloss(pinyin, definitions)
        if gloss:
            return gloss
    return None


def build_lexicon(words: Iterable[str]) -> dict[str, str]:
    """Chinese word → English for the Chinese ``words`` of two or more characters that have one (and
    the tech terms): a tech term's own English (the first listed for it), else CC-CEDICT's first
    readable gloss."""
    # a lone character's first sense is too often not its sense here (说 "to persuade", 个 "individual")
    wanted = {w for w in words if _HAN.search(w) and len(w) > 1}
    lexicon: dict[str, str] = {}
    for english, chinese in term_pairs():
        lexicon.setdefault(chinese, english)
    entries = dictionary_entries(wanted - lexicon.keys())
    for word, found in entries.items():
        gloss = _best_gloss(found)
        if gloss:
            lexicon[word] = gloss
    return lexicon


def corpus_words(texts: Iterable[str]) -> set[str]:
    """The Chinese words of the texts, as the index tokenizes them (jieba's words and their parts),
    function words too (他们, 这个): a sentence is rendered whole or not at all."""
    return {token for text in texts for token in tokenize(text, drop_stopwords=False) if _HAN.search(token)}


_lexicons: dict[str, dict[str, str]] = {}
_lock = threading.Lock()


def lexicon_for(key: str, texts: Iterable[str]) -> Mapping[str, str]:
    """The lexicon of a corpus (``key``: its index version), made on first use and kept."""
    with _lock:
        if key not in _lexicons:
            if len(_lexicons) >= 2:  # a hot reload: the old version's goes
                _lexicons.pop(next(iter(_lexicons)))
            _lexicons[key] = build_lexicon(corpus_words(texts))
        return _lexicons[key]


_english_lock = threading.Lock()
_english: frozenset[str] | None = None


def english_vocabulary() -> frozenset[str]:
    """The lower-case English words of CC-CEDICT's glosses (some 30,000): what tells "The" or
    "Cursor" opening a sentence from a name. Read once, on first use."""
    global _english
    with _english_lock:
        if _english is None:
            from index.crosslingual import dictionary_path

            text = dictionary_path().read_text(encoding="utf-8")
            glosses = (line.split("/", 1)[1] for line in text.splitlines() if "/" in line and not line.startswith("#"))
            _english = frozenset(w for g in glosses for w in re.findall(r"\b[a-z]+\b", g))
        return _english


__all__ = ["build_lexicon", "corpus_words", "english_vocabulary", "lexicon_for", "readable_gloss"]
