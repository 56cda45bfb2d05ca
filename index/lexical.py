"""Chinese-aware tokens and BM25 (bm25s) over chunks.

Chinese runs are cut with jieba (search mode, so compounds also yield their words); Latin
text is lower-cased words; numbers and model names stay whole (70.2%, K2.5, H100, SWE-bench)
and hyphenated names also yield their parts.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import threading
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

_TOKEN = re.compile(
    r"[a-z0-9]+(?:[.\-/+][a-z0-9]+)*[%+]*"  # words, numbers, model names: 70.2% k2.5 swe-bench 1/10
    r"|[\u3400-\u9fff]+"  # a run of Han characters, cut by jieba
)
_GLUED = re.compile(r"([a-z]{3,})(\d+(?:\.\d+)?)")
_NAME_PLURAL = re.compile(r"[a-z]+\d+s")
_jieba_lock = threading.Lock()  # jieba's Tokenizer isn't thread-safe: one cut at a time
_jieba_made_lock = threading.Lock()  # held while a tokenizer is made: one dictionary per term file, not per thread

# Bump when tokenize() changes what it yields, or BM25's parameters: an index version stores BM25
# over the tokens of its build (see LexicalIndex.save), and a version made otherwise is re-indexed at load.
# 5: "personal", "makes", "making" are stopwords; 6: h100s → h100; 7: tech terms whole; 8: "rather" a stopword
TOKENIZER_VERSION = 8
# BM25's length normalisation. bm25s's default, 0.75, let the short passages win over the long one
# that holds three bullets: b swept 0.3–0.75 on dev, 0.3–0.6 all better than 0.75 in English
# (hit@1 0.89 → 0.91), 0.6 also R@5 0.98 → 1.00; Chinese unchanged (README).
BM25_B = 0.6
_EMPTY_DOCUMENT = "\x00"  # a document of only stopwords still needs a token
# The BM25 index as bm25s saves it, next to the other files of an index version.
LEXICAL_FILES = {
    "data_name": "bm25.data.npy",
    "indices_name": "bm25.indices.npy",
    "indptr_name": "bm25.indptr.npy",
    "vocab_name": "bm25.vocab.json",
    "params_name": "bm25.params.json",
}

# when-words jieba doesn't cut whole by itself (_jieba adds them); stopwords like the other question words
_WHEN_WORDS = ("哪天", "哪一天", "哪年", "哪一年", "几号", "几月", "几月份", "啥时候", "何时")

ZH_STOPWORDS = frozenset(
    [
        "的",
        "了",
        "是",
        "在",
        "吗",
        "呢",
        "吧",
        "啊",
        "呀",
        "么",
        "和",
        "与",
        "及",
        "也",
        "都",
        "就",
        "还",
        "又",
        "把",
        "被",
        "让",
        "给",
        "对",
        "从",
        "向",
        "到",
        "这",
        "那",
        "这个",
        "那个",
        "这些",
        "那些",
        "什么",
        "怎么",
        "怎样",
        "怎么样",
        "如何",
        "哪",
        "哪个",
        "哪些",
        "哪家",
        "哪里",
        "哪儿",
        *_WHEN_WORDS,
        "什么时候",
        "时候",  # of 什么时候 / 啥时候, which jieba also cuts into their parts
        "月份",
        "多少",
        "几",
        "为什么",
        "为何",
        "谁",
        "是否",
        "有没有",
        "有",
        "没有",
        "一个",
        "一",
        "个",
        "我",
        "你",
        "他",
        "她",
        "它",
        "我们",
        "你们",
        "他们",
        "她们",
        "自己",
        "文章",
        "本文",
        "作者",
        "文中",
        "说",
        "讲",
        "讲了",
        "提到",
        "提及",
        "认为",
        "觉得",
        "中",
        "上",
        "下",
        "里",
        "之",
        "其",
        "而",
        "但",
        "并",
        "或",
        "等",
        "做",
        "用",
        "将",
        "会",
        "能",
        "可以",
        "要",
        "想",
        "请问",
        "请",
        "告诉",
        "一下",
        "关于",
        "方面",
        "情况",
        "问题",
        "主要",
        "具体",
        "所",
        "以",
        "为",
        "着",
        "过",
        "得",
        "地",
        "吗",
        "嘛",
    ]
)
EN_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "into",
        "about",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "done",
        "have",
        "has",
        "had",
        "having",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "he",
        "him",
        "his",
        "she",
        "her",
        "they",
        "them",
        "their",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "not",
        "no",
        "yes",
        "so",
        "than",
        "rather",
        "then",
        "too",
        "very",
        "just",
        "also",
        "any",
        "some",
        "all",
        "each",
        "both",
        "more",
        "most",
        "other",
        "such",
        "only",
        "own",
        "same",
        "s",
        "t",
        "article",
        "author",
        "text",
        "post",
        "say",
        "says",
        "said",
        "tell",
        "told",
        "mention",
        "mentioned",
        "according",
        "please",
        "explain",
        "describe",
        "give",
        "me",
        "us",
        "whats",
        "hows",
        "use",
        "uses",
        "used",
        "using",
        "much",
        "many",
        "up",
        "down",
        "out",
        "get",
        "got",
        "make",
        "made",
        "way",
        "thing",
        "things",
        # words that frame a question, not its subject ("why does transparency matter?", "what
        # happened…", "what do they really think"): counted as content, they halved the known share
        # of short English questions and got them declined
        "matter",
        "matters",
        "think",
        "thinks",
        "happen",
        "happens",
        "happened",
        "actually",
        "really",
        "exactly",
        "want",
        "wants",
        "wanted",
        # the same for opinions ("what's the author's personal take on…") and "what makes…"; not
        # "take" itself: "How long did the RL training take?" asks how long, and is declined
        "personal",
        "makes",
        "making",
    ]
)


def terms_path() -> Path:
    """data/tech_terms.tsv: the field's English → Chinese terms (crosslingual.py keys the pairs; the
    tokenizer cuts their Chinese side whole)."""
    return Path(__file__).parent / "data" / "tech_terms.tsv"


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
    """The tech terms file's sha256: an index made with other terms is made again (build.py)."""
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
    for word in _WHEN_WORDS:
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


