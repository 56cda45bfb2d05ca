"""Questions a server asks itself before it says it is ready, made from the corpus (any corpus): a
Chinese one, its first sentence of some length, and an English one about its most frequent word
the lexicon can say in English. Each takes the whole answer path, so whatever a question makes
lazily exists before the first user's question, and a cold burst doesn't make it many times.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from index.build.lexical import LexicalIndex
from index.build.store import StoredIndex

MIN_HAN = 8  # a sentence with fewer Chinese characters is a heading or a fragment
_HAN = re.compile(r"[\u3400-\u9fff]")


def warm_questions(stored: StoredIndex, lexicon: Mapping[str, str], lexical: LexicalIndex) -> list[str]:
    """``lexical``: the index's BM25, whose vocabulary and document frequencies say which word is
    most frequent (the corpus is not tokenized again)."""
    questions = []
    for sentence in stored.sentences:
        text = stored.sentence_text(sentence).strip()
        if len(_HAN.findall(text)) >= MIN_HAN:
            questions.append(text[:120])
            break
    words = sorted(w for w in lexical.vocabulary if len(w) > 1 and w in lexicon)  # sorted: ties alike every run
    if words:
        word = max(words, key=lexical.document_frequency)
        questions.append(f"What does the article say about {lexicon[word]}?")
    return questions


__all__ = ["warm_questions"]
