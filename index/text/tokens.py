"""Chinese-aware tokens: the words BM25, the glossary and the answer layer compare.

Chinese runs are cut with jieba (search mode, so compounds also yield their words), with the
field's terms (data/tech_terms.tsv) cut whole; Latin text is lower-cased words; numbers and
model names stay whole (70.2%, K2.5, H100, SWE-bench) and hyphenated names also yield their parts.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path

from index.text.stopwords import EN_STOPWORDS, WHEN_WORDS, ZH_STOPWORDS

_TOKEN = re.compile(
    r"[a-z0-9]+(?:[.\-/+][a-z0-9]+)*[%+]*"  # words, numbers, model names: 70.2% k2.5 swe-bench 1/10
    r"|[\u3400-\u9fff]+"  # a run of Han characters, cut by jieba
)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_GLUED = re.compile(r"([a-z]{3,})(\d+(?:\.\d+)?)")
_NAME_PLURAL = re.compile(r"[a-z]+\d+s")
_jieba_lock = threading.Lock()  # jieba's Tokenizer isn't thread-safe: one cut at a time
_jieba_made_lock = threading.Lock()  # held while a tokenizer is made: one dictionary per term file, not per thread

# Bump when tokenize() changes what it yields, or BM25's parameters: an index version stores BM25
# over the tokens of its build (see LexicalIndex.save), and a version made otherwise is re-indexed at load.
# 5: "personal", "makes", "making" are stopwords; 6: h100s → h100; 7: tech terms whole; 8: "rather" a stopword
TOKENIZER_VERSION = 8


def terms_path() -> Path:
    """data/tech_terms.tsv: the field's English → Chinese terms (english/dictionary.py keys the pairs; the
    tokenizer cuts their Chinese side whole)."""
    return Path(__file__).resolve().parents[1] / "data" / "tech_terms.tsv"


def _terms_version() -> tuple[str, int, int]:
    path = terms_path()
    status = path.stat()
    return str(path), status.st_mtime_ns, status.st_size


def term_pairs() -> tuple[tuple[str, str], ...]:
    """(English, Chinese) pairs of the tech terms as the file says now, read again only when it
    changes: an edit, then a rebuild in a running bot, tokenizes with the edited terms and makes its
    glossary with them."""
    return _read_term_pairs(_terms_version())


@lru_cache(maxsize=2)
def _read_term_pairs(version: tuple[str, int, int]) -> tuple[tuple[str, str], ...]:
    pairs = []
    for line in Path(version[0]).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            english, chinese = line.split("\t")
            pairs.append((english, chinese.strip()))
    return tuple(pairs)


def terms_digest() -> str:
    """The tech terms file's sha256: an index made with other terms is made again (build/builder.py)."""
    return hashlib.sha256(terms_path().read_bytes()).hexdigest()


def _jieba():  # type: ignore[no-untyped-def]
    """The tokenizer for the tech terms as the file is now (term_pairs).

    Made once, under a lock: lru_cache alone lets every thread that misses build its own
    dictionary at the same time (a cold burst of 50 questions built 50, 3 GiB)."""
    version = _terms_version()
    with _jieba_made_lock:
        return _jieba_for(version)


def warm_up() -> None:
    """Make the tokenizer now (jieba loads its dictionary on first use: about a second)."""
    tokenize("预热分词器 warm up")


@lru_cache(maxsize=2)
def _jieba_for(version: tuple[str, int, int]):  # type: ignore[no-untyped-def]
    import jieba

    jieba.setLogLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()  # our own: the words added below don't change anyone else's jieba
    tokenizer.initialize()
    # question words cut whole, so that they are dropped as stopwords: jieba cut "是哪天发的" 哪/天发/的,
    # and the stray 天发 counted as a word of the question the article lacks
    for word in WHEN_WORDS:
        tokenizer.add_word(word)
    # the field's words, which jieba's dictionary predates, cut whole: it read "的总算力" 总算 ("at last")
    # + 力, and "compute" → 算力 never met the CEO's 85% of it
    for word in _tech_words(_read_term_pairs(version)):
        tokenizer.add_word(word, TECH_WORD_FREQUENCY)
    return tokenizer


# as frequent as 模型 in jieba's dictionary: jieba's own guess for a new word (2 for 算力) only keeps
# it whole alone, and 总算 + 力 still beat 总 + 算力
TECH_WORD_FREQUENCY = 3000


def _tech_words(pairs: tuple[tuple[str, str], ...]) -> list[str]:
    """The Chinese side of the tech terms, words of two or more characters."""
    words = (chinese for _, chinese in pairs)
    return [w for w in dict.fromkeys(words) if len(w) > 1 and all("\u3400" <= c <= "\u9fff" for c in w)]


def _cut(run: str) -> list[str]:
    jieba = _jieba()
    with _jieba_lock:  # jieba's lazy dictionary loading isn't thread-safe
        return [w for w in jieba.lcut_for_search(run) if w.strip()]


def chinese_words(text: str) -> list[str]:
    """The Chinese words of ``text`` cut once each (jieba's precise mode, the tech terms whole), no
    stopwords: what a sentence says word by word, where tokenize() also yields a compound's parts
    (强化学习 → 强化, 化学, 学习, 强化学习) for search."""
    jieba = _jieba()
    runs = _HAN_RUN.findall(unicodedata.normalize("NFKC", text))
    with _jieba_lock:
        cut = [w for run in runs for w in jieba.lcut(run)]
    return [w for w in cut if w.strip() and w not in ZH_STOPWORDS]


@lru_cache(maxsize=2)
def _tagger(tokenizer):  # type: ignore[no-untyped-def]
    import jieba.posseg

    return jieba.posseg.POSTokenizer(tokenizer)


def nouns(text: str) -> list[str]:
    """The nouns and names of ``text`` by jieba's part-of-speech tags (a field term it was given
    whole, untagged, is a noun: 合成数据)."""
    return [
        word
        for word, flag in tagged(text)
        if flag.startswith(("n", "vn", "eng")) or (flag == "x" and len(word) > 1 and _HAN_RUN.fullmatch(word))
    ]


def tagged(text: str) -> list[tuple[str, str]]:
    """The words of ``text`` with jieba's part-of-speech tags, in order (几乎 "almost" an adverb, d)."""
    tagger = _tagger(_jieba())
    with _jieba_lock:
        return [(p.word, p.flag) for p in tagger.cut(unicodedata.normalize("NFKC", text))]


def tokenize(text: str, drop_stopwords: bool = True) -> list[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    tokens: list[str] = []
    for match in _TOKEN.finditer(text):
        piece = match.group(0)
        if "\u3400" <= piece[0] <= "\u9fff":
            tokens.extend(_cut(piece))
            continue
        # a model name's plural is the name: "H100s" → h100 (the article writes "100 万个 H100")
        tokens.append(piece[:-1] if _NAME_PLURAL.fullmatch(piece) else piece)
        if "-" in piece or "/" in piece:
            tokens.extend(p for p in re.split(r"[-/]", piece) if len(p) > 1)
        # "composer2.5" written without a space also matches "composer" and "2.5"
        glued = _GLUED.fullmatch(piece)
        if glued:
            tokens.extend(p for p in glued.groups() if len(p) > 1)
    if drop_stopwords:
        tokens = [t for t in tokens if t not in ZH_STOPWORDS and t not in EN_STOPWORDS]
    return tokens
