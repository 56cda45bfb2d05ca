"""Questions a server asks itself before it says it is ready, made from the corpus (any corpus): a
Chinese one, its first sentence of some length, and an English one about its most frequent word
the lexicon can say in English. Each takes the whole answer path, so whatever a question makes
lazily exists before the first user's question, and a cold burst doesn't make it many times.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from index.store import StoredIndex
from index.tokenizer import tokenize

MIN_HAN = 8  # a sentence with fewer Chinese characters is a heading or a fragment
_HAN = re.compile(r"[\u3400-\u9fff]")


def warm_questions(stored: StoredIndex, lexicon: Mapping[str, str]) -> list[str]:
    questions = []
    for sentence in stored.sentences:
        text = stored.sentence_text(sentence).strip()
        if len(_HAN.findall(text)) >= MIN_HAN:
            questions.append(text[:120])
            break
    counts = Counter(t for chunk in stored.chunks for t in tokenize(chunk.text) if len(t) > 1 and t in lexicon)
    if counts:
        questions.append(f"What does the article say about {lexicon[counts.most_common(1)[0][0]]}?")
    return questions


__all__ = ["warm_questions"]
