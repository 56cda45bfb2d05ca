"""Chinese → English words for the corpus: what the English answer line and verification read (issue #23).

The index stores the other direction (english/dictionary.py: English stem → Chinese corpus words, for
search). An answer needs readable English for a Chinese word — 发布 → "release", 马斯克 → "Elon
Musk", 算力 → "compute" — from the same sources: the hand-written tech terms first (CC-CEDICT
predates most of them), then the CC-CEDICT gloss closest to the word in e5 (english/glosses.py: 输入 →
"input", not "import"). Made lazily, once per index version, under a lock; a question costs
dictionary look-ups.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping

from index.english.dictionary import dictionary_entries, name_shares
from index.english.glosses import chosen_gloss
from index.english.render import BRACKETED_NAME
from index.text.tokens import term_pairs, tokenize

MAX_GLOSS_WORDS = 4  # a longer gloss explains rather than translates
NAME_SHARE = 0.5  # a character more often a name's than a word's
_HAN = re.compile(r"[\u3400-\u9fff]")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_SKIP = ("CL:", "abbr.", "variant of", "surname", "old variant", "see ", "also written", "used in", "erhua",
         "Taiwan pr.", "classifier", "(bound form)", "(literary)", "(old)", "(archaic)", "(dialect)",
         "lit. ", "cf. ", "pr. ", "trad. ")  # fmt: skip
_FIGURATIVE = "fig. "  # an idiom's meaning, after its literal sense (which _SKIP leaves out)
_NAME = re.compile(r"[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*")


def readable_glosses(pinyin: str, definitions: str) -> list[str]:
    """An entry's glosses that read as translations, once each, in the dictionary's order: 'to
    release' → 'release'; none longer than MAX_GLOSS_WORDS, none explaining in Chinese; a person's
    or place's entry (capitalised pinyin) by its name only ('Elon Musk (1971-), …' → 'Elon Musk')."""
    found: list[str] = []
    for gloss in definitions.split("/"):
        gloss = gloss.strip()
        if not gloss or gloss.startswith(_SKIP) or "variant of" in gloss:
            continue
        plain = " ".join(_PAREN.sub(" ", gloss.removeprefix(_FIGURATIVE)).split()).strip(" ,;")
        if pinyin[:1].isupper():
            name = _NAME.match(plain)
            return [name.group(0)] if name else []
        plain = re.sub(r"^to ", "", plain.split(";")[0].split(",")[0].strip()).strip(" ?!.")
        # an affix ("-er", "vice-") says nothing alone
        affix = plain.startswith("-") or plain.endswith("-")
        # a gloss in digits (一 "1") is the number, which text/numbers.py says when it is one
        readable = (
            bool(plain)
            and not affix
            and not plain.isdigit()
            and len(plain.split()) <= MAX_GLOSS_WORDS
            and not _HAN.search(plain)
        )
        if readable and plain not in found:
            found.append(plain)
    return found


def readable_gloss(pinyin: str, definitions: str) -> str | None:
    """An entry's shortest readable gloss, the first of equally short ones: 'to send back
    information/feedback' → 'feedback' (a dictionary explains a sense first and names it after)."""
    return shortest(readable_glosses(pinyin, definitions))


def shortest(glosses: list[str]) -> str | None:
    return min(glosses, key=lambda gloss: len(gloss.split()), default=None)


def gloss_candidates(entries: list[tuple[str, str]]) -> list[str]:
    """A word's readable glosses over its entries, a common word's senses before a name's (比 is
    'to compare' before 'Belgium'); a name only when the word has no common sense."""
    return _candidates(_readable(entries))


def _readable(entries: list[tuple[str, str]]) -> list[tuple[bool, list[str]]]:
    """Each entry's readable glosses, and whether the entry is a name (capitalised pinyin)."""
    return [(pinyin[:1].isupper(), readable_glosses(pinyin, d)) for pinyin, d in entries]


