"""The model asked for renderings: a paragraph at once, its sentences numbered (each with its
paragraph's context, in alignment); one sentence again with its problems named; a sentence clause by
clause; a sentence with its reply begun. Amounts are handed over already in the other language
(prepared). What the replies say is checked by the caller (index/generate/enrich.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from index.english.renderings import names, persons, spoken
from index.generate.clauses import clauses_of, joined
from index.generate.settings import LLMSettings
from index.text.amounts import renderings

_LANGUAGE_NAMES = {"en": "English", "zh": "Simplified Chinese"}
_SYSTEM = (
    "You translate {source} into natural, fluent {target} for readers of an article about technology. "
    "Translate the meaning, not word by word: render idioms and slang by what they mean, in complete "
    "{target} sentences; company, product and model names stay names. "
    "Translate each numbered line into one numbered {target} line, in the same order. Copy names, "
    "numbers, amounts and words already in {target} exactly as they are written. Output only the "
    "numbered {target} lines."
)
# one worked exchange before the paragraph, written for this prompt from no corpus of ours: a 1.5B model
# shown idioms rendered by meaning glossed fewer of its sentences word by word
_EXAMPLE = {
    "en": (
        ("说白了，这家咖啡连锁就是在靠补贴换增长。", "Put simply, this coffee chain is buying growth with subsidies."),
        (
            "业内人士透露，这家游戏工作室正在和索尼谈合作。",
            "Industry insiders say the game studio is in talks with Sony about a partnership.",
        ),
        (
            "这笔账怎么算都不划算，难怪投资人纷纷撤了。",
            "However you do the math, it doesn't pay off: no wonder investors have been pulling out.",
        ),
    ),
}
_RETRY = (
    "Context, not to translate:\n{paragraph}\n\nTranslate only this sentence into one line of natural "
    "{target}{keep}. An earlier translation had these problems: {problems}. Output only the translation.\n\n"
    "{sentence}"
)
_NUMBERED = re.compile(r"^\s*(\d+)\s*[.)、:：]\s*(.+?)\s*$")
# a list item's mark: read as "1. • …", the local model answered nothing for two of the article's items
_LIST_MARK = re.compile(r"^\s*[•·▪◦‣*+\-]\s+")


@dataclass(frozen=True)
class Item:
    """A sentence of the corpus to render, and where it is."""

    key: str
    text: str
    language: str  # of the rendering
    document: str  # the document's path in the corpus


def prepared(text: str, language: str, own: Mapping[str, str] | None = None) -> str:
    """A sentence as the model reads it: without a list item's mark, a table row's cells apart, amounts,
    the people the dictionary knows (马斯克 read as "Mars Express" otherwise) and the terms the corpus
    names itself (``own``: 月之暗面（Moonshot）, read as "the dark side of the moon") already in English."""
    text = _LIST_MARK.sub("", text, count=1)
    if language == "en":
        for written, english in _fixed(text):
            text = text.replace(written, f" {english} ", 1)
        for written, parts in persons(text):
            text = text.replace(written, f" {' '.join(parts)} ")
        for written, english in named_terms(text, own or {}):
            text = text.replace(written, f" {english} ")
    return re.sub(r" {2,}", " ", text.replace("\t", " | ")).strip()


def named_terms(text: str, own: Mapping[str, str]) -> list[tuple[str, str]]:
    """(as written, in English) of the terms ``text`` holds that the corpus names in English itself,
    with the name's brackets where they follow the term. An all-capital name is left out: an
    abbreviation may name only the term's end (大规模强化学习（RL）)."""
    found = []
    for term, english in sorted(own.items(), key=lambda pair: -len(pair[0])):
        if term in text and not english.isupper():
            bracketed = re.search(re.escape(term) + r"\s*[（(]\s*" + re.escape(english) + r"\s*[)）]", text)
            found.append((bracketed.group() if bracketed else term, english))
    return found


def _fixed(text: str) -> list[tuple[str, str]]:
    """(as written, in English) of the amounts a rendering must state, as the project renders them."""
    kept = {q.text for q in spoken(text)}
    return [(written, english) for written, english in renderings(text) if written in kept]


