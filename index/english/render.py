"""The English line an answer to an English question opens with, made without a model (issue #23).

The chosen answer units are Chinese. What can be rendered exactly is: numbers with magnitude and
unit, dates and percentages (index/text/numbers.py), Latin-script names, the English name the text
gives a term itself (定向 RL（Directed RL）), a table row by its header, and words the lexicon
translates (Chinese → English: the tech terms and CC-CEDICT). The other words are rendered word
for word, every clause of a sentence that says something new and exact or answers an English
question; a word the lexicon lacks stays as written, in quotes (a transliterated name: characters
the dictionary mostly uses in names, which no word covers). Where nothing can be rendered, the
line says what the quoted passage is about: its section and key terms. It never guesses a
translation.

Pure: ``english_line(question, units, lexicon)``; the lexicon is any Chinese → English mapping.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from index.english.said import estimates_in, in_english
from index.text.amounts import render
from index.text.bounds import Mention, mentions
from index.text.numbers import quantities
from index.text.stopwords import EN_STOPWORDS

MAX_LINE = 320  # characters: one or two sentences before the quote
MAX_WORD = 8  # longest lexicon word tried when segmenting
MAX_TERMS = 4  # key terms named when nothing can be rendered
NUMERALS = ("一", "两", "二")  # the counts that start words too (一起, 两边)
MIN_PART = 24  # characters: less of a cut clause says too little to add


@dataclass(frozen=True)
class EnglishUnit:
    """One chosen answer unit: its Chinese text, the heading path of its section (outermost first),
    and for a table row the header cells and its cells, for a list item its lead-in sentence."""

    text: str
    section: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    lead_in: str = ""


# Chinese grammar, not vocabulary: particles with no English word of their own are dropped; the
# few function words a dictionary glosses badly (不 "(negative prefix)") are rendered here.
_PARTICLES = frozenset("的地得了着过吗呢吧啊呀嘛之也都就还又再才便所而")
# localizers: closing a phrase (在实践中, 价格上) they say "in" / "as for", which 在 or the phrase
# says already; glossed alone they read "middle", "above"
_LOCALIZERS = frozenset("上中里内")
_FUNCTION = {
    "不": "not", "没": "not", "没有": "no", "未": "not", "非": "not", "无": "no", "别": "don't", "不是": "is not",
    "和": "and", "与": "and", "及": "and", "或": "or", "是": "is", "在": "in", "每": "per", "约": "about",
    "被": "(passive)", "比": "than", "从": "from", "对": "to", "给": "to", "把": "", "将": "will", "会": "will",
    "已": "already", "已经": "already", "最": "most", "更": "more", "很": "very", "只": "only", "仅": "only",
}  # fmt: skip
_HAN = re.compile(r"[\u3400-\u9fff]")
# an ASCII comma or colon between digits is a number's (2,000; 10:30), not a clause's end
_CLAUSE_END = re.compile(r"(?:[，；;。！？!?：、\n\t|]|(?<!\d)[,:]|[,:](?!\d))+")
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+\-/']*(?:(?:[ ]|[ ]?[+&][ ]?)[A-Za-z0-9][A-Za-z0-9_.+\-/']*)*")
# a Latin name in brackets, as a text names its own term (lexicon.own_names mines the same names)
BRACKETED_NAME = r"[A-Za-z][A-Za-z0-9 .+\-/']*[A-Za-z0-9.+]"
_OWN_NAME = re.compile(rf"[（(]\s*({BRACKETED_NAME})\s*[)）]")
_DROPPED = re.compile(r"[「」『』“”\"《》〈〉【】（）()\[\]…—–·•*#>]")
_INTERPUNCT = re.compile(r"[·•‧・]")
_FOREIGN_NAME = re.compile(r"[\u3400-\u9fff]+(?:[·•‧・][\u3400-\u9fff]+)+")
_ORDINAL_HEADING = re.compile(r"^([一二三四五六七八九十]+|\d+)[、.．]\s*")
_ZH_DIGITS = "一二三四五六七八九十"
_RENDERED_CLAUSE = re.compile(r", (?!\d)")  # how _render_text joins a sentence's clauses ("2,000" is one)


@dataclass(frozen=True)
class _Piece:
    kind: str  # "exact" (a quantity, a Latin name), "word" (Chinese, glossed or not), "drop"
    english: str | None
    chinese: str = ""


def _segment(text: str, lexicon: Mapping[str, str], bounds: bool = True) -> list[_Piece]:
    """A clause as pieces: quantities rendered (``bounds``: with what the words beside them say of them,
    as English says it), Latin runs kept, a term followed by the English name the text gives it in
    brackets as that name, Chinese by longest lexicon match."""
    spans: list[tuple[int, int, _Piece]] = []
    for match in _OWN_NAME.finditer(text):
        spans.append((match.start(), match.end(), _Piece("name", match.group(1).strip(), match.group())))
    for start, end, english in foreign_names(text, getattr(lexicon, "people", {})):
        spans.append((start, end, _Piece("exact", english, text[start:end])))
    for match in _LATIN.finditer(text):
        if not any(s < match.end() and match.start() < e for s, e, _ in spans):
            spans.append((match.start(), match.end(), _Piece("exact", match.group().strip(" .'"), match.group())))
    # mentions() reads a range's bare first end with the second's unit: the view keeps it as written
    found = mentions(text) if bounds else [Mention(q, frozenset()) for q in quantities(text)]
    for i, m in enumerate(found):
        q = m.quantity
        inside = [span for span in spans if span[0] <= q.start < span[1]]
        if inside and q.kind == "number":
            continue  # a name's number: Composer 2.5, Colossus 2
        if inside:  # "SWE-bench 73.7%": the name ends where the quantity starts
            start, _, piece = inside[0]
            spans.remove(inside[0])
            name = piece.chinese[: q.start - start].strip()
            if name:
                spans.append((start, start + len(name), _Piece("exact", name.strip(" .'"), name)))
        # a Chinese numeral counts but says little on its own (一个消息 is "a message"), and one that
        # starts a word is the word's (一起 "together", not "1 rise")
        kind = "word" if q.text in NUMERALS else "exact"
        if kind == "word" and any(text[q.start : q.start + size] in lexicon for size in range(2, MAX_WORD + 1)):
            continue
        # the measure word after a count is the count's (2,000 名宾客: "2,000 guests", not "2,000 name guests")
        after = len(text) - len(text[q.end :].lstrip(" "))  # past the spaces after the count
        end = after + 1 if q.kind == "number" and text[after : after + 1] in getattr(lexicon, "measures", ()) else q.end
        start, english = q.start, render(q)
        if bounds and kind == "exact":  # 约 100 万, 180 天以上: "about 1 million", "over 180 days"
            start, end, english = in_english(text, found, i, end)
        spans.append((start, end, _Piece(kind, english, text[start:end])))
    if bounds:  # 几千元, 两三年: "several thousand yuan", "two or three years"
        estimated = estimates_in(text, lexicon, [(start, end) for start, end, _ in spans])
        spans += [(start, end, _Piece("exact", english, text[start:end])) for start, end, english in estimated]
    spans.sort(key=lambda span: span[0])
    pieces: list[_Piece] = []
    at = 0
    for start, end, piece in spans:
        if start < at:
            continue
        pieces += _chinese(text[at:start], lexicon)
        if piece.kind == "name":
            pieces = _named(pieces, piece)
        else:
            pieces.append(piece)
        at = end
    return pieces + _chinese(text[at:], lexicon)


def foreign_names(text: str, people: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """The foreign names in a text as Chinese writes them, parts joined by an interpunct (艾萨克·
    牛顿), with their English where the dictionary names every part (Isaac Newton): (start, end,
    English). The first part is the longest run before the interpunct the dictionary names, the
    last the longest after it; a part named in full (达尔文 "Charles Darwin") gives its first word
    before the last part and its last word as the last."""
    found = []
    for match in _FOREIGN_NAME.finditer(text):
        parts = _INTERPUNCT.split(match.group())
        first = next((parts[0][i:] for i in range(len(parts[0]) - 1) if parts[0][i:] in people), None)
        last = next((parts[-1][:i] for i in range(len(parts[-1]), 1, -1) if parts[-1][:i] in people), None)
        middle = parts[1:-1]
        if first is None or last is None or not all(part in people for part in middle):
            continue
        words = [people[part].split() for part in (first, *middle, last)]
        english = " ".join([w[0] for w in words[:-1]] + [words[-1][-1]])
        start = match.start() + len(parts[0]) - len(first)
        found.append((start, match.end() - len(parts[-1]) + len(last), english))
    return found


def _named(pieces: list[_Piece], name: _Piece) -> list[_Piece]:
    """定向 RL（Directed RL）: the English name stands for the words it names (back to the last
    exact piece or the clause's start) when it covers the Latin before it."""
    assert name.english is not None
    covered = len(pieces)
    while covered > 0 and pieces[covered - 1].kind != "drop":
        previous = pieces[covered - 1]
        if previous.kind == "exact" and previous.english and previous.english.lower() not in name.english.lower():
            break
        covered -= 1
    return [*pieces[:covered], _Piece("exact", name.english, name.chinese)]


def _chinese(text: str, lexicon: Mapping[str, str]) -> list[_Piece]:
    pieces: list[_Piece] = []
    text = _DROPPED.sub(" ", text)
    at = 0
    while at < len(text):
        char = text[at]
        if not _HAN.match(char):
            at += 1
            continue
        for size in range(min(MAX_WORD, len(text) - at), 0, -1):
            word = text[at : at + size]
            if word in _FUNCTION:
                pieces.append(_Piece("word", _FUNCTION[word] or None, word) if _FUNCTION[word] else _Piece("drop", ""))
                break
            if size == 1 and word in _PARTICLES:
                pieces.append(_Piece("drop", ""))
                break
            if word in lexicon and (size > 1 or not lexicon.get(word, "").startswith("(")):
                # the corpus's own name for a term is exact, as a Latin name is (lexicon.Lexicon)
                kind = "exact" if word in getattr(lexicon, "names", ()) else "word" if size > 1 else "char"
                pieces.append(_Piece(kind, lexicon[word], word))
                break
            if size == 1:
                pieces.append(_Piece("word", None, word))
        at += size
    pieces = _spelled_names(pieces, getattr(lexicon, "name_characters", frozenset()))
    # a run of untranslated characters is one unknown word
    merged: list[_Piece] = []
    for piece in pieces:
        unknown = piece.kind == "word" and piece.english is None
        if unknown and merged and merged[-1].kind == "word" and merged[-1].english is None:
            merged[-1] = _Piece("word", None, merged[-1].chinese + piece.chinese)
        else:
            merged.append(piece)
    return merged


def _spelled_names(pieces: list[_Piece], name_characters: frozenset[str]) -> list[_Piece]:
    """Characters matched one by one, two or more in a row and mostly ``name_characters``, spell a
    name the lexicon lacks (伯吉斯 is Burgess, not "senior lucky this"): untranslated. The rest are
    words of their own (天 after the count of 一天)."""
    out: list[_Piece] = []
    for matched_alone, group in groupby(pieces, key=lambda p: p.kind == "char"):
        run = list(group)
        if not matched_alone:
            out += run
            continue
        spelled = len(run) > 1 and sum(p.chinese in name_characters for p in run) * 2 > len(run)
        out += [_Piece("word", None if spelled else p.english, p.chinese) for p in run]
    return out


def _words(pieces: list[_Piece]) -> list[str]:
    """The pieces' English in order; a word the lexicon lacks as written, quoted (“科尔尼”): a reader
    sees what is missing, and nothing is guessed."""
    out: list[str] = []
    for piece in pieces:
        english = f"“{piece.chinese}”" if piece.kind == "word" and piece.english is None else piece.english
        if piece.kind != "drop" and english and (not out or out[-1] != english):
            out.append(english)
    return out


def _new(piece: _Piece, asked: frozenset[str]) -> bool:
    """An exact piece the question doesn't already say: a quantity, or a name it doesn't name."""
    if piece.kind != "exact" or not piece.english:
        return False
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", piece.english)}
    return not words or not words <= asked


def render_clause(
    clause: str, lexicon: Mapping[str, str], asked: frozenset[str] = frozenset(), bounds: bool = True
) -> tuple[str, bool]:
    """A clause in English word for word, and whether it says something new and exact (a quantity,
    a name the question (``asked``: its words, lower case) doesn't name)."""
    pieces = _segment(clause, lexicon, bounds)
    said = [i for i, p in enumerate(pieces) if p.kind != "drop"]
    if len(said) > 1 and pieces[said[-1]].kind == "word" and pieces[said[-1]].chinese in _LOCALIZERS:
        del pieces[said[-1]]  # the closing one, not an earlier one alike
    news = any(_new(p, asked) for p in pieces) or (not asked and any(p.kind == "exact" for p in pieces))
    return " ".join(_words(pieces)), news


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_END.split(text) if c.strip()]


