"""What a decline says: that the article doesn't answer, the nearest sections, and — only when it
was checked — the names of the question that no passage writes in any form."""

from __future__ import annotations

import re

from index.answer.features import Terms
from index.answer.messages import message
from index.build.chunking import SECTION_SEPARATOR
from index.text.language import LATIN_WORD
from index.text.stopwords import EN_STOPWORDS
from index.text.tokens import tokenize

# where an English sentence's first word is (capitalised as any first word is); Han text before a
# Latin word means it isn't one
_SENTENCE_START = re.compile(r"(?:^|[.!?:。！？：]\s*)[^A-Za-z0-9\u4e00-\u9fff]*(?=[A-Za-z])")


def names(question: str) -> list[str]:
    """The Latin-script words of a question that name something: capitalised (not as its first
    word) or with a digit (Bitcoin, GPT-4, iPhone); never "I" or a function word."""
    starts = {m.end() for m in _SENTENCE_START.finditer(question)}
    return [
        m.group(0)
        for m in LATIN_WORD.finditer(question)
        if len(m.group(0)) > 1
        and m.group(0).lower() not in EN_STOPWORDS
        and ((m.group(0)[0].isupper() and m.start() not in starts) or any(c.isdigit() for c in m.group(0)))
    ]


def unmentioned(question: str, terms: Terms) -> tuple[str, ...]:
    """The question's names none of whose words the corpus has, itself or translated."""
    absent = set(terms.absent)
    return tuple(dict.fromkeys(n for n in names(question) if (words := tokenize(n)) and set(words) <= absent))


def decline_text(language: str, sections: list[str], missing: tuple[str, ...] = ()) -> str:
    """The article doesn't say; what no passage mentions, if anything; the nearest sections."""
    text = message("answer.decline", language)
    if missing:
        text += message("answer.decline.unmentioned", language, names=message("list.separator", language).join(missing))
    listed = ("；" if language == "zh" else "; ").join(s.replace(SECTION_SEPARATOR, " › ") for s in sections)
    return text + (message("answer.decline.nearest", language, sections=listed) if listed else "")
