"""Extractive answers: pick the passages' best sentences, compose a short cited answer, or abstain.

Pure functions over already-retrieved passages and their sentence vectors; no model calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from index.chunking import SECTION_SEPARATOR
from index.lexical import tokenize
from index.models import Citation
from index.store import Sentence, StoredIndex

MAX_ANSWER_CHARS = 400
SENTENCE_PASSAGES = 3  # sentences are drawn from this many top passages
_LEAD_IN = re.compile(r"[：:]$")

_OVERVIEW = re.compile(
    r"(讲了?(什么|啥)|说了?(什么|啥)|主要内容|内容是什么|概括|总结一下|总结下|摘要|大意|主旨|要点|核心观点|主要观点|讲的是什么|"
    r"summar(y|ize|ise)|overview|main (points|ideas?|takeaways?)|key (points|takeaways)|tl;?dr|gist|"
    r"what('s| is) (this|the) (article|post|text) about|what does (this|the) (article|post) (say|cover|discuss))",
    re.IGNORECASE,
)
_ARTICLE_WORD = re.compile(r"(文章|本文|这篇|全文|article|post|text|this)", re.IGNORECASE)


def is_overview_question(question: str) -> bool:
    """'这篇文章讲了什么？', 'summarize the article', 'what are the main points?'."""
    if not _OVERVIEW.search(question):
        return False
    short = len(tokenize(question)) <= 3
    return short or bool(_ARTICLE_WORD.search(question))


@dataclass(frozen=True)
class ScoredSentence:
    sentence: int  # position in the index's sentence list
    score: float
    passage_rank: int


def lexical_overlap(question_tokens: list[str], text: str) -> float:
    """Share of the question's content tokens found in the text."""
    if not question_tokens:
        return 0.0
    present = set(tokenize(text))
    return sum(1 for t in question_tokens if t in present) / len(question_tokens)


def score_sentences(
    stored: StoredIndex,
    passage_chunks: list[int],
    query_vector: np.ndarray,
    question_tokens: list[str],
    lexical_weight: float = 0.5,
) -> list[ScoredSentence]:
    """Sentences of the top passages, best first: cosine to the question plus lexical overlap,
    with a small prior for higher-ranked passages."""
    rank_of = {chunk: rank for rank, chunk in enumerate(passage_chunks[:SENTENCE_PASSAGES])}
    ids = [i for i, s in enumerate(stored.sentences) if s.chunk in rank_of]
    if not ids:
        return []
    cosines = stored.sentence_vectors[ids] @ query_vector
    scored = []
    for sid, cosine in zip(ids, cosines.tolist(), strict=True):
        sentence = stored.sentences[sid]
        overlap = lexical_overlap(question_tokens, stored.sentence_text(sentence))
        rank = rank_of[sentence.chunk]
        scored.append(ScoredSentence(sid, cosine + lexical_weight * overlap - 0.02 * rank, rank))
    return sorted(scored, key=lambda s: (-s.score, s.sentence))


def _is_table_row(text: str) -> bool:
    return "\t" in text


def _table_header(stored: StoredIndex, sentence: Sentence) -> str | None:
    """The first row of the table a row belongs to (the row before the first of consecutive rows)."""
    chunk = stored.chunks[sentence.chunk]
    lines = chunk.text[: sentence.start - chunk.start].split("\n")
    rows = [line for line in lines if line.strip()]
    header = None
    for line in reversed(rows):
        if not _is_table_row(line):
            break
        header = line
    return header


def render_sentence(stored: StoredIndex, sentence: Sentence) -> str:
    """A sentence as it reads in an answer: table rows become 'header: cell' pairs."""
    text = stored.sentence_text(sentence)
    if not _is_table_row(text):
        return text
    cells = [c.strip() for c in text.split("\t")]
    header = _table_header(stored, sentence)
    if header is None or header == text:
        return " | ".join(cells)
    names = [c.strip() for c in header.split("\t")]
    if len(names) != len(cells):
        return " | ".join(cells)
    return f"{cells[0]}：" + "；".join(f"{name} {cell}" for name, cell in zip(names[1:], cells[1:], strict=True))


def pick_sentences(stored: StoredIndex, ranked: list[ScoredSentence]) -> list[int]:
    """The best sentence, plus the next one of its chunk when the best only leads into it
    (ends with a colon, or is very short)."""
    if not ranked:
        return []
    best = ranked[0].sentence
    chosen = [best]
    text = stored.sentence_text(stored.sentences[best])
    following = best + 1
    if (
        (_LEAD_IN.search(text) or len(text) < 24)
        and following < len(stored.sentences)
        and stored.sentences[following].chunk == stored.sentences[best].chunk
    ):
        chosen.append(following)
    return chosen


def citation_for(stored: StoredIndex, n: int, sentence: Sentence) -> Citation:
    chunk = stored.chunks[sentence.chunk]
    return Citation(
        n=n,
        chunk_id=chunk.chunk_id,
        doc_id=chunk.doc_id,
        section=chunk.section,
        paragraphs=_paragraphs_of(stored, sentence),
        start=sentence.start,
        end=sentence.end,
        quote=stored.sentence_text(sentence),
    )


