"""Where a sentence's numbers stand: the clause each is in, the label each number of a source has
(the word before it in its clause: 输入 15 美元、输出 2.50 美元), and which numbers are part of a name
(Composer 2.5). What the verifier reads to tell a number said of the wrong thing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from index.text.bounds import Mention, is_version, mentions
from index.text.names import latin_names
from index.text.stopwords import EN_STOPWORDS
from index.text.tokens import nouns, term_pairs

_HAN = re.compile(r"[\u3400-\u9fff]+")
_SENTENCE_END = re.compile(r"(?<=[。！？!?])")
_THING_BREAK = re.compile(r"[，；;]|,\s")


def _stop(word: str) -> bool:
    """A word no label is: a function word ("of", "per"), or a single letter."""
    lower = word.lower()
    return lower in EN_STOPWORDS or lower == "per" or len(lower) < 2


CLAUSE_BREAK = re.compile(r"[,;:，；：、\n]|\s(?:and|while|whereas|but)\s|\s*[（(]")


def spaced(text: str) -> str:
    """Lower case, runs of white space as one space: "Composer  2.5" is "composer 2.5"."""
    return " ".join(text.lower().split())


def stated_numbers(text: str, sources: Sequence[str] | None = None) -> list[Mention]:
    """The quantities of ``text`` with their qualifiers, versions left out: in a source, a bare number
    after a capitalised word (Composer 2.5); in an answer (``sources`` given), only such a name the
    sources write ("Composer 3" is a number to check, "Because 3 layers" too). After a word the sources
    don't write, the number is a position, not a count or a version: "Stage 2" says 阶段二, not 两件事."""
    found = []
    lowered = [spaced(source) for source in sources or ()]
    for m in mentions(text):
        if not m.qualifiers and is_version(text, m.quantity):
            if sources is None:
                continue
            name = re.search(r"[A-Za-z][A-Za-z0-9]*\s*$", text[: m.quantity.start]).group().strip()  # type: ignore[union-attr]
            written = re.compile(rf"\b{re.escape(name.lower())} {re.escape(m.quantity.text)}(?![\d.]\d)")
            if any(written.search(source) for source in lowered):
                continue
            if not any(re.search(rf"\b{re.escape(name.lower())}\b", source) for source in lowered):
                m = replace(m, quantity=replace(m.quantity, kind="ordinal"))
        found.append(m)
    return found


def quantity_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text``'s quantities and the words of their bounds are."""
    return [span for m in mentions(text) for span in ((m.quantity.start, m.quantity.end), *m.spans)]


def comparable_kind(a: Mention, b: Mention) -> bool:
    return a.quantity.kind == b.quantity.kind or "number" in (a.quantity.kind, b.quantity.kind)


@dataclass(frozen=True)
class SourceNumber:
    mention: Mention
    label: str  # the last word before it in its clause ("" if none)
    subject: str = ""  # its clause before it: what it is said of (自家额外训练+RL 占了 85%)
    others: frozenset[str] = frozenset()  # names its passage writes only in other clauses (Kimi 打底，…) or sentences
    in_table: bool = False  # said of its table column's heading; ``others`` are the other columns' names


def given_another(
    names: Sequence[str], before: Sequence[str], stated: Sequence[SourceNumber], says: Callable[[str], bool]
) -> bool:
    """An answer clause's number is said of another thing of its source sentence: the clause's
    ``names`` hold one its passage writes only in another clause or sentence, and the clause ``says`` nothing
    of what its own clause puts before it ("Kimi 打底，自家额外训练+RL 占了 85%": not Kimi's 85%). Of a
    table's number, only the names ``before`` it count: a column named after the number is what the
    row is compared with ("63.2%, Claude Opus 4.7 level"), the table says no more of it."""
    return bool(stated) and all(
        n.subject and n.others & set(before if n.in_table else names) and not says(n.subject) for n in stated
    )


