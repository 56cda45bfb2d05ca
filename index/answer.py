"""Extractive answers: pick the passages' best sentences, compose a short cited answer, or abstain.

Pure functions over already-retrieved passages and their sentence vectors; no model calls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from index.chunking import SECTION_SEPARATOR
from index.lexical import tokenize
from index.models import Citation
from index.store import Sentence, StoredIndex

MAX_ANSWER_CHARS = 400


@dataclass(frozen=True)
class AnswerParams:
    """How sentences are chosen; measured on the dev questions (README)."""

    passages: int = 3  # sentences are drawn from this many top passages
    lexical_weight: float = 0.0  # weight of the question-token overlap beside the cosine
    rank_penalty: float = 0.02  # per passage rank: prefer sentences of higher-ranked passages
    extend_below: int = 60  # a best sentence shorter than this also brings the next one
    neighbour: str = "adjacent"  # second sentence: "adjacent" (same passage) or "none"
    term_share: float = 0.15  # a sentence holding this share of the question's weighted terms joins the answer


_LEAD_IN = re.compile(r"[：:]$")

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
    naming = frozenset(t for title in titles for t in tokenize(title) if _LATIN.match(t))
    return _only(_META, question, naming, _META_WORDS)


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


def _header_citation(stored: StoredIndex, doc_id: str, title: str, n: int) -> Citation | None:
    """A citation of a document's title and byline lines (its first chunk)."""
    index = next((i for i, c in enumerate(stored.chunks) if c.doc_id == doc_id and c.section == title), None)
    if index is None:
        return None
    own = stored.sentences_of(index)
    if not own:
        return None
    header = stored.chunks[index]
    cite = citation_for(stored, n, stored.sentences[own[0]])
    cite.end = stored.sentences[own[-1]].end
    cite.quote = header.text[: cite.end - header.start]
    cite.paragraphs = header.paragraphs
    return cite


def meta_answer(stored: StoredIndex, language: str) -> tuple[str, list[Citation]]:
    """Title, author and date from the documents' metadata, cited to their title/byline lines."""
    citations: list[Citation] = []
    lines = []
    for doc in stored.manifest.documents:
        meta = doc.meta
        cite = _header_citation(stored, meta.doc_id, meta.title, len(citations) + 1)
        marker, byline = "", ""
        if cite is not None:
            citations.append(cite)
            marker = f" [{cite.n}]"
            byline = " ".join(cite.quote.split("\n")[1:]).strip()
        if language == "zh":
            who = f"，作者 {meta.author}" if meta.author else ""
            lines.append(f"这篇文章是《{meta.title}》{who}，{byline or meta.date}。{marker}")
        else:
            who = f" by {meta.author}" if meta.author else ""
            lines.append(f"The article is “{meta.title}”{who}, dated {meta.date} ({byline}).{marker}")
    return "\n".join(lines), citations


@dataclass(frozen=True)
class ScoredSentence:
    sentence: int  # position in the index's sentence list
    score: float
    passage_rank: int


@lru_cache(maxsize=65536)
def _token_set(text: str) -> frozenset[str]:
    """A sentence's tokens: jieba once per sentence, not once per question."""
    return frozenset(tokenize(text))


def lexical_overlap(question_tokens: list[str], text: str) -> float:
    """Share of the question's content tokens found in the text."""
    if not question_tokens:
        return 0.0
    present = _token_set(text)
    return sum(1 for t in question_tokens if t in present) / len(question_tokens)


def score_sentences(
    stored: StoredIndex,
    passage_chunks: list[int],
    sentence_scores: dict[int, float],
    question_tokens: list[str],
    params: AnswerParams,
) -> list[ScoredSentence]:
    """Sentences of the top passages, best first: corrected cosine to the question (from
    retrieval) plus lexical overlap, with a small prior for higher-ranked passages."""
    scored = []
    for rank, chunk in enumerate(passage_chunks[: params.passages]):
        for sid in stored.sentences_of(chunk):
            if sid not in sentence_scores or is_heading(stored, sid):
                continue
            overlap = lexical_overlap(question_tokens, stored.sentence_text(stored.sentences[sid]))
            score = sentence_scores[sid] + params.lexical_weight * overlap - params.rank_penalty * rank
            scored.append(ScoredSentence(sid, score, rank))
    return sorted(scored, key=lambda s: (-s.score, s.sentence))


def led_by(ranked: list[ScoredSentence], first: ScoredSentence) -> list[ScoredSentence]:
    """The ranking with ``first`` moved to the top: a rule found the sentence that answers."""
    return [first, *(s for s in ranked if s != first)]


def is_heading(stored: StoredIndex, sid: int) -> bool:
    """A heading names a section rather than saying something: never an answer. A sub-heading
    that is a sentence (第一，开源模型的威力正在被重新定义。) says something and stays; one that is a
    title (阶段一：继续预训练（Continued Pretraining）) goes."""
    sentence = stored.sentences[sid]
    chunk = stored.chunks[sentence.chunk]
    text = stored.sentence_text(sentence)
    if _is_table_row(text) and _table_header(stored, sentence) is None:
        return True  # a table's header row names columns; its rows carry the facts
    if _paragraphs_of(stored, sentence)[0] <= 2 and chunk.section in _titles(stored):
        return True  # the title and byline lines: answered from metadata (meta_answer)
    headings = chunk.section.split(SECTION_SEPARATOR)
    return text == headings[0] or (text in headings[1:] and not text.endswith(_STATEMENT_END))