class LexicalIndex:
    """BM25 over the chunks' texts; scores for every chunk of one query.

    Built from texts (jieba over every text) or loaded from the files ``save`` wrote, memory-mapped:
    at 100k chunks, loading takes a fraction of a second where indexing took minutes. The
    documents' token lists aren't kept, only the vocabulary."""

    def __init__(self, texts: Sequence[str]) -> None:
        import bm25s

        doc_tokens = [tokenize(t) for t in texts]
        self.vocabulary = frozenset(t for tokens in doc_tokens for t in tokens)
        self._size = len(texts)
        self._bm25 = bm25s.BM25(b=BM25_B)
        if self._size:  # bm25s can't index nothing; scores() answers for an empty index
            self._bm25.index([tokens or [_EMPTY_DOCUMENT] for tokens in doc_tokens], show_progress=False)

    def __len__(self) -> int:
        return self._size

    def save(self, folder: Path) -> None:
        """Write the BM25 index into ``folder`` (the files of LEXICAL_FILES; none for no documents)."""
        if self._size:
            self._bm25.save(folder, corpus=None, show_progress=False, **LEXICAL_FILES)  # type: ignore[arg-type]

    @classmethod
    def load(cls, folder: Path, size: int, mmap: bool = True) -> LexicalIndex:
        """The index ``save`` wrote for ``size`` documents. Raises OSError or ValueError if the files
        are missing, unreadable or for another number of documents."""
        import bm25s

        self = cls.__new__(cls)
        self._size = size
        if not size:
            self._bm25 = bm25s.BM25(b=BM25_B)
            self.vocabulary = frozenset()
            return self
        for name in LEXICAL_FILES.values():
            if not (folder / name).is_file():
                raise FileNotFoundError(f"{folder / name} is missing")
        params = json.loads((folder / LEXICAL_FILES["params_name"]).read_text(encoding="utf-8"))
        if not isinstance(params, dict) or params.get("num_docs") != size:
            raise ValueError(
                f"the BM25 index is for {params.get('num_docs') if isinstance(params, dict) else '?'} "
                f"documents, not {size}"
            )
        self._bm25 = bm25s.BM25.load(folder, mmap=mmap, show_progress=False, **LEXICAL_FILES)
        vocab = self._bm25.vocab_dict
        columns = len(self._bm25.scores["indptr"]) - 1  # one per token; bm25s's "" comes after them
        if not isinstance(vocab, dict) or max((v for k, v in vocab.items() if k), default=-1) >= columns:
            raise ValueError("the BM25 vocabulary does not match its score matrix")
        self.vocabulary = frozenset(vocab) - {"", _EMPTY_DOCUMENT}  # bm25s's and our placeholders
        return self

    def _postings(self, token: str) -> tuple[int, int]:
        """Where the token's documents lie in the score matrix's indices ((0, 0) for none)."""
        if token not in self.vocabulary:
            return 0, 0
        column = self._bm25.vocab_dict[token]
        indptr = self._bm25.scores["indptr"]
        return int(indptr[column]), int(indptr[column + 1])

    def document_frequency(self, token: str) -> int:
        """How many documents contain the token (0 if none does)."""
        start, end = self._postings(token)
        return end - start

    def documents_with(self, token: str, limit: int) -> list[int]:
        """The first ``limit`` documents (by position) that contain the token."""
        start, end = self._postings(token)
        return [int(i) for i in self._bm25.scores["indices"][start : min(end, start + limit)]]

    def _idf(self, documents: int) -> float:
        """BM25's idf for a term in this many documents, as bm25s's "lucene" method (ours) computes it."""
        return math.log(1 + (self._size - documents + 0.5) / (documents + 0.5))

    def grouped_scores(self, groups: Sequence[Sequence[str]]) -> np.ndarray:
        """BM25 with each group of tokens scored as one term (Lucene's synonym query): an English
        word and its translations share one idf, from the documents that have any of them, and a
        document counts its best-matching form once. Summed, the English quotation's rare
        "training" / "model" outweighed the Chinese words for the same things in the passage that
        answers; one-token groups score exactly as ``scores``."""
        single = [g[0] for g in groups if len(g) == 1]
        total = self.scores(single).astype(np.float64)
        if self._size == 0:
            return total.astype(np.float32)
        data, indices = self._bm25.scores["data"], self._bm25.scores["indices"]
        for group in (g for g in groups if len(g) > 1):
            best = np.zeros(self._size, dtype=np.float64)  # 0 where no form occurs
            for token in dict.fromkeys(t for t in group if t in self.vocabulary):
                start, end = self._postings(token)
                docs = np.asarray(indices[start:end], dtype=np.int64)
                # a stored score is idf × the term-frequency part: keep the part
                part = np.asarray(data[start:end], dtype=np.float64) / self._idf(end - start)
                best[docs] = np.maximum(best[docs], part)
            documents = int(np.count_nonzero(best))
            if documents:
                total += self._idf(documents) * best
        return total.astype(np.float32)

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        known = [t for t in query_tokens if t in self.vocabulary]
        if not known or self._size == 0:
            return np.zeros(self._size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(known), dtype=np.float32)
