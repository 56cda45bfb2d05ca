"""The document structure an answer is built from: headings, table rows and their header, list
lead-ins and their items, paragraphs. Pure functions over the stored index's sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from index.build.chunking import SECTION_SEPARATOR
from index.build.store import Sentence, StoredIndex
from index.models import Citation
from index.text.numbers import quantities

_LEAD_IN = re.compile(r"[：:]$")
# a sentence opening with "this" points back: 这是 Cursor 真正下功夫的地方 is about what came before it
_POINTS_BACK = re.compile(r"^(这|此|该|它|this\b|that\b|it\b)", re.IGNORECASE)


_BULLET = ("•", "·", "- ", "* ", "– ")


_STATEMENT_END = ("。", "！", "？", ".", "!", "?")


def is_heading(stored: StoredIndex, sid: int) -> bool:
    """A heading names a section rather than saying something: never an answer. A sub-heading
    that is a sentence (第一，开源模型的威力正在被重新定义。) says something and stays; one that is a
    title (阶段一：继续预训练（Continued Pretraining）) goes."""
    sentence = stored.sentences[sid]
    chunk = stored.chunks[sentence.chunk]
    text = stored.sentence_text(sentence)
    if is_table_row(text) and table_header(stored, sentence) is None:
        return True  # a table's header row names columns; its rows carry the facts
    if sentence.chunk in stored.header_chunks:
        return True  # the title and byline lines: answered from metadata (meta_answer)
    headings = chunk.section.split(SECTION_SEPARATOR)
    return text == headings[0] or (text in headings[1:] and not text.endswith(_STATEMENT_END))


def names_a_section(stored: StoredIndex, sid: int) -> bool:
    """A sub-heading that is a sentence (第二，垂直场景的价值被低估了。): it states its section's claim,
    and the paragraph under it says why or how."""
    sentence = stored.sentences[sid]
    headings = stored.chunks[sentence.chunk].section.split(SECTION_SEPARATOR)
    return stored.sentence_text(sentence) in headings[1:]


def paragraph_after(stored: StoredIndex, sid: int) -> list[int]:
    """The sentences of the paragraph right after ``sid`` in its passage (none after a heading)."""
    chunk = stored.sentences[sid].chunk
    found: list[int] = []
    for n in range(sid + 1, len(stored.sentences)):
        if stored.sentences[n].chunk != chunk or is_heading(stored, n) or (found and starts_paragraph(stored, n)):
            break
        found.append(n)
    return found


def is_table_row(text: str) -> bool:
    return "\t" in text


def table_header(stored: StoredIndex, sentence: Sentence) -> str | None:
    """The first row of the table a row belongs to (the row before the first of consecutive rows)."""
    chunk = stored.chunks[sentence.chunk]
    lines = chunk.text[: sentence.start - chunk.start].split("\n")
    rows = [line for line in lines if line.strip()]
    header = None
    for line in reversed(rows):
        if not is_table_row(line):
            break
        header = line
    return header


def render_sentence(stored: StoredIndex, sentence: Sentence) -> str:
    """A sentence as it reads in an answer: table rows become 'header: cell' pairs."""
    text = stored.sentence_text(sentence)
    if not is_table_row(text):
        return text
    cells = [c.strip() for c in text.split("\t")]
    header = table_header(stored, sentence)
    if header is None or header == text:
        return " | ".join(cells)
    names = [c.strip() for c in header.split("\t")]
    if len(names) != len(cells):
        return " | ".join(cells)
    return f"{cells[0]}：" + "，".join(f"{name} {cell}" for name, cell in zip(names[1:], cells[1:], strict=True))


def starts_paragraph(stored: StoredIndex, sid: int) -> bool:
    sentence = stored.sentences[sid]
    chunk = stored.chunks[sentence.chunk]
    offset = sentence.start - chunk.start
    return offset == 0 or chunk.text[offset - 1] == "\n"


def is_bullet(stored: StoredIndex, sid: int) -> bool:
    return starts_paragraph(stored, sid) and stored.sentence_text(stored.sentences[sid]).startswith(_BULLET)


def is_lead_in(stored: StoredIndex, sid: int) -> bool:
    """The sentence leads into what follows: it ends with a colon ("他们做了三件事："), or it is a
    paragraph of its own right before a table or a bulleted list of its passage ("The results are
    below." over a table; "我们来看看它的实际表现。" over the scores). Before sub-sections it is not:
    their first sentences, cited from passages of their own, pushed the right passage down the
    sources of the questions it was wrongly chosen for."""
    text = stored.sentence_text(stored.sentences[sid])
    if _LEAD_IN.search(text):
        return True
    following = sid + 1
    own = stored.sentences_of(stored.sentences[sid].chunk)
    if following not in own or not starts_paragraph(stored, sid) or not starts_paragraph(stored, following):
        return False
    if is_heading(stored, sid) or is_bullet(stored, sid) or is_table_row(text):
        return False
    return is_table_row(stored.sentence_text(stored.sentences[following])) or is_bullet(stored, following)


def _opening(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in a sentence is or is followed by in its paragraph, if any."""
    for candidate in (sid, sid + 1):
        if candidate >= len(stored.sentences) or (candidate > sid and starts_paragraph(stored, candidate)):
            break
        if stored.sentences[candidate].chunk == stored.sentences[sid].chunk and is_lead_in(stored, candidate):
            return candidate
    return None


def opens_list(stored: StoredIndex, sid: int) -> bool:
    """The sentence, or the next one of its paragraph, is a lead-in ("…下功夫的地方。他们做了三件事：")."""
    return _opening(stored, sid) is not None


def table_rows(stored: StoredIndex, sid: int) -> list[int]:
    """The data rows (header row left out) of the table a sentence is a row of, or introduces as
    the sentence right before it: a table is a list ("在哪些基准上测试了？" → every benchmark's row)."""
    own = stored.sentences_of(stored.sentences[sid].chunk)

    def is_row(i: int) -> bool:
        return i in own and is_table_row(stored.sentence_text(stored.sentences[i]))

    start = sid if is_row(sid) else sid + 1 if is_row(sid + 1) else None
    if start is None:
        return []
    while is_row(start - 1):
        start -= 1
    end = start
    while is_row(end):
        end += 1
    return list(range(start + 1, end))


def list_items(stored: StoredIndex, lead: int) -> list[int]:
    """The first sentence of each item of the list a lead-in sentence ("他们做了三件事：") opens: the
    bullet paragraphs right after it, or, when it ends its passage, the sub-sections that follow."""
    sentences, chunks = stored.sentences, stored.chunks
    doc = chunks[sentences[lead].chunk].doc_id
    items: list[int] = []
    following = lead + 1
    while following < len(sentences) and chunks[sentences[following].chunk].doc_id == doc:
        if is_bullet(stored, following):
            items.append(following)
        elif starts_paragraph(stored, following):
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


def section_opening(stored: StoredIndex, sid: int) -> list[int]:
    """The first sentence of each sub-section that a section's own text, ending with ``sid``, opens
    ("主要有三层原因。" before 第一，… 第二，…), or of the bullets the next passage opens with: the last
    words before a section's parts introduce them. Empty for a sentence that doesn't end its passage."""
    if is_heading(stored, sid) or sid + 1 != stored.sentences_of(stored.sentences[sid].chunk).stop:
        return []
    return list_items(stored, sid)  # all in passages after its own: it ends its passage


def _counts(stored: StoredIndex, sid: int) -> list[Decimal]:
    """The plain numbers a sentence states: its counts ("三条经验", "三层关系")."""
    stated = quantities(stored.sentence_text(stored.sentences[sid]))
    return [q.value for q in stated if q.kind == "number" and q.value is not None]  # None only for a date


def counted_paragraphs(stored: StoredIndex, sid: int) -> list[int]:
    """The first sentence of each of the N paragraphs after ``sid`` in its passage, when ``sid`` ends
    its paragraph and counts them with its one small number ("我总结了三条经验。" over 首先… 其次… 最后…)."""
    counts = _counts(stored, sid)
    own = stored.sentences_of(stored.sentences[sid].chunk)
    if len(counts) != 1 or not 2 <= counts[0] <= 9 or counts[0] != int(counts[0]):
        return []
    openings = [i for i in range(sid + 1, own.stop) if starts_paragraph(stored, i)][: int(counts[0])]
    if sid + 1 not in openings or len(openings) < counts[0] or any(is_heading(stored, i) for i in openings):
        return []
    return openings


def lead_in_of(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in sentence of the list a sentence is in (itself if it is one): for a sentence of
    a bullet paragraph, the sentence before the run of bullets, if it ends with a colon."""
    if is_lead_in(stored, sid):
        return sid
    lo = stored.sentences_of(stored.sentences[sid].chunk).start
    before = sid
    while before >= lo:
        paragraph = before
        while paragraph > lo and not starts_paragraph(stored, paragraph):
            paragraph -= 1
        if not is_bullet(stored, paragraph):
            break
        before = paragraph - 1
    if before == sid or before < lo:
        return None  # not in a bullet paragraph, or the list opens its passage
    return before if is_lead_in(stored, before) else None


def own_lead(stored: StoredIndex, sid: int) -> int | None:
    """The lead-in of the list a sentence is in or opens, or of the one the next sentence of its
    paragraph opens ("这是 Cursor 真正下功夫的地方。" → "他们做了三件事：")."""
    lead = lead_in_of(stored, sid)
    return lead if lead is not None else _opening(stored, sid)


def sub_section_items(stored: StoredIndex, sid: int) -> list[int]:
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
    found = list_items(stored, lead)
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
    lead = lead_in_of(stored, sid)
    own = _lead_list(stored, lead) if lead is not None else None
    lists = [own] if own else []
    sections = sub_section_items(stored, sid)
    if len(sections) > 1 and (own is None or sections != own[0]):
        lists.append((sections, " ".join(chunks[sentences[i].chunk].section for i in sections)))
    return lists


def list_item(
    stored: StoredIndex, ranked: Sequence[int], position: int, nouns: list[str], within: int = 5
) -> int | None:
    """The sentence that says what the item an ordinal points at is ("the 2nd lesson", 第三点;
    ``position`` 1-based, negative from the end). The list is that of the best-ranked sentences (the
    first ``within``): the first whose lead-in or headings use one of ``nouns`` (what the question
    calls the items: 阶段, 启示 for "lesson"), else the first. None when it has no such item."""
    lists = [found for sid in ranked[:within] for found in _lists_of(stored, sid)]
    named = [items for items, text in lists if any(noun in text.lower() for noun in nouns)]
    items = named[0] if named else lists[0][0] if lists else []
    index = position - 1 if position > 0 else position
    return first_statement(stored, items[index]) if -len(items) <= index < len(items) else None


def first_statement(stored: StoredIndex, sid: int) -> int:
    """The sentence itself, or the first after it in its passage that isn't a title-like heading
    ("阶段一：继续预训练（Continued Pretraining）" names the item; the next sentence says what it is)."""
    end = stored.sentences_of(stored.sentences[sid].chunk).stop
    while is_heading(stored, sid) and sid + 1 < end:
        sid += 1
    return sid


def points_back(stored: StoredIndex, sid: int) -> bool:
    """The sentence opens with "this" / 这: it is about what the sentence or heading before it says."""
    return _POINTS_BACK.match(stored.sentence_text(stored.sentences[sid])) is not None


def asks_itself(stored: StoredIndex, sid: int) -> bool:
    """A question the article asks itself in its text ("这意味着什么？", "我的观点？"), not a heading."""
    return stored.sentence_text(stored.sentences[sid]).rstrip().endswith(("？", "?")) and not is_heading(stored, sid)


def question_and_answer(stored: StoredIndex, sid: int) -> list[int]:
    """The article's own question and its answer around ``sid``, in its passage: a question with the
    sentences after it up to the first that is no question (its answer); an answer with the questions
    right before it, and with the sentence before those when the first points back at it ("X。这意味着
    什么？意味着 Y": Y says what X means, and X is why Y holds). Empty when ``sid`` is neither."""
    own = stored.sentences_of(stored.sentences[sid].chunk)
    first = sid
    while first - 1 in own and asks_itself(stored, first - 1):
        first -= 1
    last = sid
    while asks_itself(stored, last) and last + 1 in own:
        last += 1
    if first == sid == last or asks_itself(stored, last):
        return []
    if asks_itself(stored, first) and first - 1 in own and points_back(stored, first):
        first -= 1
    return list(range(first, last + 1))


def summed_list(stored: StoredIndex, sid: int) -> list[int]:
    """A sentence pointing back at the list right before it by its count ("这三层关系一叠加，…" after
    three bullets) with that list's lead-in and items, in its passage; empty when ``sid`` is none."""
    own = stored.sentences_of(stored.sentences[sid].chunk)
    lead = lead_in_of(stored, sid - 1) if sid - 1 in own and points_back(stored, sid) else None
    if lead is None or lead == sid - 1:
        return []
    counts = _counts(stored, sid)
    return list(range(lead, sid + 1)) if len(list_items(stored, lead)) in counts else []


def length(stored: StoredIndex, sentences: list[int]) -> int:
    return sum(len(stored.sentence_text(stored.sentences[s])) for s in sentences)


def citation_for(stored: StoredIndex, n: int, sentence: Sentence) -> Citation:
    chunk = stored.chunks[sentence.chunk]
    return Citation(
        n=n,
        chunk_id=chunk.chunk_id,
        doc_id=chunk.doc_id,
        section=chunk.section,
        paragraphs=paragraphs_of(stored, sentence),
        start=sentence.start,
        end=sentence.end,
        quote=stored.sentence_text(sentence),
    )


def paragraphs_of(stored: StoredIndex, sentence: Sentence) -> list[int]:
    """The paragraph number of a sentence: count the chunk's paragraphs up to it."""
    chunk = stored.chunks[sentence.chunk]
    before = chunk.text[: sentence.start - chunk.start]
    index = sum(1 for line in before.split("\n")[:-1] if line.strip())
    return [chunk.paragraphs[min(index, len(chunk.paragraphs) - 1)]]