_STATEMENT_END = ("。", "！", "？", ".", "!", "?")


def _titles(stored: StoredIndex) -> set[str]:
    return {d.meta.title for d in stored.manifest.documents}


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
    return f"{cells[0]}：" + "，".join(f"{name} {cell}" for name, cell in zip(names[1:], cells[1:], strict=True))


_LIST_QUESTION = re.compile(
    r"(哪些|哪几|几点|几条|几项|几件|几个|几层|哪三|"
    r"(?<![\d.])[两二三四五六七八九十2-9]\s*(个|件|点|条|项|层|种|步|大)(?!月|小时|天)|"  # 三个启示, 两个阶段
    r"\b(what|which) are\b|\blist\b|"
    r"\b(what|which)\s+(?!(?:is|was|has|does|this|means|makes)\b)[a-z]{3,}s\b|"  # what benchmarks, which models
    r"\b(things|lessons|ways|points|steps|stages|phases|ties|connections|relationships|takeaways)\b)",
    re.IGNORECASE,
)
_BULLET = ("•", "·", "- ", "* ", "– ")


def opens_list(stored: StoredIndex, sid: int) -> bool:
    """The sentence, or the next one of its paragraph, is a lead-in ("…下功夫的地方。他们做了三件事：")."""
    return _opening(stored, sid) is not None


