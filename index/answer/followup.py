"""Which questions of a conversation lean on the one before. Pure functions over a question and its
tokens (index.text.tokens.tokenize).

"那价格呢？", "what about output?", "他挖走了谁？" and "why?" lean on the conversation: they are searched,
answered and judged with the earlier question. "Composer 2.5 多少钱" asked in the same thread has a
subject of its own and is asked afresh: steered by an unrelated earlier question, standalone dev
questions lost 16 of 89 first passages.
"""

from __future__ import annotations

import re

# Words of a follow-up that asks for more of the same ("详细说说", "why?", "more details please"),
# as tokenize() leaves them ("more", "please", 呢 are stopwords; 详细点 is 详细 + 点): no subject at all.
_MORE = frozenset(
    (
        "detail", "details", "detailed", "elaborate", "expand", "continue", "go", "further", "example", "examples",
        "else", "详细", "展开", "讲讲", "继续", "还有", "多", "点", "再说", "举例", "举个", "例子", "为啥", "咋",
        "然后", "接着", "细说", "解释",
    )
)  # fmt: skip
# It goes on from the question before: an opening "and / what about / 那" (not the 那 of 那个), or a closing 呢 ...
_GOES_ON = re.compile(
    r"^\s*(?:(?:and|so|also|then|what about|how about)\b|那么?(?![个些种样])|还有|另外|然后)|呢\s*[?？!！。.]*\s*$",
    re.IGNORECASE,
)
# ... or it names what was asked by a pronoun: then the earlier question is its subject
_PRONOUN = re.compile(
    r"\b(?:it|its|they|them|their|he|him|his|she|her)\b|[他她它](?:们)?|这个|那个|这些|那些|这说明|这意味着",
    re.IGNORECASE,
)
_DEMONSTRATIVE = re.compile(r"\b(?:that|those)\b|这种|那种|这样的|那样的", re.IGNORECASE)
_FEW_TOKENS = 1  # "multilingual?", "价格": a word or none says what it is about only with the question before
# ... unless the question asks what that word is and it is a name: "Muon 是什么？", "What is HSDP?" have a
# subject of their own; "目的是什么" (whose purpose?) still leans on the question before
_DEFINES = re.compile(
    r"(?:是什么|是啥|是谁|什么意思|啥意思|指什么)(?:意思)?\s*[?？!！。.]*\s*$"
    r"|^\s*(?:what|who)(?:\s+(?:is|are|was|were)|'s)\b|^\s*what\s+does\b.*\bmean\b|^\s*(?:define|tell me about)\b",
    re.IGNORECASE,
)


def asks_only_for_more(tokens: list[str]) -> bool:
    """Nothing but "tell me more" / "why?" / "详细说说" (possibly no tokens at all)."""
    return all(t in _MORE for t in tokens)


def leans_on_context(question: str, tokens: list[str], demonstratives: bool = False) -> bool:
    """The question needs the one before to be understood: it goes on from it, names it by a
    pronoun, or is a word or none (and doesn't ask what that word is)."""
    words = _words(tokens)
    bare = len(words) <= _FEW_TOKENS and not (words and _DEFINES.search(question) and _is_name(words[0], question))
    return bare or bool(_GOES_ON.search(question)) or refers_back(question, demonstratives)


def refers_back(question: str, demonstratives: bool = False) -> bool:
    """'他挖走了谁？', 'how does it help?': its subject is the question before, so it is judged with it
    even when its own words aren't the article's. ``demonstratives``: English "that" / "those" count too
    and 这种 / 那种 (as often a relative "that", or a kind of its own, as a pointer: only for a question its own
    words don't answer)."""
    return bool(_PRONOUN.search(question) or (demonstratives and _DEMONSTRATIVE.search(question)))


def _is_name(token: str, question: str) -> bool:
    """The token is written in the question as a name: capitalised, or with a digit (Muon, HSDP, K2.5)."""
    return any(
        any(c.isupper() or c.isdigit() for c in m.group(0))
        for m in re.finditer(re.escape(token), question, re.IGNORECASE)
    )


def _words(tokens: list[str]) -> list[str]:
    """The tokens that can say what a question is about: 跟, 比 in "跟谁比？" say nothing of a subject."""
    return [t for t in tokens if len(t) > 1]


# 这个 / 那个 / 这些 / 那些 before a noun: "这个价格" (the one just asked of) or "论坛那个帖子" (one of the article's)
_DETERMINERS = frozenset(("这个", "那个", "这些", "那些"))
_DETERMINER = re.compile("(?:" + "|".join(sorted(_DETERMINERS)) + r")(?=[\u3400-\u9fff])")


def points_by_determiner(question: str, tokens: list[str]) -> bool:
    """The question leans on the one before only by a determiner before a noun, which may as well
    point at a thing of the article: it has words of its own and no pronoun or opening that goes on."""
    pointers = _PRONOUN.findall(question)
    return (
        bool(pointers)
        and all(p in _DETERMINERS for p in pointers)
        and bool(_DETERMINER.search(question))
        and not _GOES_ON.search(question)
        and len(_words(tokens)) > _FEW_TOKENS
    )


def own_words_held(tokens: list[str], texts: list[str]) -> float:
    """The share of a question's words (the determiners aside) that ``texts`` (an answer's cited
    passages) hold."""
    words = [t.lower() for t in _words(tokens) if t not in _DETERMINERS]
    held = " ".join(texts).lower()
    return sum(w in held for w in words) / len(words) if words else 0.0


def points_back(question: str) -> bool:
    """It says "that" / "those" (which may point at the question before, or be a relative "that"), or
    这种 / 那种 / 这样的 ("this kind of": the kind the answer before spoke of, or one of its own)."""
    return bool(_DEMONSTRATIVE.search(question))