def _render_text(text: str, lexicon: Mapping[str, str], asked: frozenset[str]) -> str:
    """A sentence's clauses in order, if it says something: new and exact, or the question's words
    (``asked``) to answer; else ""."""
    rendered = [render_clause(c, lexicon, asked) for c in _clauses(text)]
    kept = [(english, news) for english, news in rendered if english]
    if not kept or not (asked or any(news for _, news in kept)):
        return ""
    return ", ".join(english for english, _ in kept)


def gloss_sentence(text: str, lexicon: Mapping[str, str], bounds: bool = False) -> str:
    """A sentence's every clause word for word, whatever it says: the English view the index embeds
    (english/view.py). Without ``bounds`` a number's qualifiers are glossed as words where they stand
    (九分之一左右 "1/9 nearby"), as in the view the answer model was trained on; a reader reads them
    as English says them ("about 1/9")."""
    glossed = (render_clause(c, lexicon, bounds=bounds)[0] for c in _clauses(text))
    return ", ".join(english for english in glossed if english)


def _render_cell(cell: str, lexicon: Mapping[str, str]) -> str:
    parts = [render_clause(c, lexicon)[0] for c in _clauses(cell.replace("（", "(").replace("）", ")"))]
    if not all(parts):
        # "63.2%（最高 64.8%）": the parenthesis renders as one
        inner = re.sub(r"[(（]\s*(.*?)\s*[)）]", r", \1", cell)
        parts = [render_clause(c, lexicon)[0] for c in _clauses(inner)]
    return ", ".join(p for p in parts if p)