def _opening(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in a sentence is or is followed by in its paragraph, if any."""
    for candidate in (sid, sid + 1):
        if candidate >= len(stored.sentences) or (candidate > sid and _starts_paragraph(stored, candidate)):
            break
        if stored.sentences[candidate].chunk == stored.sentences[sid].chunk and _is_lead_in(stored, candidate):
            return candidate
    return None


def _table_rows(stored: StoredIndex, sid: int) -> list[int]:
    """The data rows (header row left out) of the table a sentence is a row of, or introduces as
    the sentence right before it: a table is a list ("在哪些基准上测试了？" → every benchmark's row)."""
    own = stored.sentences_of(stored.sentences[sid].chunk)

    def is_row(i: int) -> bool:
        return i in own and _is_table_row(stored.sentence_text(stored.sentences[i]))

    start = sid if is_row(sid) else sid + 1 if is_row(sid + 1) else None
    if start is None:
        return []
    while is_row(start - 1):
        start -= 1
    end = start
    while is_row(end):
        end += 1
    return list(range(start + 1, end))


def _is_lead_in(stored: StoredIndex, sid: int) -> bool:
    """The sentence ends with a colon: it leads into what follows ("他们做了三件事：")."""
    return bool(_LEAD_IN.search(stored.sentence_text(stored.sentences[sid])))


def is_list_question(question: str) -> bool:
    """'文章对行业有哪些启示？', 'What three things did Cursor do in RL?': the answer is a list."""
    return bool(_LIST_QUESTION.search(question))


def _starts_paragraph(stored: StoredIndex, sid: int) -> bool:
    sentence = stored.sentences[sid]
    chunk = stored.chunks[sentence.chunk]
    offset = sentence.start - chunk.start
    return offset == 0 or chunk.text[offset - 1] == "\n"


def _is_bullet(stored: StoredIndex, sid: int) -> bool:
    return _starts_paragraph(stored, sid) and stored.sentence_text(stored.sentences[sid]).startswith(_BULLET)


def _list_items(stored: StoredIndex, lead: int) -> list[int]:
    """The first sentence of each item of the list a lead-in sentence ("他们做了三件事：") opens: the
    bullet paragraphs right after it, or, when it ends its passage, the sub-sections that follow."""
    sentences, chunks = stored.sentences, stored.chunks
    doc = chunks[sentences[lead].chunk].doc_id
    items: list[int] = []
    following = lead + 1
    while following < len(sentences) and chunks[sentences[following].chunk].doc_id == doc:
        if _is_bullet(stored, following):
            items.append(following)
        elif _starts_paragraph(stored, following):
            break
        following += 1
    if items:
        return items
    chunk = sentences[lead].chunk
    if lead + 1 != stored.sentences_of(chunk).stop:
        return []
    parent = chunks[chunk].section + SECTION_SEPARATOR
    section = chunks[chunk].section
    for later in range(chunk + 1, len(chunks)):
        if chunks[later].doc_id != doc or not chunks[later].section.startswith(parent):
            break
        own = stored.sentences_of(later)
        if chunks[later].section != section and own:
            items.append(own[0])
            section = chunks[later].section
    return items


def _lead_in_of(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in sentence of the list a sentence is in (itself if it is one): for a sentence of
    a bullet paragraph, the sentence before the run of bullets, if it ends with a colon."""
    if _is_lead_in(stored, sid):
        return sid
    lo = stored.sentences_of(stored.sentences[sid].chunk).start
    before = sid
    while before >= lo:
        paragraph = before
        while paragraph > lo and not _starts_paragraph(stored, paragraph):
            paragraph -= 1
        if not _is_bullet(stored, paragraph):
            break
        before = paragraph - 1
    if before == sid or before < lo:
        return None  # not in a bullet paragraph, or the list opens its passage
    return before if _is_lead_in(stored, before) else None


def _sub_section_items(stored: StoredIndex, sid: int) -> list[int]:
    """The first sentence of each sub-section of the section a sentence is in (of its parent, for a
    sentence of a sub-section), in document order: "阶段一…", "阶段二…" under 二、. A section's
    chunks are contiguous, so only its own are looked at."""
    chunks = stored.chunks
    chunk = stored.sentences[sid].chunk
    path = chunks[chunk].section.split(SECTION_SEPARATOR)
    parent = SECTION_SEPARATOR.join(path[:-1] if len(path) > 1 else path)

    def inside(i: int) -> bool:
        other = chunks[i]
        return other.doc_id == chunks[chunk].doc_id and (
            other.section == parent or other.section.startswith(parent + SECTION_SEPARATOR)
        )

    lo, hi = chunk, chunk
    while lo > 0 and inside(lo - 1):
        lo -= 1
    while hi + 1 < len(chunks) and inside(hi + 1):
        hi += 1
    firsts: dict[str, int] = {}
    for i in range(lo, hi + 1):
        own = stored.sentences_of(i)
        if chunks[i].section != parent and own:  # the lead-in is no item
            child = chunks[i].section[len(parent) + len(SECTION_SEPARATOR) :].split(SECTION_SEPARATOR)[0]
            firsts.setdefault(child, own[0])
    return list(firsts.values())


def _lead_list(stored: StoredIndex, lead: int) -> tuple[list[int], str] | None:
    """The list a lead-in opens, as its items' first sentences and the text that names it (the
    lead-in, and for sub-sections their headings); None unless it has two items or more."""
    sentences, chunks = stored.sentences, stored.chunks
    found = _list_items(stored, lead)
    if len(found) < 2:
        return None
    names = [stored.sentence_text(sentences[lead])]
    if any(sentences[i].chunk != sentences[lead].chunk for i in found):  # sub-sections, not bullets
        names += [chunks[sentences[i].chunk].section for i in [lead, *found]]
    return found, " ".join(names)


def _lists_of(stored: StoredIndex, sid: int) -> list[tuple[list[int], str]]:
    """The lists a sentence is in, innermost first, each as its items' first sentences and the text
    that names them: its bullets (named by their lead-in), its section's sub-sections (named by the
    lead-in, if any, and the headings)."""
    sentences, chunks = stored.sentences, stored.chunks
    lead = _lead_in_of(stored, sid)
    own = _lead_list(stored, lead) if lead is not None else None
    lists = [own] if own else []
    sections = _sub_section_items(stored, sid)
    if len(sections) > 1 and (own is None or sections != own[0]):
        lists.append((sections, " ".join(chunks[sentences[i].chunk].section for i in sections)))
    return lists


# What a list question may call the items it wants: "the three lessons", 哪几个阶段
_LIST_NOUN = re.compile(
    r"\b(lesson|takeaway|stage|phase|step|implication|insight)s?\b|(启示|教训|阶段|步骤)", re.IGNORECASE
)


def list_noun(question: str) -> str | None:
    """What a list question calls the items it wants ("the three lessons" → lesson), if it says."""
    match = _LIST_NOUN.search(question)
    return (match.group(1) or match.group(2)).lower() if match else None


def named_list_lead(stored: StoredIndex, ranked: list[ScoredSentence], nouns: list[str]) -> int | None:
    """The lead-in of the list, among the best-ranked sentences' (the first five), whose lead-in or
    headings use one of ``nouns`` (what the question calls the items, translated: 启示 for
    "lessons"): answered with that list, not the nearest one ("他们做了三件事："). None if no lead-in's
    list does."""
    for scored in ranked[:5]:
        lead = _lead_in_of(stored, scored.sentence)
        named = _lead_list(stored, lead) if lead is not None else None
        if named and any(n in named[1].lower() for n in nouns):
            return lead
    return None


def _own_lead(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in of the list a sentence is in or opens, or of the one the next sentence of its
    paragraph opens ("这是 Cursor 真正下功夫的地方。" → "他们做了三件事：")."""
    lead = _lead_in_of(stored, sid)
    return lead if lead is not None else _opening(stored, sid)


def has_own_list(stored: StoredIndex, sid: int) -> bool:
    """The sentence is in, opens or leads into a list of two items or more: pick_sentences answers a
    list question with that list."""
    lead = _own_lead(stored, sid)
    return lead is not None and len(_list_items(stored, lead)) > 1


def named_sections(stored: StoredIndex, ranked: list[ScoredSentence], nouns: list[str], within: int = 5) -> list[int]:
    """The sub-sections whose headings use one of ``nouns``, of the best-ranked sentences' section (the
    first ``within``), as each one's heading and first statement: "Cursor 的训练分几个阶段？" → 阶段一：
    继续预训练… 阶段二：大规模强化学习…. Empty if none has two such sub-sections, or they don't fit."""
    for scored in ranked[:within]:
        items = _sub_section_items(stored, scored.sentence)
        headings = " ".join(stored.chunks[stored.sentences[i].chunk].section for i in items).lower()
        if len(items) > 1 and any(noun in headings for noun in nouns):
            chosen = sorted({s for i in items for s in (i, _first_statement(stored, i))})
            return chosen if _length(stored, chosen) <= MAX_ANSWER_CHARS else []
    return []


# "the one-liner that closes the Musk section", "how does the author wrap up the part on wrapping"
_CLOSING_LINE = re.compile(
    r"\b(?:clos(?:es|ing)?|wraps? up|wrapping up|ends|ending|finish(?:es)?)\b[^?.]{0,40}?\b(?:section|part|bit)\b",
    re.IGNORECASE,
)


def asks_for_closing_line(question: str) -> bool:
    return bool(_CLOSING_LINE.search(question))


def closing_sentence(stored: StoredIndex, chunk: int) -> int | None:
    """The last sentence of the section the chunk is in (its heading aside)."""
    section = stored.chunks[chunk].section
    last = None
    for other, candidate in enumerate(stored.chunks):
        if candidate.section == section and candidate.doc_id == stored.chunks[chunk].doc_id:
            for sid in stored.sentences_of(other):
                if not is_heading(stored, sid):
                    last = sid
    return last


def list_item(
    stored: StoredIndex, ranked: list[ScoredSentence], position: int, nouns: list[str], within: int = 5
) -> int | None:
    """The sentence that says what the item an ordinal points at is ("the 2nd lesson", 第三点;
    ``position`` 1-based, negative from the end). The list is that of the best-ranked sentences (the
    first ``within``): the first whose lead-in or headings use one of ``nouns`` (what the question
    calls the items: 阶段, 启示 for "lesson"), else the first. None when it has no such item."""
    lists = [found for scored in ranked[:within] for found in _lists_of(stored, scored.sentence)]
    named = [items for items, text in lists if any(noun in text.lower() for noun in nouns)]
    items = named[0] if named else lists[0][0] if lists else []
    index = position - 1 if position > 0 else position
    return _first_statement(stored, items[index]) if -len(items) <= index < len(items) else None


def _first_statement(stored: StoredIndex, sid: int) -> int:
    """The sentence itself, or the first after it in its passage that isn't a title-like heading
    ("阶段一：继续预训练（Continued Pretraining）" names the item; the next sentence says what it is)."""
    end = stored.sentences_of(stored.sentences[sid].chunk).stop
    while is_heading(stored, sid) and sid + 1 < end:
        sid += 1
    return sid


def pick_sentences(
    stored: StoredIndex,
    ranked: list[ScoredSentence],
    params: AnswerParams,
    listing: bool = False,
    terms: dict[str, float] | None = None,
) -> list[int]:
    """The best sentence, with the next one when the best only leads into it (ends with a colon,
    or is short); then one more from the same passage: the sentence that holds the question's
    rarer words (``terms``: token → weight, see ``term_sentence``), else the better-scoring
    neighbour when the best stands alone. With ``listing`` (a question that asks for several
    things) and a best sentence that opens, belongs to or leads into a list, the lead-in and each
    item's first sentence instead. In document order."""
    if not ranked:
        return []
    best = ranked[0].sentence
    lead = _own_lead(stored, best) if listing else None
    # a lead-in after the best sentence: "这是 Cursor 真正下功夫的地方。" leads into "他们做了三件事："
    opener = [best] if lead is not None and lead > best else []
    items = _list_items(stored, lead) if lead is not None else []
    if len(items) > 1:
        return [*opener, lead, *items]
    rows = _table_rows(stored, best) if listing else []
    if len(rows) > 1:
        return rows if best in rows else [best, *rows]
    following = _continuation(stored, best, params)
    base = [best] if following is None else [best, following]
    extra = term_sentence(stored, best, base, terms, params.term_share) if terms else None
    if extra is not None:
        after = _continuation(stored, extra, params)  # it may only lead in, too
        added = [extra] if after is None or after in base else [extra, after]
        for more in (added, added[:1]):
            if _length(stored, [*base, *more]) <= MAX_ANSWER_CHARS:
                return sorted({*base, *more})
    if following is not None or params.neighbour == "none":
        return base
    score = {s.sentence: s.score for s in ranked}
    chunk = stored.sentences[best].chunk
    same_chunk = [i for i in (best - 1, best + 1) if i in score and stored.sentences[i].chunk == chunk]
    if not same_chunk:
        return base
    second = max(same_chunk, key=lambda i: score[i])
    if _length(stored, [best, second]) > MAX_ANSWER_CHARS:
        return base
    return sorted([best, second])


def _continuation(stored: StoredIndex, best: int, params: AnswerParams) -> int | None:
    """The sentence after ``best`` when ``best`` only leads into it (a colon) or is short."""
    text = stored.sentence_text(stored.sentences[best])
    following = best + 1
    lead_in = bool(_LEAD_IN.search(text))
    if not (lead_in or len(text) < params.extend_below) or following >= len(stored.sentences):
        return None
    chunk, next_chunk = stored.sentences[best].chunk, stored.sentences[following].chunk
    # Past the passage only to finish a lead-in ("提了个醒：" → "第一，…"): a short sentence is
    # otherwise complete, and the next passage (often a new section's heading) would be cited
    # for nothing.
    same_doc = stored.chunks[next_chunk].doc_id == stored.chunks[chunk].doc_id
    # A short sentence isn't finished by one that only leads into more ("背后的关系很复杂："): the
    # answer would end on a colon.
    dangling = not lead_in and _is_lead_in(stored, following)
    if same_doc and (lead_in or next_chunk == chunk) and not is_heading(stored, following) and not dangling:
        return following
    return None


def term_sentence(
    stored: StoredIndex, best: int, chosen: list[int], terms: dict[str, float], share: float
) -> int | None:
    """The sentence of the best one's passage, not yet chosen, that holds the largest weighted
    share of the question's terms, if that share reaches ``share``. Weights are inverse document
    frequencies: "言外之意" or 合成 + 数据 point at one sentence, "Cursor" at none in particular.
    The cosine picks the passage well but, within it, often the wrong sentence; this brings the
    one that literally says what was asked beside it."""
    total = sum(terms.values())
    if total <= 0:
        return None
    chunk = stored.sentences[best].chunk
    found, found_share = None, 0.0
    for sid in stored.sentences_of(chunk):
        if sid in chosen or is_heading(stored, sid):
            continue
        present = _token_set(stored.sentence_text(stored.sentences[sid]))
        weight = sum(w for t, w in terms.items() if t in present) / total
        if weight > found_share:
            found, found_share = sid, weight
    return found if found_share >= share else None


# a sentence opening with "this" points back: 这是 Cursor 真正下功夫的地方 is about the heading above it
_POINTS_BACK = re.compile(r"^(这|此|该|它|this\b|that\b|it\b)", re.IGNORECASE)


def with_heading(stored: StoredIndex, chosen: list[int]) -> list[int]:
    """The chosen sentences, led by the heading right above the first when that one only points
    back at it: "这是 Cursor 真正下功夫的地方。" says where only under "阶段二：大规模强化学习（RL）"."""
    if not chosen:
        return chosen
    first = chosen[0]
    above = first - 1
    if (
        above < 0
        or stored.sentences[above].chunk != stored.sentences[first].chunk
        or not is_heading(stored, above)
        or not _POINTS_BACK.match(stored.sentence_text(stored.sentences[first]))
    ):
        return chosen
    return [above, *chosen]


def widen(stored: StoredIndex, chosen: list[int], limit: int = MAX_ANSWER_CHARS) -> list[int]:
    """The chosen sentences with their neighbours in the passage as many as fit in ``limit``
    characters, the next one before the one before: "详细说说" after an answer gets more of where it
    came from."""
    if not chosen:
        return chosen
    own = stored.sentences_of(stored.sentences[chosen[0]].chunk)
    picked = set(chosen)
    low, high = min(c for c in chosen if c in own), max(c for c in chosen if c in own)
    while True:
        options = [i for i in (high + 1, low - 1) if i in own and not is_heading(stored, i)]
        fitting = [i for i in options if _length(stored, [*picked, i]) <= limit]
        if not fitting:
            if high not in chosen and _is_lead_in(stored, high):
                picked.discard(high)  # "背后的关系很复杂：" without what it leads into would end the answer
            return sorted(picked)
        picked.add(fitting[0])
        low, high = min(low, fitting[0]), max(high, fitting[0])


def _length(stored: StoredIndex, sentences: list[int]) -> int:
    return sum(len(stored.sentence_text(stored.sentences[s])) for s in sentences)


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
            spanned = {*cite.paragraphs, *_paragraphs_of(stored, sentence)}
            # every paragraph the widened quote spans (a table's header row between intro and rows)
            cite.paragraphs = [p for p in chunk.paragraphs if min(spanned) <= p <= max(spanned)]
        text = render_sentence(stored, sentence)
        parts.append(f"{text} —" if is_heading(stored, sid) else text)
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
        if joined and not joined.endswith(("。", "！", "？", "：", "；", "…", ".", "!", "?", ":", ";", "—")):
            joined += "；" if language == "zh" else "; "
        elif joined and joined[-1] in ".!?:;—":
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


def abstain_text(
    language: str, sections: list[str], mismatch: VersionMismatch | None = None, unmentioned: tuple[str, ...] = ()
) -> str:
    """The decline, saying why when it can: another version was found, or what the question names
    is nowhere in the article."""
    listed = "；".join(s.replace(SECTION_SEPARATOR, " › ") for s in sections)
    if language == "zh":
        text = "文章没有提到这个问题，我无法从中找到答案。"
        if mismatch is not None:
            text += f"（找到的内容讲的是 {mismatch.found}，不是 {mismatch.asked}。）"
        elif unmentioned:
            text += f"（文章里没有出现 {'、'.join(unmentioned)}。）"
        return text + (f"最接近的章节：{listed}" if listed else "")
    text = "The article doesn't say — I couldn't find an answer to that in it."
    if mismatch is not None:
        text += f" (What it has is about {mismatch.found}, not {mismatch.asked}.)"
    elif unmentioned:
        text += f" (It never mentions {', '.join(unmentioned)}.)"
    return text + (f" Nearest sections: {listed}" if listed else "")


# A name with a version or model number: Composer 2, Composer 2.5, CursorBench v3.1, K2.5, H100.
# The number must end the word ("kimi-k2p5" names nothing).
_VERSIONED = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]+)[ -]?[vV]?(\d+(?:\.\d+)*)(?![A-Za-z0-9]|\.\d)")