def _paragraphs_of(stored: StoredIndex, sentence: Sentence) -> list[int]:
    """The paragraph number of a sentence: count the chunk's paragraphs up to it."""
    chunk = stored.chunks[sentence.chunk]
    before = chunk.text[: sentence.start - chunk.start]
    index = sum(1 for line in before.split("\n")[:-1] if line.strip())
    return [chunk.paragraphs[min(index, len(chunk.paragraphs) - 1)]]


def compose(stored: StoredIndex, sentences: list[int], language: str) -> tuple[str, list[Citation]]:
    """Answer text with [n] markers, and its citations (one per cited chunk)."""
    citations: list[Citation] = []
    parts: list[str] = []
    marker_of: dict[int, int] = {}
    for sid in sentences:
        sentence = stored.sentences[sid]
        if sentence.chunk not in marker_of:
            marker_of[sentence.chunk] = len(citations) + 1
            citations.append(citation_for(stored, marker_of[sentence.chunk], sentence))
        else:  # a second sentence of the same chunk widens that citation
            cite = citations[marker_of[sentence.chunk] - 1]
            chunk = stored.chunks[sentence.chunk]
            cite.start, cite.end = min(cite.start, sentence.start), max(cite.end, sentence.end)
            cite.quote = chunk.text[cite.start - chunk.start : cite.end - chunk.start]
            cite.paragraphs = sorted({*cite.paragraphs, *_paragraphs_of(stored, sentence)})
        parts.append(render_sentence(stored, sentence))
    body = _join(parts, language)
    markers = "".join(f"[{c.n}]" for c in citations)
    if len(body) > MAX_ANSWER_CHARS:
        body = body[: MAX_ANSWER_CHARS - 1].rstrip() + "…"
    if language == "zh":
        return f"根据文章：{body} {markers}", citations
    return f"The article says (quoted from the Chinese original): “{body}” {markers}", citations


def _join(parts: list[str], language: str) -> str:
    joined = ""
    for part in parts:
        if joined and not joined.endswith(("。", "！", "？", "：", "…", ".", "!", "?", ":")):
            joined += "；" if language == "zh" else "; "
        elif joined and joined[-1] in ".!?:":
            joined += " "
        joined += part
    return joined


def nearest_sections(stored: StoredIndex, chunks: list[int], limit: int = 3) -> list[str]:
    seen: list[str] = []
    for chunk in chunks:
        section = stored.chunks[chunk].section
        if section not in seen:
            seen.append(section)
        if len(seen) == limit:
            break
    return seen


def abstain_text(language: str, sections: list[str]) -> str:
    listed = "；".join(s.replace(SECTION_SEPARATOR, " › ") for s in sections)
    if language == "zh":
        text = "文章没有提到这个问题，我无法从中找到答案。"
        return text + (f"最接近的章节：{listed}" if listed else "")
    text = "The article doesn't say — I couldn't find an answer to that in it."
    return text + (f" Nearest sections: {listed}" if listed else "")


def overview(stored: StoredIndex, language: str) -> tuple[str, list[Citation]]:
    """Title, author and date, then each top-level section with its most central sentence."""
    citations: list[Citation] = []
    lines: list[str] = []
    for doc in stored.manifest.documents:
        meta = doc.meta
        byline = " · ".join(x for x in (meta.author, meta.date) if x)
        lines.append(f"《{meta.title}》" + (f"（{byline}）" if byline else ""))
        for section, sids in _top_sections(stored, meta.doc_id):
            vectors = stored.sentence_vectors[sids]
            centre = vectors.mean(axis=0)
            best = sids[int(np.argmax(vectors @ centre))]
            n = len(citations) + 1
            citations.append(citation_for(stored, n, stored.sentences[best]))
            lines.append(f"• {section}：{render_sentence(stored, stored.sentences[best])} [{n}]")
    intro = "这篇文章的要点：" if language == "zh" else "The article's outline (quoted from the Chinese original):"
    return intro + "\n" + "\n".join(lines), citations


def _top_sections(stored: StoredIndex, doc_id: str) -> list[tuple[str, list[int]]]:
    """Top-level sections of a document with their body sentences (headings left out)."""
    groups: dict[str, list[int]] = {}
    headings = set()
    for chunk in stored.chunks:
        if chunk.doc_id == doc_id:
            headings.update(chunk.section.split(SECTION_SEPARATOR))
    title = next((d.meta.title for d in stored.manifest.documents if d.meta.doc_id == doc_id), "")
    for sid, sentence in enumerate(stored.sentences):
        chunk = stored.chunks[sentence.chunk]
        if chunk.doc_id != doc_id or chunk.section == title:
            continue
        if stored.sentence_text(sentence) in headings:
            continue
        groups.setdefault(chunk.section.split(SECTION_SEPARATOR)[0], []).append(sid)
    return list(groups.items())