def _render_row(unit: EnglishUnit, lexicon: Mapping[str, str]) -> str:
    """'SWE-bench Multilingual: Composer 2.5 73.7%, comparison industry peak': the row's first cell,
    then each cell after its column's name; a cell that can't be rendered is left out."""
    label = _render_cell(unit.cells[0], lexicon)
    pairs = []
    for name, cell in zip(unit.header[1:], unit.cells[1:], strict=False):
        value = _render_cell(cell, lexicon)
        if value:
            column = _render_cell(name, lexicon)
            pairs.append(f"{column} {value}".strip())
    if not pairs:
        return ""
    return f"{label}: " + ", ".join(pairs) if label else ", ".join(pairs)


def _section_name(section: Sequence[str], lexicon: Mapping[str, str]) -> str:
    """'section 5', with the heading's words when they all render ('section 2, Cursor …')."""
    if not section:
        return "the article"
    top = section[0].strip()
    match = _ORDINAL_HEADING.match(top)
    number = ""
    if match:
        digits = match.group(1)
        number = digits if digits.isdigit() else str(_ZH_DIGITS.index(digits) + 1) if len(digits) == 1 else ""
    heading = _render_section_words(section[-1] if len(section) > 1 else top[match.end() :] if match else top, lexicon)
    if number and heading:
        return f"section {number} (“{heading}”)"
    if number:
        return f"section {number}"
    return f"the section “{heading}”" if heading else "the article"