_QUANTITY_QUESTION = re.compile(
    # 多大/多长/多久: "how big/long" (not 很多大模型, "many large models"); a share or a factor is a
    # number too ("What share of the compute…?" → 85%, "By what factor…?" → 25 倍)
    r"(多少|(?<!哪)几[个件月号天年倍次位名家种条层岁成]|(?<![很许好])多[大长久高远]|占比|比例|百分之几"
    r"|\bhow (many|much|long|old|large|big)\b"
    r"|\b(?:what|which)\s+(?:share|proportion|fraction|percent|percentage|ratio|portion|factor|multiple)\b"
    r"|\bby what\s+(?:factor|margin|multiple)\b)",
    re.IGNORECASE,
)
# digits or Chinese numerals; a lone 一 is mostly "a" (一个通用大模型, 一条帖子), so it counts only
# within a longer numeral (一百万)
_NUMBER = re.compile(r"\d|[零一二两三四五六七八九十百千万亿]{2,}|[二两三四五六七八九十百千万亿半]")


_WHEN_QUESTION = re.compile(
    # "when" opens the question (or a clause of it): "feedback … when a test fails" asks no date
    r"(什么时候|啥时候|何时|哪天|哪一天|哪年|哪一年|几月|几号|(?:^|[,;，；]|\band|\bso)\s*when\b|\bwhen\s*[?？]\s*$"
    r"|\b(?:what|which)\s+(?:year|date|day|month)\b)",
    re.IGNORECASE,
)


