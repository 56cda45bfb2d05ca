"""The corpus's English view: every sentence's English — its verified rendering by a language model
where `python -m index enrich` made one (index/english/renderings.py), else its word-for-word gloss
(english.gloss_sentence) — embedded by the index's own embedder at build time.

An English question meets the Chinese sentences through e5's cross-lingual vectors, which tell the
sentence that answers it from its neighbours less well than they do for a Chinese question. The
same question against the sentences' English glosses is an English-to-English comparison: its
cosine is a feature of the scorer and the gate (answer/features.py), read at no cost per
question (one product with vectors stored with the index). On XQuAD's training articles the best
candidate by this cosine held the answer more often than the best by the cross-lingual one (0.71
against 0.66), and its maximum told a question whose paragraph is missing from one the corpus
answers better (AUC 0.89 against 0.81).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from index.english.lexicon import build_lexicon, corpus_words, own_names
from index.english.render import gloss_sentence
from index.english.renderings import sentence_key, target_language

ENGLISH_VIEW_FORMAT = 1  # a change to how sentences are glossed makes the index stale


def reads_view(language: str) -> bool:
    """Whether a question in ``language`` is compared with the view: not one in the corpus's own
    language, whose cosine with a Chinese sentence says more. Out of fold, the view's features given
    to Chinese questions too made the gate decline fewer of XQuAD's near-topic ones (0.669 → 0.613)
    and chose the answer less often (0.813 → 0.800); alone, a Chinese question's gloss ranking put
    the answer first for 0.462 of them (its dense ranking 0.956)."""
    return language != "zh"


def sentence_glosses(passages: Sequence[str], sentences: Sequence[str]) -> list[str]:
    """Each of ``sentences`` glossed with the lexicon of the corpus whose passages are ``passages``
    (the one the English line uses: lexicon.lexicon_for)."""
    lexicon = build_lexicon(corpus_words(passages), own_names(passages))
    return [gloss_sentence(text, lexicon) for text in sentences]


def english_texts(
    passages: Sequence[str], sentences: Sequence[str], rendered: Mapping[str, str]
) -> tuple[list[str], list[bool]]:
    """Each sentence's English and whether it is a rendering: ``rendered`` (sentence key → verified
    English rendering) where it has the sentence, else the gloss."""
    texts, flags = [], []
    for sentence, gloss in zip(sentences, sentence_glosses(passages, sentences), strict=True):
        rendering = rendered.get(sentence_key(sentence))
        texts.append(rendering or gloss)
        flags.append(rendering is not None)
    return texts, flags


def shown_texts(sentences: Sequence[str], rendered: Mapping[str, str], newest: Mapping[str, str]) -> list[str]:
    """Each sentence's English for a reader where it isn't the view's (``rendered``): the ``newest``
    method's verified rendering (renderings.view_and_shown), else ''."""
    found = []
    for sentence in sentences:
        key = sentence_key(sentence)
        text = newest.get(key, "")
        found.append("" if text == rendered.get(key) else text)
    return found


def unrendered(sentences: Sequence[str], missing: Sequence[bool], document_language: str = "zh") -> int:
    """How many of the sentences that want an English rendering (Chinese ones) are ``missing`` one."""
    wanted = (target_language(s, document_language) == "en" for s in sentences)
    return sum(1 for want, lacks in zip(wanted, missing, strict=True) if want and lacks)


def view_digest(glosses: Sequence[str], shown: Sequence[str] = ()) -> str:
    """What the stored view was made from: a build whose glosses differ embeds the changed ones; one
    whose English for readers (``shown``: '' where it is the view's) differs stores it."""
    digest = hashlib.sha256(f"{ENGLISH_VIEW_FORMAT}\n".encode())
    for gloss in glosses:
        digest.update(gloss.encode() + b"\n")
    if any(shown):  # a view with nothing of its own to show keeps the digest it had
        for text in shown:
            digest.update(b"shown\n" + text.encode() + b"\n")
    return digest.hexdigest()
