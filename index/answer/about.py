"""Questions about the article itself (who wrote it, when, what it says overall) and their answers:
from the documents' metadata and each top-level section's most central sentence, cited.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from index.answer.english_line import rendering, translated_line
from index.answer.messages import message
from index.answer.units import citation_for, render_sentence
from index.build.chunking import SECTION_SEPARATOR
from index.build.store import StoredIndex
from index.models import Citation
from index.text.tokens import tokenize

_OVERVIEW = re.compile(
    r"(讲了?(什么|啥)|说了?(什么|啥)|主要内容|内容是什么|(用)?一句话|概括|总结(一下|下)?|摘要|大意|主旨|要点|核心观点|主要观点|"
    r"讲的是什么|summar(y|ize|ise)|overview|main (points|ideas?|takeaways?)|key (points|takeaways)|tl;?dr|gist|"
    r"in (one|a) (sentence|line)|"
    r"what('s| is) (this|the) (article|post|text) about|what does (this|the) (article|post) (say|cover|discuss))",
    re.IGNORECASE,
)


_META = re.compile(
    r"(作者是谁|谁是作者|作者叫|作者名|谁写的|是谁写|写的人|(文章|本文|这篇).{0,6}(副标题|标题|题目|名字|叫什么|叫啥)"
    r"|(副标题|标题|题目)是什么|(文章|本文|这篇).{0,8}(发表|发布|写)(的|于)?.{0,4}(时间|日期|哪一?天|什么时候|何时|哪一?年|几月几号)"
    r"|(什么时候|哪一?天|何时|哪一?年|几月几号|几号).{0,4}(发表|写)的"
    r"|who('s| is| was)? (is )?the (author|writer)|author of (this|the)|who wrote|written by whom"
    r"|(title|subtitle|headline|name) of (this|the) (article|post|piece)"
    r"|(article|post|piece)'?s? (title|subtitle|headline|author|date|publication)"
    r"|(when|(what|which) (year|date|day|month)) (was|is) (it|(this|the) (article|post|piece))"
    r" (published|written|posted)"
    r"|(when|(what|which) (year|date|day|month)) did (it|(this|the) (article|post|piece)) (come|came) out"
    r"|(what|which) (date|day) is (it|this|the (article|post|piece)) (from|dated)"
    r"|publication date)",
    re.IGNORECASE,
)


_ARTICLE_WORD = re.compile(
    r"(文章|本文|这篇|全文|\b(?:article|post|piece|text|this|it|breakdown|write-?up|essay)\b)", re.IGNORECASE
)


_LATIN = re.compile(r"[a-z0-9]", re.IGNORECASE)


def _only(
    pattern: re.Pattern[str],
    question: str,
    naming: frozenset[str] = frozenset(),
    also: frozenset[str] = frozenset(),
) -> bool:
    """The pattern matches and nothing else is asked: no content words remain once the match and
    words for 'the article' are removed ('Cursor 的 CEO 说了什么？' is about the CEO). ``naming``:
    words that say which article is meant, beside a word for it ("this Composer breakdown"; alone,
    "Who wrote Composer 2.5?" is about the model); ``also``: words that ask more of the same kind."""
    if not pattern.search(question):
        return False
    rest = pattern.sub(" ", question)
    named = bool(_ARTICLE_WORD.search(rest))
    return not [t for t in tokenize(_ARTICLE_WORD.sub(" ", rest)) if not (named and t in naming) and t not in also]


# the about model routes a question the patterns pass over only when at least this sure of it
ABOUT_CONFIDENCE = 0.8


def learned_about(
    shares: Sequence[float], kinds: Sequence[str], question: str, points_at_article: bool = False
) -> str | None:
    """ "meta" or "overview" (its outline too) when the about model (``shares`` over ``kinds``) is sure
    the question asks about the article itself and the question has a word for the article ("What are
    the sections of the article?", "这篇文章分了哪几部分？"), or ``points_at_article`` (a pronoun after a
    question about the article: "她是哪天发的？" after "这篇文章是谁写的？"); None for a question about
    what it discusses."""
    best = int(np.argmax(shares))
    named = points_at_article or bool(_ARTICLE_WORD.search(question))
    if shares[best] < ABOUT_CONFIDENCE or kinds[best] == "content" or not named:
        return None
    return "meta" if kinds[best] == "meta" else "overview"


def is_overview_question(question: str) -> bool:
    """'这篇文章讲了什么？', 'summarize the article', 'what are the main points?'."""
    return _only(_OVERVIEW, question)


# what else a question about the article itself may ask beside what _META matched: "Who wrote this
# piece and what date is on it?", "…and when was it dated?"
_META_WORDS = frozenset(
    ["date", "dated", "day", "year", "month", "author", "writer", "wrote", "written", "published", "title"]
)


def is_meta_question(question: str, titles: Sequence[str] = ()) -> bool:
    """Questions about the article itself: who wrote it, its title, when it was published
    (not 'who is the author of Kimi K2.5?'). The Latin words of a title name the article too:
    "who wrote this Composer breakdown?" (a Chinese title's words are content words: "启示")."""
    return _only(_META, question, _latin_words(tuple(titles)), _META_WORDS)


@lru_cache(maxsize=64)
def _latin_words(titles: tuple[str, ...]) -> frozenset[str]:
    """The titles' Latin-script words (once per corpus, not once per question)."""
    return frozenset(t for title in titles for t in tokenize(title) if _LATIN.match(t))


# What is left of "Who is Kate?" / "Kate 是谁" / "介绍一下 Kate" once the name is taken out.
_ABOUT_PERSON = re.compile(r"(tell me about|介绍一下|介绍|什么人|何许人|是干什么的|是做什么的|是干嘛的)", re.IGNORECASE)


def is_author_question(question: str, authors: list[str]) -> bool:
    """'Who is Kate?' about the article's author, by name, and nothing else: the article knows her
    only as its author, so the byline answers it (not a passage that happens to score best)."""
    for author in filter(None, authors):
        name = re.compile(re.escape(author), re.IGNORECASE)
        if name.search(question):
            rest = _ABOUT_PERSON.sub(" ", _ARTICLE_WORD.sub(" ", name.sub(" ", question)))
            if not tokenize(rest):
                return True
    return False


def _header_sentences(stored: StoredIndex, doc_id: str) -> tuple[int | None, range]:
    """A document's header chunk (its title and byline lines, StoredIndex.header_chunks) and its sentences."""
    index = next((i for i in sorted(stored.header_chunks) if stored.chunks[i].doc_id == doc_id), None)
    return index, stored.sentences_of(index) if index is not None else range(0)


def _header_citation(stored: StoredIndex, doc_id: str, n: int) -> Citation | None:
    """A citation of a document's title and byline lines."""
    index, own = _header_sentences(stored, doc_id)
    if index is None or not own:
        return None
    header = stored.chunks[index]
    cite = citation_for(stored, n, stored.sentences[own[0]])
    cite.end = stored.sentences[own[-1]].end
    cite.quote = header.text[: cite.end - header.start]
    cite.paragraphs = header.paragraphs
    return cite


class About(NamedTuple):
    """An answer about the article itself, and whether an English asker's reads in translation."""

    text: str
    citations: list[Citation]
    translated: bool = False


def meta_answer(stored: StoredIndex, language: str) -> About:
    """Title, author and date from the documents' metadata, cited to their title/byline lines; an
    English asker gets the title's verified translation beside the original."""
    citations: list[Citation] = []
    lines = []
    translated = language != "zh"
    for doc in stored.manifest.documents:
        meta = doc.meta
        cite = _header_citation(stored, meta.doc_id, len(citations) + 1)
        marker, byline = "", ""
        if cite is not None:
            citations.append(cite)
            marker = f" [{cite.n}]"
            byline = " ".join(cite.quote.split("\n")[1:]).strip()
        by = message("answer.meta.by", language, author=meta.author) if meta.author else ""
        date = (byline or meta.date) if language == "zh" else _english_date(meta.date)
        english = _title_english(stored, meta.doc_id, meta.title) if language != "zh" else None
        translated = translated and english is not None
        key, title = ("answer.meta.translated", english) if english else ("answer.meta", meta.title)
        lines.append(message(key, language, title=title, original=meta.title, by=by, date=date, marker=marker))
    return About("\n".join(lines), citations, translated and bool(lines))


def _title_english(stored: StoredIndex, doc_id: str, title: str) -> str | None:
    """The verified translation of a document's title line (None when it has none, or is English)."""
    _, own = _header_sentences(stored, doc_id)
    if not own or _squeezed(title) not in _squeezed(stored.sentence_text(stored.sentences[own[0]])):
        return None
    english = rendering(stored, own[0])
    english = english.lstrip("—-–· ").strip() if english else None
    return english if english and _squeezed(english) != _squeezed(title) else None


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _english_date(date: str) -> str:
    """2026-05-20 or 2026年5月20日 → May 20, 2026 (as written when it is no date)."""
    from index.text.amounts import render
    from index.text.numbers import quantities

    found = [q for q in quantities(date) if q.kind == "date"]
    return render(found[0]) if found else date


def overview(stored: StoredIndex, language: str) -> About:
    """Title, author and date, then each top-level section with its most central sentence; an English
    asker's in their verified translations, each section's most central one that has one (a part
    without one stays as written)."""
    citations: list[Citation] = []
    lines: list[str] = []
    english = language != "zh"
    translated = english
    for doc in stored.manifest.documents:
        meta = doc.meta
        date = _english_date(meta.date) if english and meta.date else meta.date
        byline = " · ".join(x for x in (meta.author, date) if x)
        header = _header_citation(stored, meta.doc_id, len(citations) + 1)
        if header is not None:
            citations.append(header)
        marker = f" [{header.n}]" if header is not None else ""
        title = _title_english(stored, meta.doc_id, meta.title) if english else None
        translated = translated and title is not None
        if title:
            lines.append(f"“{title}”" + (f" ({byline})" if byline else "") + marker)
        else:
            lines.append(f"《{meta.title}》" + (f"（{byline}）" if byline else "") + marker)
        headings = _heading_sentences(stored, meta.doc_id)
        for section, sids in _top_sections(stored, meta.doc_id):
            vectors = stored.sentence_vectors[sids]
            centre = vectors.mean(axis=0)
            central = [sids[i] for i in np.argsort(-(vectors @ centre), kind="stable")]
            best, line = central[0], None
            if english:  # the most central sentence with a verified translation, where the section has one
                lines_of = ((sid, translated_line(stored, [sid])) for sid in central)
                best, line = next(((sid, text) for sid, text in lines_of if text is not None), (best, None))
            n = len(citations) + 1
            citations.append(citation_for(stored, n, stored.sentences[best]))
            heading = rendering(stored, headings[section]) if english and section in headings else None
            translated = translated and heading is not None and line is not None
            if heading and line:
                lines.append(f"• {heading.rstrip(':：')} — {line} [{n}]")
            else:
                lines.append(f"• {section}：{render_sentence(stored, stored.sentences[best])} [{n}]")
    key = "answer.outline.translated" if translated and lines else "answer.outline"
    return About(message(key, language) + "\n" + "\n".join(lines), citations, translated and bool(lines))


def _heading_sentences(stored: StoredIndex, doc_id: str) -> dict[str, int]:
    """A document's headings (as its sections name them), each with its sentence."""
    found: dict[str, int] = {}
    for index, chunk in enumerate(stored.chunks):
        if chunk.doc_id == doc_id:
            for sid in stored.sentences_of(index):
                found.setdefault(stored.sentence_text(stored.sentences[sid]).strip(), sid)
    return found


def _top_sections(stored: StoredIndex, doc_id: str) -> list[tuple[str, list[int]]]:
    """Top-level sections of a document with their body sentences (headings left out)."""
    headings = set()
    for chunk in stored.chunks:
        if chunk.doc_id == doc_id:
            headings.update(chunk.section.split(SECTION_SEPARATOR))
    groups = []
    for top, chunks in stored.top_sections.get(doc_id, {}).items():
        sids = [
            sid
            for chunk in chunks
            for sid in stored.sentences_of(chunk)
            if stored.sentence_text(stored.sentences[sid]) not in headings
        ]
        if sids:
            groups.append((top, sids))
    return groups