def is_when_question(question: str) -> bool:
    """'Cursor 是哪一年成立的？', 'When was Cursor founded?': the answer is a date."""
    return bool(_WHEN_QUESTION.search(question))


_DATE = re.compile(
    # a clause ending in 时 says when too: "只在任务完成时给奖励" answers "什么时候才给奖励"
    r"\d+\s*[年月日号]|当天|当日|同一天|同日|今年|去年|明年|前年|(?<![同及临暂随小])时(?![候间代髦尚])|\b(?:19|20)\d\d\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d",
    re.IGNORECASE,
)


def states_a_date(text: str) -> bool:
    """The text says when: a date (3 月 27 日, 2026 年, May 18) or a day it names (当天)."""
    return bool(_DATE.search(text))


def is_quantity_question(question: str) -> bool:
    """'Kimi K2.5 有多少参数？', 'How many GPUs…': the answer is a number."""
    return bool(_QUANTITY_QUESTION.search(question))


# "how long did it take" asks for a time: "翻 25 倍" is a number, not how long anything took
_DURATION_QUESTION = re.compile(
    r"多久|多长时间|\bhow long (did|does|do|will|would|has|have|had|was|is)\b.*\b(take|took|last|lasted|run|ran)\b"
    r"|\bhow (many|much) (time|days|weeks|months|years|hours)\b",
    re.IGNORECASE,
)
_DURATION = re.compile(
    # "5 月" and "2026 年" name a month and a year: a span of months is 个月, of years a short number
    r"(\d+(\.\d+)?|[一二两三四五六七八九十百几半]+)\s*(个)?(天|周|星期|小时|分钟|秒)"
    r"|(\d+|[一二两三四五六七八九十几半]+)\s*个月|(?<!\d)(\d{1,2}|[一二两三四五六七八九十几半]+)\s*年"
    r"|\b\d+(\.\d+)?\s*(days?|weeks?|months?|years?|hours?|minutes?)\b",
    re.IGNORECASE,
)