def _candidates(readable: list[tuple[bool, list[str]]]) -> list[str]:
    common = [g for named, glosses in readable if not named for g in glosses]
    if common:
        return list(dict.fromkeys(common))
    return [g for _, glosses in readable for g in glosses][:1]


def _chosen(word: str, candidates: list[str]) -> str | None:
    """The gloss closest to the word in the embedder's space where the packaged table has it
    (glosses.py: 输入 → 'input', not 'import'), else the shortest."""
    return chosen_gloss(word, candidates) or shortest(candidates)


class Lexicon(dict[str, str]):
    """Chinese word → English. ``names``: the words whose English is the name the corpus itself
    gives them (继续预训练（Continued Pretraining）): exact, as a Latin name is, not a gloss.
    ``people``: a word's English as a name, where the dictionary has it as one (牛顿 → Newton,
    though its common sense is the unit "newton"), for the parts of a foreign name (english.py)."""

    names: frozenset[str] = frozenset()
    people: Mapping[str, str] = {}
    measures: frozenset[str] = frozenset()  # characters the dictionary calls a classifier (个, 名, 张)
    # characters more often in the dictionary's names than in its other words (尔, 尼, 斯): a run of
    # them that no word covers spells a foreign name, not words
    name_characters: frozenset[str] = frozenset()


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
    """Chinese word → English for the Chinese ``words`` that have one (and the tech terms): the
    corpus's own name for it (``names``, own_names), a tech term's own English (the first listed for
    it), else the CC-CEDICT gloss chosen for it (english/glosses.py). Single characters too: a lone
    character's shortest gloss was too often not its sense (说 "persuade"), e5's choice is ("say"),
    and without them a clause holding one could not be rendered at all."""
    wanted = {w for w in words if _HAN.search(w)}
    lexicon = Lexicon()
    for english, chinese in term_pairs():
        lexicon.setdefault(chinese, english)
    entries = dictionary_entries(wanted - lexicon.keys())
    people: dict[str, str] = {}
    for word, found in entries.items():
        readable = _readable(found)  # each entry's glosses read once, for the word's sense and its name
        gloss = _chosen(word, _candidates(readable))
        if gloss:
            lexicon[word] = gloss
        named = [g for is_name, glosses in readable if is_name for g in glosses]
        if named:
            people[word] = named[0]
    lexicon.people = people
    lexicon.measures = frozenset(
        w for w, found in entries.items() if len(w) == 1 and any("/classifier for" in f"/{d}" for _, d in found)
    )
    shares = name_shares()
    lexicon.name_characters = frozenset(w for w in wanted if len(w) == 1 and shares.get(w, 0.0) > NAME_SHARE)
    lexicon.update(names or {})
    lexicon.names = frozenset(names or ())
    return lexicon


def corpus_words(texts: Iterable[str]) -> set[str]:
    """The Chinese words of the texts, as the index tokenizes them (jieba's words and their parts),
    function words too (他们, 这个): a word the lexicon lacks is left as written in the line. Every
    character on its own too: the English line cuts words where a number or a name starts (一天 →
    1, 天)."""
    words = {token for text in texts for token in tokenize(text, drop_stopwords=False) if _HAN.search(token)}
    return words | {char for word in words for char in word if _HAN.match(char)}


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
            from index.english.dictionary import dictionary_path

            text = dictionary_path().read_text(encoding="utf-8")
            glosses = (line.split("/", 1)[1] for line in text.splitlines() if "/" in line and not line.startswith("#"))
            _english = frozenset(w for g in glosses for w in re.findall(r"\b[a-z]+\b", g))
        return _english


__all__ = [
    "Lexicon",
    "build_lexicon",
    "corpus_words",
    "english_vocabulary",
    "gloss_candidates",
    "lexicon_for",
    "own_names",
    "readable_gloss",
    "readable_glosses",
    "shortest",
]