def source_numbers(source: str) -> tuple[SourceNumber, ...]:
    """Each number of ``source`` with its label: the last word before it in its clause (a line cut
    at clause punctuation; a table row's cells are one clause, so its label is the row's name); a
    number with no word before it (最高 75.6% in brackets) takes the label of the one before. A
    table's number is said of its column's heading, and the names of its other columns are others.
    Read once per source and field terms (the nouns are cut with them): the verifier reads the same
    cited passages for each answer sentence."""
    return _source_numbers(source, term_pairs())


@lru_cache(maxsize=256)
def _source_numbers(source: str, terms: tuple[tuple[str, str], ...]) -> tuple[SourceNumber, ...]:
    found: list[SourceNumber] = []
    columns = _columns(source)
    everywhere = frozenset(latin_names(source))
    for line in source.split("\n"):
        label = ""
        first = len(found)
        for sentence in _SENTENCE_END.split(line):
            # a table row's cells, a list's items and brackets speak of one thing; clauses may not
            parts = [sentence] if "\t" in sentence else _THING_BREAK.split(sentence)
            named = [frozenset(latin_names(part)) for part in parts]
            # a name only another sentence writes is another thing too (3 月 27 日 is the report's, not Kimi's)
            elsewhere = everywhere - frozenset().union(*named) if "\t" not in sentence else frozenset()
            for part, names in zip(parts, named, strict=True):
                others = (frozenset().union(*named) - names) | elsewhere
                for clause in CLAUSE_BREAK.split(part):
                    label = _numbers(clause, label, others, found)
        if line in columns:
            found[first:] = [_in_column(n, line.split("\t"), columns[line]) for n in found[first:]]
    return tuple(found)


@dataclass(frozen=True)
class _Column:
    heading: str  # the header row's cell over it
    others: frozenset[str]  # the names the table writes only in its other columns but the first


def _columns(source: str) -> dict[str, list[_Column]]:
    """Each table row of ``source`` under a header row (the first of a run of tab-separated lines,
    with no number) → its columns. The first column names the rows; each other one speaks of the
    thing its heading names (基准测试 | Composer 2.5 | 对比: the scores are Composer 2.5's, not the
    compared model's)."""
    tables: list[list[list[str]]] = [[]]
    for line in source.split("\n"):
        if "\t" in line:
            tables[-1].append(line.split("\t"))
        elif line.strip():  # a line of text ends a table; a blank line between its rows doesn't
            tables.append([])
    found: dict[str, list[_Column]] = {}
    for header, *rows in (table for table in tables if len(table) > 1):
        if stated_numbers("\t".join(header)):
            continue  # its first row holds numbers: no header row to read the columns by
        width = max(len(row) for row in (header, *rows))
        names = [
            frozenset().union(*(latin_names(row[j]) for row in (header, *rows) if j < len(row))) for j in range(width)
        ]
        columns = [
            _Column(header[j] if j < len(header) else "", frozenset().union(*names[1:]) - names[j] - names[0])
            for j in range(width)
        ]
        found.update({"\t".join(row): columns for row in rows})
    return found


def _in_column(number: SourceNumber, cells: list[str], columns: list[_Column]) -> SourceNumber:
    """A table row's number, said of the heading of the column it stands in."""
    text = number.mention.quantity.text
    column = next((j for j, cell in enumerate(cells) if j and text in cell), 0)
    if not column or not columns[column].heading.strip():
        return number
    return replace(number, subject=columns[column].heading.strip(), others=columns[column].others, in_table=True)


def _numbers(clause: str, label: str, others: frozenset[str], found: list[SourceNumber]) -> str:
    """Adds ``clause``'s numbers to ``found``; returns the label a next number without one takes."""
    masked = clause
    for a, b in quantity_spans(clause):
        masked = masked[:a] + " " * (b - a) + masked[b:]
    for m in stated_numbers(clause):
        if m.quantity.per:
            continue
        before = masked[: m.quantity.start]
        words = re.findall(r"[A-Za-z][A-Za-z0-9.]*|[\u3400-\u9fff]+", before)
        label = next((w[-4:] if _HAN.fullmatch(w) else w for w in reversed(words) if not _stop(w)), label)
        subject = before.strip() if nouns(before) else ""  # "还会指出「第 42 行": no thing of its own
        found.append(SourceNumber(m, label, subject, others))
    return label