def states_a_duration(text: str) -> bool:
    """The text says how long: a number with a unit of time (三个月, 2 weeks)."""
    return bool(_DURATION.search(text))


# "how many things / GPUs…", 几件: a count, said with a measure word (三件事, 100 万个 H100, 25 倍)
# or by listing (阶段一…阶段二, three bullets); 85% or 600 亿美元 is no count of anything
# (哪几点, 那几个: which ones)
_COUNT_QUESTION = re.compile(r"\bhow many\b|(?<![哪那这])几[个件点条项种步层家位名类次轮]", re.IGNORECASE)
_COUNT = re.compile(
    # a lone 一 is mostly "a" (一个通用大模型), as in _NUMBER
    r"(\d+(\.\d+)?|[一二两三四五六七八九十百千万亿几]{2,}|[二两三四五六七八九十百千万亿几])\s*(万|亿)?\s*"
    r"(个|件|条|点|项|种|步|层|家|位|名|类|次|轮|倍|张|台|块|篇|款|大)"
    r"|\b\d+(\.\d+)?\s*(x|times)\b",
    re.IGNORECASE,
)
_LISTED = re.compile(r"(?:第|阶段)[一二三四五六七八九十]|•")


def states_a_count(text: str) -> bool:
    """The text counts something: a number with a measure word (三件事, 100 万个, 翻 25 倍), or
    lists two or more (阶段一…阶段二, bullets)."""
    return bool(_COUNT.search(_VERSIONED.sub(" ", text))) or len(_LISTED.findall(text)) >= 2