class Translator:
    """Asks the model for renderings through ``chat.completions.create`` (a local model or an endpoint)."""

    def __init__(self, client: Any, llm: LLMSettings, own: Mapping[str, str] | None = None) -> None:
        self.client = client
        self.llm = llm
        self.own = dict(own or {})  # the corpus's terms by the English names it gives them

    def _ask(self, system: str, user: str, budget: int, begun: str = "", shown: str = "") -> str:
        """The model's reply; ``begun``: the reply's start, sent as a last assistant message for the
        model to go on from (a model served by llama.cpp does; another endpoint answers afresh);
        ``shown``: the language whose worked example goes before the ask."""
        messages = [{"role": "system", "content": system}]
        if example := _EXAMPLE.get(shown):
            for role, side in (("user", 0), ("assistant", 1)):
                messages.append(
                    {"role": role, "content": "\n".join(f"{n}. {pair[side]}" for n, pair in enumerate(example, 1))}
                )
        messages += [{"role": "user", "content": user}]
        messages += [{"role": "assistant", "content": begun}] if begun else []
        reply = self.client.chat.completions.create(
            model=self.llm.model or "",
            messages=messages,
            max_tokens=min(self.llm.max_tokens * 4, budget),
            temperature=0.0,
        )
        return str(reply.choices[0].message.content or "")

    def paragraph(self, items: Sequence[Item]) -> list[str]:
        """One rendering per item ("" where the reply has no line for it)."""
        target = items[0].language
        source = _LANGUAGE_NAMES["zh" if target == "en" else "en"]
        system = _SYSTEM.format(source=source, target=_LANGUAGE_NAMES[target])
        user = "\n".join(f"{n}. {prepared(item.text, target, self.own)}" for n, item in enumerate(items, 1))
        lines: dict[int, str] = {}
        for line in self._ask(system, user, _budget(user), shown=target).splitlines():
            match = _NUMBERED.match(line)
            if match and 1 <= int(match.group(1)) <= len(items):
                lines.setdefault(int(match.group(1)), match.group(2))
        return [lines.get(n, "") for n in range(1, len(items) + 1)]

    def sentence(self, item: Item, paragraph: Sequence[Item], found: Sequence[str]) -> str:
        """One sentence again, alone, with its paragraph as context and its problems named."""
        target = _LANGUAGE_NAMES[item.language]
        kept = [f"{written} = {english}" for written, english in _fixed(item.text)] if item.language == "en" else []
        kept += names(item.text)
        user = _RETRY.format(
            paragraph=" ".join(i.text for i in paragraph),
            target=target,
            keep=f", writing these exactly so: {'; '.join(kept)}" if kept else "",
            problems="; ".join(found),
            sentence=prepared(item.text, item.language, self.own),
        )
        system = f"You are a careful translator into {target}."
        lines = self._ask(system, user, _budget(item.text)).strip().splitlines()
        return lines[0] if lines else ""

    def led(self, item: Item, lead: str) -> str:
        """One sentence alone, the reply begun with ``lead`` (another endpoint's whole reply is checked
        as it is)."""
        system = _SYSTEM.format(source=_LANGUAGE_NAMES["zh"], target=_LANGUAGE_NAMES[item.language])
        user = f"1. {prepared(item.text, item.language, self.own)}"
        lines = (
            self._ask(system, user, _budget(item.text), begun=f"1. {lead}", shown=item.language).strip().splitlines()
        )
        numbered = _NUMBERED.match(lines[0]) if lines else None
        line = numbered.group(2) if numbered else (lines[0] if lines else "")
        goes_on = line[:1].islower() or line[:1] in "'’,"  # only what follows the lead ("'s response …")
        return f"{lead}{line}" if goes_on and not line.startswith(lead) else line

    def clauses(self, item: Item) -> str:
        """A Chinese sentence's clauses as numbered lines, with no paragraph to borrow from, joined
        again with the sentence's own punctuation ("" when the reply lacks a clause)."""
        parts = clauses_of(item.text)
        made = self.paragraph([Item(item.key, part, item.language, item.document) for part, _ in parts])
        if not all(made):
            return ""
        return joined([(line, mark) for line, (_, mark) in zip(made, parts, strict=True)])


def opening_names(text: str) -> str:
    """The Latin-script words a Chinese sentence opens with ("Cursor CEO Michael Truell 的…"): its
    English opens with them too, the subject, which a model asked plainly dropped."""
    found = re.match(r"[A-Za-z][\w.+\-]*(?: [A-Za-z0-9][\w.+\-]*)*(?= ?[\u3400-\u9fff])", text.strip())
    return found.group() if found else ""


def marked(source: str, line: str) -> str:
    """A rendering of a list item with the item's mark, as its source has it (the model was asked
    without it)."""
    mark = _LIST_MARK.match(source)
    if not mark or not line or _LIST_MARK.match(line):
        return line
    return f"{mark.group().strip()} {line}"


def _budget(text: str) -> int:
    """Tokens a translation of ``text`` may take: about two per character, so that a model caught
    repeating itself stops soon (a Chinese character is about one English word's worth)."""
    return 48 + 2 * len(text)


__all__ = ["Item", "Translator", "marked", "named_terms", "opening_names", "prepared"]
