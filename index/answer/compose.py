"""The compose step: the chosen answer units as an answer — the best unit, what it leads into (a
list's items, a table's rows, the sentence after a colon), a second unit the scorer rates nearly as
high — and the answer's text with paragraph-exact citations.
"""

from __future__ import annotations

from collections.abc import Sequence

from index.answer.english_line import english_opening, in_english, translated_line
from index.answer.messages import message
from index.answer.units import (
    citation_for,
    counted_paragraphs,
    first_statement,
    is_heading,
    is_lead_in,
    lead_in_of,
    length,
    list_items,
    names_a_section,
    own_lead,
    paragraph_after,
    paragraphs_of,
    points_back,
    question_and_answer,
    render_sentence,
    section_opening,
    starts_paragraph,
    sub_section_items,
    summed_list,
    table_rows,
)
from index.build.store import StoredIndex
from index.models import Citation
from index.text.language import detect_language

MAX_ANSWER_CHARS = 400


def choose(
    stored: StoredIndex, ranked: Sequence[tuple[int, float]], second_ratio: float, neighbours: Sequence[int] = ()
) -> list[int]:
    """The sentences of the answer, in document order. ``ranked``: (sentence, probability) best first.
    ``neighbours``: the best one's that its answer unit takes in (the extend step), when they fit. Another
    sentence of the best one's passage joins when the scorer gives it ``second_ratio`` of the best one's
    probability (the second, and a third as close: a verdict beside the facts it judges)."""
    if not ranked:
        return []
    best, p_best = ranked[0]
    chosen = _completed(stored, best)
    # a neighbour that leads in comes with what it introduces, as the best one does, or not at all
    whole = sorted({*chosen, *(s for n in neighbours for s in _completed(stored, n))})
    plain = sorted({*chosen, *(n for n in neighbours if not is_lead_in(stored, n))})
    chosen = next((u for u in (whole, plain) if length(stored, u) <= MAX_ANSWER_CHARS), chosen)
    for other, p_other in ranked[1:]:
        if p_other < second_ratio * p_best:
            break
        same = stored.sentences[other].chunk == stored.sentences[best].chunk
        if same and other not in chosen:
            together = sorted({*chosen, *_completed(stored, other)})
            if length(stored, together) <= MAX_ANSWER_CHARS:
                chosen = together
    return sorted(chosen)


def in_asker_language(
    stored: StoredIndex, chosen: list[int], language: str, limit: int = MAX_ANSWER_CHARS
) -> list[int]:
    """A chosen sentence in another language than the asker's (an English quote for a Chinese asker)
    comes with the paragraph after it in its passage when that one is in the asker's language: the
    article's own rendering of the quote ("翻译：…"), which a reader of the answer may need."""
    picked = set(chosen)
    for sid in chosen:
        own = stored.sentences_of(stored.sentences[sid].chunk)
        following = sid + 1
        if following in picked or following not in own or detect_language(_text(stored, sid)) == language:
            continue
        rendering = [following]
        while rendering[-1] + 1 in own and not starts_paragraph(stored, rendering[-1] + 1):
            rendering.append(rendering[-1] + 1)
        said = all(detect_language(_text(stored, i)) == language and not is_heading(stored, i) for i in rendering)
        if said and length(stored, [*picked, *rendering]) <= limit:
            picked.update(rendering)
    return sorted(picked)


def _text(stored: StoredIndex, sid: int) -> str:
    return stored.sentence_text(stored.sentences[sid])


def whole_list(stored: StoredIndex, chosen: list[int], limit: int = MAX_ANSWER_CHARS) -> list[int]:
    """For a question asking for several things: a chosen list item or lead-in comes with its
    lead-in and every item of its list, when they fit; a sentence that opens its section's parts or
    counts the paragraphs after it, with their openings; else a sentence of a sub-section with the
    opening of each sibling sub-section, when their headings are titles ("阶段一：继续预训练" names a
    part; "第一，开源模型的威力正在被重新定义。" states a claim whose paragraph is about something else)."""
    for parts in (_led_list, _opened_parts, _titled_siblings):
        for sid in chosen:
            extra = parts(stored, sid)
            together = sorted({*chosen, *extra})
            if extra and length(stored, together) <= limit:
                return together
    return chosen