# "how old is he?": an age (32 岁, 32 years old); the CEO's 85 % is none
_AGE_QUESTION = re.compile(r"\bhow old\b|\bwhat age\b|多大年纪|多大岁数|几岁|多少岁|年龄", re.IGNORECASE)
_AGE = re.compile(r"(\d+|[一二三四五六七八九十几]+)\s*(岁|周岁)|\b\d+\s*(-\s*)?years?[ -]old\b", re.IGNORECASE)


def states_an_age(text: str) -> bool:
    """The text gives an age: 32 岁, a 25-year-old."""
    return bool(_AGE.search(text))


def what_it_must_state(question: str) -> Callable[[str], bool] | None:
    """What the answer to a how-long, how-old, how-many or when question must state (a time, an
    age, a count, a number, a date), as a test of the answer's text; None for other questions."""
    if _DURATION_QUESTION.search(question):
        return states_a_duration
    if _AGE_QUESTION.search(question):
        return states_an_age
    if _COUNT_QUESTION.search(question):
        return states_a_count
    if is_quantity_question(question):
        return states_a_number
    return states_a_date if is_when_question(question) else None


def sentence_stating(
    stored: StoredIndex,
    ranked: list[ScoredSentence],
    concepts: list[frozenset[str]],
    states: Callable[[str], bool],
) -> ScoredSentence | None:
    """The best-ranked sentence that ``states`` a number (or a date) and holds most of ``concepts``
    (the question's rarer words, each with its translations): "By how much did Cursor scale up its
    synthetic data?" → "合成数据规模翻 25 倍", when the best sentence, from another passage, states
    none. One of two is not enough: "How long did the RL training take?" is not answered by
    "…高难度训练数据…翻 25 倍"."""
    for scored in ranked:
        sentence = stored.sentences[scored.sentence]
        text = render_sentence(stored, sentence)
        # read under its heading: "他们做了三件事：" counts things done in 阶段二：大规模强化学习（RL）
        heading = stored.chunks[sentence.chunk].section.split(SECTION_SEPARATOR)[-1]
        present = _token_set(text) | _token_set(heading)
        if states(text) and 2 * sum(1 for forms in concepts if forms & present) > len(concepts):
            return scored
    return None


# "which model / company / benchmark…": the answer names one (Claude Opus 4.7, SpaceX AI, v3.1)
_NAME_QUESTION = re.compile(
    r"\bwhich\s+(?:\w+\s+)?(?:models?|compan(?:y|ies)|firms?|labs?|benchmarks?|versions?|startups?|products?)\b"
    r"|哪家|哪个模型|哪款模型|哪个公司|哪个版本|哪个基准|哪些模型|哪些公司",
    re.IGNORECASE,
)
_NAME = re.compile(r"(?<![A-Za-z0-9])(?:[A-Z][A-Za-z0-9.+-]*|[A-Za-z]*\d[A-Za-z0-9.+-]*)")


def asks_for_a_name(question: str) -> bool:
    """'Which model is it on par with?', 'Kimi K2.5 是哪家公司开源的？': the answer names something."""
    return bool(_NAME_QUESTION.search(question))


def names_beyond(question: str) -> Callable[[str], bool]:
    """A test of an answer's text: it names something (a capitalised Latin word, a version) the
    question doesn't."""
    asked = {m.group(0).lower() for m in _NAME.finditer(question)}
    return lambda text: any(m.group(0).lower() not in asked for m in _NAME.finditer(text))


_WHY_QUESTION = re.compile(r"\bwhy\b|\bhow come\b|\bwhat for\b|为什么|为何|为啥|何故", re.IGNORECASE)
# what says why: a cause or a purpose (目的是…, 这是在为…铺路)
_REASON = re.compile(r"因为|由于|为了|之所以|是为|在为|所以|因此|原因|目的是|\bbecause\b|\bso that\b|\bin order to\b")
# the words that ask for a figure of speech: they name the answer's form, not its subject
FIGURE_WORD = re.compile(r"analog(?:y|ies)|metaphors?|similes?|comparisons?", re.IGNORECASE)
_FIGURE_QUESTION = re.compile(rf"\b(?:{FIGURE_WORD.pattern})\b|比喻|类比|打比方|比方", re.IGNORECASE)
# what says "it is like…" or what something really means (言外之意：底座是借的，但上面这栋楼是自己盖的)
_FIGURE = re.compile(r"就像|好比|如同|像是|仿佛|比喻|打个比方|言外之意|\bis like\b")


def sought_marker(question: str) -> re.Pattern[str] | None:
    """What the sentence answering a why or an analogy question says, as a pattern: a cause or a
    purpose, or a comparison; None for other questions."""
    if _WHY_QUESTION.search(question):
        return _REASON
    return _FIGURE if _FIGURE_QUESTION.search(question) else None


