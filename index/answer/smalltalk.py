"""Greetings and thanks ("hi", "你好", "thanks!"): no question about the article, so no passage is
quoted; the reply says what the bot answers instead of "the article doesn't say". Pure functions.
"""

from __future__ import annotations

import re
from typing import Literal

from index.answer.messages import message

SmallTalk = Literal["greeting", "thanks", "ack"]

# Matched by longest phrase, left to right, never by a regex with nested repetition: "谢谢你" is
# 谢谢 + 你 or 谢谢你, and a pattern that may try both at every repeat backtracks exponentially.
_KINDS: dict[str, tuple[str, ...]] = {
    "greeting": (
        "hi", "hello", "hey", "heya", "hiya", "yo", "howdy", "greetings", "good morning", "good afternoon",
        "good evening", "你好", "您好", "嗨", "哈喽", "哈啰", "早上好", "早安", "下午好", "晚上好", "在吗", "在不在",
        "大家好",
    ),
    "thanks": ("thanks", "thank you", "thank", "thx", "ty", "cheers", "谢谢", "谢了", "多谢", "感谢", "辛苦了"),
    "ack": ("ok", "okay", "cool", "great", "nice", "got it", "好的", "好", "明白了", "懂了", "收到"),
    # said around the others, never alone
    "extra": (
        "bot", "there", "everyone", "all", "so much", "very much", "a lot",
        "机器人", "啊", "呀", "哈", "呢", "你", "您",
    ),
}  # fmt: skip
_PHRASES = {phrase: kind for kind, phrases in _KINDS.items() for phrase in phrases}
_LONGEST_FIRST = sorted(_PHRASES, key=len, reverse=True)
_NOT_WORDS = re.compile(r"[^\w\s]+|_")  # punctuation and emoji


def _phrases(text: str) -> list[str] | None:
    """The text cut into known phrases, longest first at each place; None if anything else is in it."""
    found: list[str] = []
    at = 0
    while at < len(text):
        if text[at] == " ":
            at += 1
            continue
        for phrase in _LONGEST_FIRST:
            end = at + len(phrase)
            # a Latin phrase ends a word: "hi" isn't the start of "history"
            if text.startswith(phrase, at) and not (phrase[-1].isascii() and text[end : end + 1].isalpha()):
                found.append(phrase)
                at = end
                break
        else:
            return None
    return found


def small_talk(question: str) -> SmallTalk | None:
    """'hi bot!', '你好', 'ok thanks 🙏', '好的' — nothing asked but a greeting, a thank-you or an 'ok'."""
    phrases = _phrases(" ".join(_NOT_WORDS.sub(" ", question).lower().split())) or []
    kinds = {_PHRASES[p] for p in phrases}
    for kind in ("thanks", "greeting", "ack"):
        if kind in kinds:
            return kind  # type: ignore[return-value]
    return None


def small_talk_reply(kind: SmallTalk, titles: list[str], language: str) -> str:
    """What the bot can do, named by the articles it answers about."""
    named = [message("smalltalk.about", language, title=t) for t in titles]
    about = message("list.separator", language).join(named) or message("smalltalk.about.none", language)
    return message(f"smalltalk.{kind}", language, about=about)
