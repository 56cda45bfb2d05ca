"""Question clean-up and language detection: pure functions shared by the CLI and the bot."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from index.errors import QuestionError
from index.text.stopwords import EN_STOPWORDS

MAX_QUESTION_CHARS = 2000

_FENCE = re.compile(r"```[\w+-]*\n?|```")
_MARKDOWN = re.compile(r"(\*\*|__|~~|\|\||`)|^\s{0,3}(?:#{1,6}\s+|>\s?|[-*+]\s+)", re.MULTILINE)
_LINK = re.compile(r"\[([^\]]+)\]\((?:https?://)?[^)]+\)")
# *italic* and _italic_ around words (not snake_case, not 2*3*4): Discord's emphasis
_ITALIC = re.compile(r"(?<![A-Za-z0-9*_])([*_])(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![A-Za-z0-9*_])")
_ZERO_WIDTH = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff\u00ad]")
_WORDLIKE = re.compile(r"[0-9A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9+]|(?<![A-Za-z0-9])[A-Za-z](?![A-Za-z0-9])")


def _unwanted(ch: str) -> bool:
    """A control character (a newline aside) or a lone surrogate."""
    category = unicodedata.category(ch)
    return (category == "Cc" and ch != "\n") or category == "Cs"


def clean_question(raw: str) -> str:
    """Remove Markdown, code fences, zero-width and control characters, and lone surrogates: not
    characters, they can't be encoded (the embedder, SQLite and Discord would refuse the text), yet
    they arrive: undecodable bytes of a command line become them (PEP 383), and JSON's "\\ud800"
    escapes decode to them. Discord's own syntax (mentions, custom emoji) is the bot's to remove
    (bot/discord_text.py)."""
    text = unicodedata.normalize("NFC", raw)
    text = _ZERO_WIDTH.sub("", text)
    text = "".join(" " if _unwanted(ch) else ch for ch in text)
    text = _FENCE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _MARKDOWN.sub(" ", text)
    text = _ITALIC.sub(r"\2", text)
    return " ".join(text.split())


def validate_question(raw: str, max_chars: int = MAX_QUESTION_CHARS) -> str:
    """The cleaned question, or QuestionError saying what is wrong with it."""
    if len(raw) > max_chars * 4:
        raise QuestionError(f"the question is too long ({len(raw)} characters; at most {max_chars})")
    question = clean_question(raw)
    if not question:
        raise QuestionError("the question is empty: ask something about the article")
    if len(question) > max_chars:
        raise QuestionError(f"the question is too long ({len(question)} characters; at most {max_chars})")
    if not _WORDLIKE.search(question):
        raise QuestionError("the question has no words in it (only emoji or punctuation): ask in words")
    return question


def detect_language(text: str) -> str:
    """'zh' for Chinese, 'ja'/'ko' for Japanese/Korean, else 'en' (answers use en for all but zh)."""
    kana = len(re.findall(r"[\u3040-\u30ff]", text))
    hangul = len(re.findall(r"[\uac00-\ud7af]", text))
    han = len(re.findall(r"[\u3400-\u9fff]", text))
    if kana:
        return "ja"
    if hangul > han:
        return "ko"
    if han:
        # an English question quoting a Chinese term ("What does 套壳 mean?") is English: more of
        # its words are English grammar than half its Chinese characters
        grammar = sum(1 for m in LATIN_WORD.finditer(text) if m.group(0).lower() in EN_STOPWORDS)
        return "en" if 2 * grammar > han else "zh"
    return "en"


# a quotation's text: what the asker cites from the article, not the language they ask in
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|《[^》]*》|\"[^\"]*\"|(?<![A-Za-z])'[^']*'(?![A-Za-z])")


def asked_language(question: str) -> str:
    """The language a question is asked in: that of its words outside quotation marks, when it has any
    ("\"商业世界，没有无缘无故的爱\" - what's that line getting at?" is English), else of the whole."""
    outside = _QUOTED.sub(" ", question)
    return detect_language(outside if _WORDLIKE.search(outside) else question)


def truecase(text: str, written: Callable[[str], str | None]) -> str:
    """``text`` with each all-lower-case Latin word as ``written`` says the corpus writes it
    ("cursor" → "Cursor", "spacex" → "SpaceX"); words it doesn't know stay as they are. ``written``
    is asked once per distinct word."""
    forms: dict[str, str] = {}

    def form(match: re.Match[str]) -> str:
        word = match.group(0)
        if not word.islower():
            return word
        if word not in forms:
            forms[word] = written(word) or word
        return forms[word]

    return LATIN_WORD.sub(form, text)


# Who says it, not what: "according to the article", "does the author think", "the article mentions".
# e5 matches these words to the article's own opinion passages ("我的看法？"), whatever the question is
# about. A question asking for the view itself ("What is the author's view on…") keeps them.
_ATTRIBUTION = re.compile(
    # "in the author's view", not "in the author's steel-plate analogy": there the analogy is asked about
    r"\b(?:according to|per|in) (?:the|this) (?:article|author|post|piece|writer)"
    r"(?:'s (?:view|opinion|eyes|words)|(?!'s)),?"
    r"|\b(?:does|did|do|would) (?:the|this) (?:author|article|writer|piece|post)"
    r" (?:say|think|believe|argue|mention|claim|suggest|feel|see|describe|name|list|call|give|use|make|draw)s?"
    r"(?: that)?"
    r"|\b(?:the|this) (?:author|article|writer|piece|post)(?:'s)? (?:says?|thinks?|believes?|argues?|mentions?|claims?"
    r"|suggests?|feels?|sees?|describes?|names?|lists?|calls?|gives?|uses?|draws?|pulls?(?: out)?)(?: that)?",
    re.IGNORECASE,
)


def without_attribution(question: str) -> str:
    """An English question as the embedder should read it: without the words that only attribute
    what is asked to the article or its author ("Is X standard practice according to the article?"
    → "Is X standard practice?"). The question itself if nothing else would be left."""
    stripped = " ".join(_ATTRIBUTION.sub(" ", question).split())
    return stripped if _WORDLIKE.search(stripped) else question
