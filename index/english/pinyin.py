"""How an English writer spells a Chinese name: its pinyin without tones, as one word ("Haibei" for
海贝) or as a surname and a given name ("Lei Jun" for 雷军). An English question about a Chinese
article names the companies and people the article writes only in Chinese this way, and no dictionary
lists a company founded last year; the glossary (english/dictionary.py) keys the corpus's words by
these spellings too, below every English gloss.
"""

from __future__ import annotations

import re
from functools import lru_cache

_HAN_WORD = re.compile(r"[\u4e00-\u9fff]{2,4}")
SHORTEST = 4  # letters: a shorter spelling ("ayi") is more often something else


@lru_cache(maxsize=1)
def _pinyin():  # type: ignore[no-untyped-def]
    from pypinyin import Style, lazy_pinyin

    return lambda word: lazy_pinyin(word, style=Style.NORMAL, v_to_u=True, errors="ignore")


@lru_cache(maxsize=65536)
def spellings(word: str) -> tuple[tuple[str, ...], ...]:
    """The English spellings of a Chinese word of two to four characters, each as its words: the
    syllables joined ("haibei"), and for a word of two or three characters also a surname apart from
    its given name ("lei", "jun"). Nothing for another word; remembered, as a rebuild asks again."""
    if not _HAN_WORD.fullmatch(word):
        return ()
    syllables = [s.replace("ü", "u") for s in _pinyin()(word)]
    if len(syllables) != len(word) or not all(s.isascii() and s.isalpha() for s in syllables):
        return ()
    joined = "".join(syllables)
    if len(joined) < SHORTEST:
        return ()
    if len(word) > 3:
        return ((joined,),)
    return (joined,), (syllables[0], "".join(syllables[1:]))
