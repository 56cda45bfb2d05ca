"""A tiny synthetic index for the answer steps (fixtures in conftest.py): real chunking, sentences, BM25 and FAISS, with
vectors from hashed character pairs instead of an embedding model (no model is loaded)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from index.build.background import background_questions, compute_background
from index.build.builder import chunk_sentences, passage_text
from index.build.chunking import chunk_document
from index.build.corpus import DocumentMeta
from index.build.lexical import LexicalIndex
from index.build.store import ChunkerSettings, CorpusDocument, Manifest, StoredIndex, make_vector_index
from index.english.dictionary import build_glossary

DIM = 64
TITLE = "测试文章：水果与火车"
DOCUMENT = (
    f"——{TITLE}\n\n"
    "Alice | 2026年1月2日\n\n"
    "一、水果\n\n"
    "苹果每斤 5 元，香蕉每斤 3 元。果园在山东烟台，每年秋天采摘。\n\n"
    "果农说了三件事：\n\n"
    "• 第一，今年雨水多。\n\n"
    "• 第二，价格上涨了。\n\n"
    "• 第三，销量翻了 2 倍。\n\n"
    "二、火车\n\n"
    "夜班火车从北京开往上海，全程 12 小时。车票价格是 400 元。\n\n"
    "项目\t价格\t时长\n\n"
    "卧铺\t400 元\t12 小时\n\n"
    "高铁\t550 元\t5 小时\n"
)

# a lead-in without a colon over a table (a lead-in), and one over sub-sections (not one)
STRUCTURED = (
    "——测试\n\nAlice | 2026年1月2日\n\n一、做法\n\n既然说清楚了，我们来看看他们做了什么。\n\n"
    "阶段一：准备工作\n\n他们先买了种子。\n\n阶段二：种植\n\n然后在春天播种。\n\n"
    "二、结果\n\n光说不行，我们来看看收成。\n\n项目\t产量\n\n苹果\t5 吨\n\n梨\t3 吨\n\n收成不错。\n\n"
    "三、其他\n\n这里还有一件事：天气。\n\n今年雨水多，价格高。\n"
)

# a section whose text asks itself questions and answers them (units.question_and_answer)
ASKED = "\n四、看法\n\n苹果卖得很好。这意味着什么？意味着果农赚了钱。\n\n我的看法？果园还会扩大。\n"


def hashed_vector(text: str) -> np.ndarray:
    """A unit vector from the text's character pairs: texts sharing words point alike."""
    vector = np.zeros(DIM, dtype=np.float32)
    compact = "".join(text.split())
    for i in range(max(1, len(compact) - 1)):
        digest = hashlib.sha256(compact[i : i + 2].encode()).digest()
        vector[digest[0] % DIM] += 1.0 if digest[1] % 2 else -1.0
    norm = np.linalg.norm(vector)
    return vector / norm if norm else vector


def build_stored(text: str = DOCUMENT, title: str = TITLE, path: Path = Path("synthetic")) -> StoredIndex:
    chunks = chunk_document("doc", text, title, 60, 0)
    sentences = chunk_sentences(chunks)
    chunk_vectors = np.stack([hashed_vector(passage_text(c)) for c in chunks])
    sentence_vectors = np.stack(
        [hashed_vector(c.text[s.start - c.start : s.end - c.start]) for s in sentences for c in [chunks[s.chunk]]]
    )
    background = compute_background(
        np.stack([hashed_vector(q) for q in background_questions()]), chunk_vectors, sentence_vectors
    )
    lexical = LexicalIndex([passage_text(c) for c in chunks])
    meta = DocumentMeta(doc_id="doc", title=title, author="Alice", date="2026-01-02", language="zh")
    manifest = Manifest(
        embedder_name="hashed",
        embedder_id="hashed",
        dim=DIM,
        chunker=ChunkerSettings(size=60, overlap=0),
        documents=[CorpusDocument(path="doc.txt", sha256="0", meta=meta)],
        chunk_count=len(chunks),
        sentence_count=len(sentences),
        index_type="flat",
        built_at="2026-01-02T00:00:00+00:00",
        build_seconds=0.0,
        reused_embeddings=0,
    )
    vectors, _ = make_vector_index(chunk_vectors, 50_000)
    return StoredIndex(
        path=path,
        version="synthetic",
        manifest=manifest,
        chunks=chunks,
        vectors=vectors,
        sentences=sentences,
        sentence_vectors=sentence_vectors,
        glossary=build_glossary(lexical.vocabulary),
        background=background,
        lexical=lexical,
    )


def sentence_id(stored: StoredIndex, starts: str) -> int:
    """The sentence whose text starts with ``starts``."""
    return next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s).startswith(starts))
