"""Greetings and thanks ("hi", "你好", "thanks!"): no question about the article, so no passage is
quoted; the reply says what the bot answers instead of "the article doesn't say". Pure functions.
"""

from __future__ import annotations

import re
from typing import Literal

SmallTalk = Literal["greeting", "thanks", "ack"]

_GREETING = (
    r"hi|hello|hey|heya|yo|hiya|howdy|greetings|good (?:morning|afternoon|evening)|"
    r"你好|您好|嗨|哈喽|哈啰|早上好|早安|下午好|晚上好|在吗|在不在|大家好"
)
_THANKS = r"(?:thanks?|thank you|thx|ty)(?: (?:so|very) much| a lot)?|cheers|谢谢|谢了|多谢|感谢|谢谢你|辛苦了"
_ADDRESS = r"bot|there|everyone|all|机器人|啊|呀|哈|呢|你"
_FILLER = r"ok(?:ay)?|cool|great|nice|got it|好的|好|明白了|懂了|收到"


def _whole(words: str) -> re.Pattern[str]:
    """Only these words, in any number, with the filler and addressing words around them."""
    word = rf"(?:{words})"
    extra = rf"(?:{_FILLER}|{_ADDRESS})"
    return re.compile(rf"(?:{extra}\s*)*{word}(?:\s*(?:{word}|{extra}))*", re.IGNORECASE)


_IS_GREETING = _whole(_GREETING)
_IS_THANKS = _whole(_THANKS)
_IS_ACK = _whole(_FILLER)
_NOT_WORDS = re.compile(r"[^\w\s]+|_")  # punctuation and emoji


def small_talk(question: str) -> SmallTalk | None:
    """'hi bot!', '你好', 'ok thanks 🙏', '好的' — nothing asked but a greeting, a thank-you or an 'ok'."""
    text = " ".join(_NOT_WORDS.sub(" ", question).split())
    if not text:
        return None
    if _IS_THANKS.fullmatch(text):
        return "thanks"
    if _IS_GREETING.fullmatch(text):
        return "greeting"
    if _IS_ACK.fullmatch(text):
        return "ack"
    return None


def small_talk_reply(kind: SmallTalk, titles: list[str], language: str) -> str:
    """What the bot can do, named by the articles it answers about."""
    if language == "zh":
        about = "、".join(f"《{t}》" for t in titles) or "这篇文章"
        opening = {"thanks": "不客气！", "greeting": "你好！", "ack": ""}[kind]
        return f"{opening}我回答关于{about}的问题，并注明出处。试试问：“这篇文章讲了什么？”"
    about = ", ".join(f"“{t}”" for t in titles) or "the article"
    opening = {"thanks": "You're welcome! ", "greeting": "Hi! ", "ack": ""}[kind]
    return (
        f"{opening}I answer questions about {about}, citing where the answer comes from. Try: “summarize the article”."
    )
