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
from index.english import BRACKETED_NAME
from index.tokenizer import term_pairs, tokenize

MAX_GLOSS_WORDS = 4  # a longer gloss explains rather than translates
_HAN = re.compile(r"[\u3400-\u9fff]")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP = ("CL:", "abbr.", "variant of", "surname", "old variant", "see ", "also written", "used in", "erhua",
         "Taiwan pr.", "classifier", "(bound form)", "(literary)", "(old)", "(archaic)", "(dialect)")  # fmt: skip
_NAME = re.compile(r"[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*")


def readable_gloss(pinyin: str, definitions: str) -> str | None:
    """An entry's shortest gloss that reads as a translation, the first of equally short ones:
    'to release' → 'release', 'to send back information/feedback' → 'feedback' (a dictionary
    explains a sense first and names it after; the name is what a translation says); a person's
    or place's entry (capitalised pinyin) by its name ('Elon Musk (1971-), …' → 'Elon Musk')."""
    best: str | None = None
    for gloss in definitions.split("/"):
        gloss = gloss.strip()
        if not gloss or gloss.startswith(_SKIP) or "variant of" in gloss:
            continue
        plain = " ".join(_PAREN.sub(" ", gloss).split()).strip(" ,;")
        if pinyin[:1].isupper():
            name = _NAME.match(plain)
            return name.group(0) if name else None
        plain = re.sub(r"^to ", "", plain.split(";")[0].split(",")[0].strip()).strip(" ?!.")
        readable = bool(plain) and len(plain.split()) <= MAX_GLOSS_WORDS and not _HAN.search(plain)
        if readable and (best is None or len(plain.split()) < len(best.split())):
            best = plain
    return best


def _best_gloss(entries: list[tuple[str, str]]) -> str | None:
    """A common word's sense before a name's: 比 is 'to compare' before 'Belgium'."""
    ordered = sorted(entries, key=lambda entry: entry[0][:1].isupper())
    for pinyin, definitions in ordered:
        gloss = readable_gloss(pinyin, definitions)
        if gloss:
            return gloss
    return None


class Lexicon(dict[str, str]):
    """Chinese word → English. ``names``: the words whose English is the name the corpus itself
    gives them (继续预训练（Continued Pretraining）): exact, as a Latin name is, not a gloss."""

    names: frozenset[str] = frozenset()


# a name in brackets after the words it names: 月之暗面（Moonshot）, 定向 RL（Directed RL）
_BRACKETED = re.compile(rf"[（(]\s*(?:英[语語文]\s*[:：]\s*)?({BRACKETED_NAME})\s*[)）]")
_TERM_BEFORE = re.compile(r"([\u3400-\u9fff]{2,8})((?:\s*[A-Za-z][A-Za-z0-9.+\-]*)*)\s*$")
# where the words before a bracket stop being the term: grammar words and particles (之 is left
# out: it sits inside names, 月之暗面)
_TERM_BOUNDARY = re.compile(r"^.*[的地得了着过吗呢吧啊呀嘛也都就还又再才便所而是在和与及或把被将用从对给为做说]")


def own_names(texts: Iterable[str]) -> dict[str, str]:
    """The English names the texts give their own terms, in brackets right after them: the Chinese
    words back to the last grammar word, less a Latin word both sides share (定向 RL（Directed RL）
    names 定向 "Directed"). A term named two ways is left out."""
    found: dict[str, set[str]] = {}
    for text in texts:
        for match in _BRACKETED.finditer(text):
            english = " ".join(match.group(1).split())
            before = _TERM_BEFORE.search(text[max(0, match.start() - 24) : match.start()])
            if before is None:
                continue
            han = _TERM_BOUNDARY.sub("", before.group(1))
            latin = before.group(2).split()
            words = english.split()
            if latin:  # the Latin after the Chinese words is the name's end: 定向 RL ↔ Directed RL
                if [w.lower() for w in words[-len(latin) :]] != [w.lower() for w in latin] or len(words) <= len(latin):
                    continue
                words = words[: -len(latin)]
            if len(han) >= 2:
                found.setdefault(han, set()).add(" ".join(words))
    return {han: next(iter(names)) for han, names in found.items() if len(names) == 1}


def build_lexicon(words: Iterable[str], names: Mapping[str, str] | None = None) -> Lexicon:
    """Chinese word → English for the Chinese ``words`` of two or more characters that have one (and
    the tech terms): the corpus's own name for it (``names``, own_names), a tech term's own English
    (the first listed for it), else CC-CEDICT's shortest readable gloss."""
    # a lone character's first sense is too often not its sense here (说 "to persuade", 个 "individual")
    wanted = {w for w in words if _HAN.search(w) and len(w) > 1}
    lexicon = Lexicon()
    for english, chinese in term_pairs():
        lexicon.setdefault(chinese, english)
    entries = dictionary_entries(wanted - lexicon.keys())
    for word, found in entries.items():
        gloss = _best_gloss(found)
        if gloss:
            lexicon[word] = gloss
    lexicon.update(names or {})
    lexicon.names = frozenset(names or ())
    return lexicon


def corpus_words(texts: Iterable[str]) -> set[str]:
    """The Chinese words of the texts, as the index tokenizes them (jieba's words and their parts),
    function words too (他们, 这个): a sentence is rendered whole or not at all."""
    return {token for text in texts for token in tokenize(text, drop_stopwords=False) if _HAN.search(token)}


_lexicons: dict[str, Lexicon] = {}
_lock = threading.Lock()


def lexicon_for(key: str, texts: Iterable[str]) -> Mapping[str, str]:
    """The lexicon of a corpus (``key``: its index version), made on first use and kept."""
    with _lock:
        if key not in _lexicons:
            if len(_lexicons) >= 2:  # a hot reload: the old version's goes
                _lexicons.pop(next(iter(_lexicons)))
            texts = list(texts)
            _lexicons[key] = build_lexicon(corpus_words(texts), own_names(texts))
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


__all__ = [
    "Lexicon",
    "build_lexicon",
    "corpus_words",
    "english_vocabulary",
    "lexicon_for",
    "own_names",
    "readable_gloss",
]