def _render_section_words(heading: str, lexicon: Mapping[str, str]) -> str:
    parts = [render_clause(c, lexicon)[0] for c in _clauses(heading)]
    # a heading is named in English only whole: no word of it left as written
    return ", ".join(parts) if parts and all(p and "“" not in p for p in parts) else ""


def key_terms(text: str, lexicon: Mapping[str, str], limit: int = MAX_TERMS) -> list[str]:
    """The passage's names and its translated words of two or more characters, in order."""
    terms: list[str] = []
    for piece in _segment(text, lexicon):
        english = piece.english
        if not english or piece.kind == "drop" or english.lower() in EN_STOPWORDS:
            continue
        if piece.kind == "word" and (len(piece.chinese) < 2 or piece.chinese in _FUNCTION):
            continue
        if english.lower() not in (t.lower() for t in terms):
            terms.append(english)
        if len(terms) == limit:
            break
    return terms


def _about(units: Sequence[EnglishUnit], lexicon: Mapping[str, str]) -> str:
    first = units[0]
    where = _section_name(first.section, lexicon)
    terms = key_terms(" ".join(u.text for u in units), lexicon)
    if not terms:
        return f"The quoted passage is from {where}; it can't be rendered in English word for word."
    return f"The quoted passage, from {where}, is about: {', '.join(terms)}."