def _led_list(stored: StoredIndex, sid: int) -> list[int]:
    lead = lead_in_of(stored, sid)
    if lead is None:
        return []
    items = list_items(stored, lead)
    return [lead, *_saying(stored, items)] if len(items) > 1 else []


def _opened_parts(stored: StoredIndex, sid: int) -> list[int]:
    items = section_opening(stored, sid) or counted_paragraphs(stored, sid)
    return sorted(_saying(stored, items)) if len(items) > 1 else []


def _titled_siblings(stored: StoredIndex, sid: int) -> list[int]:
    items = sub_section_items(stored, sid)
    return sorted(_saying(stored, items)) if len(items) > 1 and all(is_heading(stored, i) for i in items) else []


def _saying(stored: StoredIndex, items: list[int]) -> set[int]:
    """A list's items with what each says: a sub-section's title-like heading names its item, and the
    sentence after it says what it is."""
    return {*items, *(first_statement(stored, i) for i in items)}


def _completed(stored: StoredIndex, sid: int) -> list[int]:
    """A sentence with what it needs to be read: a lead-in ("他们做了三件事：") with its list items or
    table rows, or else the sentence it leads into; a sub-heading's claim with the paragraph under it
    that explains it; a question the article asks itself with its answer, and an answer with its
    question; a sentence summing up the list before it by its count, with the list; as many as fit."""
    lead = own_lead(stored, sid)
    if lead is not None and lead >= sid:
        items = list_items(stored, lead) or table_rows(stored, lead)
        group = sorted({sid, lead, *_saying(stored, items)})
        if len(items) > 1 and length(stored, group) <= MAX_ANSWER_CHARS:
            return group
    claim = names_a_section(stored, sid)
    if claim:  # a section's claim with the paragraph that says why, as much as fits
        explained = [sid]
        for n in paragraph_after(stored, sid):
            if length(stored, [*explained, n]) > MAX_ANSWER_CHARS:
                break
            explained.append(n)
        if len(explained) > 1:
            return explained
    asked = question_and_answer(stored, sid) or summed_list(stored, sid)
    if asked and length(stored, asked) <= MAX_ANSWER_CHARS:
        return asked
    if is_lead_in(stored, sid) or claim:  # never a lead-in or a claim alone
        following = sid + 1
        same_doc = following < len(stored.sentences) and (
            stored.chunks[stored.sentences[following].chunk].doc_id == stored.chunks[stored.sentences[sid].chunk].doc_id
        )
        if same_doc and not is_heading(stored, following):
            return [sid, following]
    return [sid]


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
        or not points_back(stored, first)
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
        fitting = [i for i in options if length(stored, [*picked, i]) <= limit]
        if not fitting:
            if high not in chosen and is_lead_in(stored, high):
                picked.discard(high)  # "背后的关系很复杂：" without what it leads into would end the answer
            return sorted(picked)
        picked.add(fitting[0])
        low, high = min(low, fitting[0]), max(high, fitting[0])


def compose(stored: StoredIndex, sentences: list[int], language: str, question: str = "") -> tuple[str, list[Citation]]:
    """Answer text with [n] markers, and its citations (one per cited chunk). A non-Chinese
    asker gets an English line first (index/english/render.py), then the Chinese it comes from."""
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
            spanned = {*cite.paragraphs, *paragraphs_of(stored, sentence)}
            # every paragraph the widened quote spans (a table's header row between intro and rows)
            cite.paragraphs = [p for p in chunk.paragraphs if min(spanned) <= p <= max(spanned)]
        text = render_sentence(stored, sentence)
        parts.append(f"{text} —" if is_heading(stored, sid) else text)
    body = _join(parts, language)
    markers = "".join(f"[{c.n}]" for c in citations)
    if len(body) > MAX_ANSWER_CHARS:
        body = body[: MAX_ANSWER_CHARS - 1].rstrip() + "…"
    if language == "zh":
        return message("answer.says", language, body=body, markers=markers), citations
    if all(in_english(stored, sid) for sid in sentences):  # the article's own English: quoted as it is
        return message("answer.says", language, body=body, markers=markers), citations
    opening = english_opening(stored, sentences, question)
    key = "answer.says.translated" if translated_line(stored, sentences) else "answer.says.english"
    key = key if opening else "answer.says"
    return message(key, language, opening=opening, body=body, markers=markers), citations


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