def marked_sentence(
    stored: StoredIndex, ranked: list[ScoredSentence], chosen: list[int], marker: re.Pattern[str]
) -> int | None:
    """When the chosen sentences lack what the question seeks (``marker``: a reason, a comparison):
    the best-ranked sentence of the best one's passage that has it ("Why is Musk backing Cursor?" →
    这是在为潜在的收购铺路…, after the three ties it sums up; "the building metaphor" → 言外之意：…这栋楼
    是自己盖的). None if the answer has it already, or the passage has none."""
    if not ranked or any(marker.search(stored.sentence_text(stored.sentences[s])) for s in chosen):
        return None
    chunk = stored.sentences[ranked[0].sentence].chunk
    for scored in ranked:
        sentence = stored.sentences[scored.sentence]
        if sentence.chunk == chunk and scored.sentence not in chosen and marker.search(stored.sentence_text(sentence)):
            return scored.sentence
    return None


def with_sentence(stored: StoredIndex, chosen: list[int], added: int, best: int) -> list[int]:
    """The chosen sentences and one more, in document order; the best sentence and the added one
    alone when all of them would not fit."""
    together = sorted({*chosen, added})
    return together if _length(stored, together) <= MAX_ANSWER_CHARS else sorted({best, added})


def passages_name(stored: StoredIndex, sentences: list[int], names: list[frozenset[str]]) -> bool:
    """The passages of these sentences, together, write each name (one of its forms)."""
    tokens: set[str] = set()
    for chunk in dict.fromkeys(stored.sentences[s].chunk for s in sentences):
        tokens |= _token_set(stored.chunks[chunk].text)
    return all(forms & tokens for forms in names)


def sentence_naming(
    stored: StoredIndex,
    ranked: list[ScoredSentence],
    names: list[frozenset[str]],
    states: Callable[[str], bool] | None = None,
) -> ScoredSentence | None:
    """The best-ranked sentence whose passage writes each name (and that ``states`` a number or a
    date, if the question asks for one): "Cursor CEO 是怎么回应套壳质疑的？" → the CEO's passage,
    ranked second, not the first one's 被质疑的其实不是「套壳」."""
    for scored in ranked:
        if passages_name(stored, [scored.sentence], names) and (
            states is None or states(render_sentence(stored, stored.sentences[scored.sentence]))
        ):
            return scored
    return None


# a numeral or 每 with one measure word: 一斤, 每斤, 一年, 几天
_MEASURE = re.compile(r"[一二两三四五六七八九十百千万几每][\u4e00-\u9fff]")


def asking_words(question: str) -> set[str]:
    """The tokens of a question's how-many or when phrase ("how big" → big, 多大; "what date" → date)
    and its units (一斤 in "苹果多少钱一斤？"): they ask for the number or the date, or say what it
    is per; they don't name what is counted or dated."""
    asking = (m.group(0) for pattern in (_QUANTITY_QUESTION, _WHEN_QUESTION) for m in pattern.finditer(question))
    phrase = set(tokenize(" ".join(asking)))
    return phrase | {t for t in tokenize(question) if _MEASURE.fullmatch(t)}


def states_a_number(text: str) -> bool:
    """The text gives a number of its own: digits or Chinese numerals, not counting those inside
    names ('Kimi K2.5', 'H100' say nothing about how many)."""
    return bool(_NUMBER.search(_VERSIONED.sub(" ", text)))


@dataclass(frozen=True)
class VersionMismatch:
    asked: str  # as the question names it: "Composer 2"
    found: str  # the versions the answer's sentences name instead: "Composer 2.5"


def _versioned_names(text: str) -> dict[str, dict[str, str]]:
    """name (lower-cased) → version → the mention as written."""
    names: dict[str, dict[str, str]] = {}
    for match in _VERSIONED.finditer(text):
        names.setdefault(match.group(1).lower(), {}).setdefault(match.group(2), match.group(0))
    return names


def version_mismatch(question: str, evidence: str) -> VersionMismatch | None:
    """The question asks about one version of a name (Composer 2) and the evidence names that
    name only in other versions (Composer 2.5): the sentences answer about something else.
    A question that names several versions of the same name (2 vs 2.5) is left alone."""
    found = _versioned_names(evidence)
    for name, versions in _versioned_names(question).items():
        if len(versions) != 1 or name not in found:
            continue
        ((version, asked),) = versions.items()
        if version not in found[name]:
            return VersionMismatch(asked=asked, found=" / ".join(found[name].values()))
    return None


def overview(stored: StoredIndex, language: str) -> tuple[str, list[Citation]]:
    """Title, author and date, then each top-level section with its most central sentence."""
    citations: list[Citation] = []
    lines: list[str] = []
    for doc in stored.manifest.documents:
        meta = doc.meta
        byline = " · ".join(x for x in (meta.author, meta.date) if x)
        header = _header_citation(stored, meta.doc_id, meta.title, len(citations) + 1)
        if header is not None:
            citations.append(header)
        marker = f" [{header.n}]" if header is not None else ""
        lines.append(f"《{meta.title}》" + (f"（{byline}）" if byline else "") + marker)
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