def _question_words(question: str) -> frozenset[str]:
    return frozenset({w.lower() for w in re.findall(r"[A-Za-z]+", question) if w.lower() not in EN_STOPWORDS})


def english_line(question: str, units: Sequence[EnglishUnit], lexicon: Mapping[str, str]) -> str:
    """One or two English sentences from the chosen answer units, rendered word for word, else
    what the quoted passage is about. ``question`` orders what is said: the units that share its
    words come first."""
    if not units:
        return ""
    asked = _question_words(question)
    rendered: list[tuple[int, str]] = []
    for position, unit in enumerate(units):
        if unit.cells and unit.header:
            text = _render_row(unit, lexicon)
        else:
            text = _render_text(unit.text, lexicon, asked)
            if text and unit.lead_in and not rendered:
                lead = _render_text(unit.lead_in, lexicon, asked)
                # a lead-in that renders as a bare number ("他们做了三件事" → "3") says nothing
                text = f"{lead}: {text}" if re.search(r"[A-Za-z]{2}", lead) else text
        if text:
            shared = len(asked & {w.lower() for w in re.findall(r"[A-Za-z]+", text)})
            rendered.append((-shared * 100 + position, text))
    if not rendered:
        return _about(units, lexicon)
    line = ""
    for _, text in sorted(rendered):
        if not line:
            line = text
            continue
        # what doesn't fit whole is said up to its last clause that fits ("Cursor, on March 27, 2026")
        clauses = _RENDERED_CLAUSE.split(text)
        first = clauses[0]
        while clauses and len(f"{line}; {', '.join(clauses)}") > MAX_LINE:
            clauses.pop()
        if not clauses:
            room = MAX_LINE - len(line) - 3
            if room >= MIN_PART:  # the first clause's opening words, cut
                line = f"{line}; {first[:room].rsplit(' ', 1)[0]}…"
            break
        line = f"{line}; {', '.join(clauses)}"
    if len(line) > MAX_LINE:
        line = line[: MAX_LINE - 1].rsplit(" ", 1)[0] + "…"
    line = line[:1].upper() + line[1:]
    return line if line.endswith((".", "…", "?", "!")) else line + "."


__all__ = ["BRACKETED_NAME", "EnglishUnit", "english_line", "key_terms", "render_clause"]
