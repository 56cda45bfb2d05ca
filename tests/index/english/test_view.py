"""The English view (index/english/view.py): every sentence glossed with its corpus's lexicon."""

from __future__ import annotations

from index.english.view import reads_view, sentence_glosses, view_digest

PASSAGES = ["马斯克的公司和 Cursor 达成了算力合作（Compute Partnership）。价格上涨了三倍。"]


def test_each_sentence_is_glossed_with_the_corpus_lexicon() -> None:
    sentences = ["马斯克的公司和 Cursor 达成了算力合作（Compute Partnership）。", "价格上涨了三倍。"]
    glosses = sentence_glosses(PASSAGES, sentences)
    assert len(glosses) == 2
    # the dictionary's name for 马斯克, the name the text gives its term, a count as a number
    assert glosses == ["Elon Musk company and Cursor accomplish Compute Partnership", "price rise 3×"]


def test_the_digest_changes_with_any_gloss_and_keeps_their_order() -> None:
    one = view_digest(["price rise", "Cursor"])
    assert one == view_digest(["price rise", "Cursor"])
    assert one != view_digest(["Cursor", "price rise"]) and one != view_digest(["price rises", "Cursor"])
    assert view_digest([]) != view_digest([""])


def test_the_digest_covers_what_readers_are_shown_and_stays_without_it() -> None:
    glosses = ["price rise", "Cursor"]
    assert view_digest(glosses, ["", ""]) == view_digest(glosses)  # an index built before keeps its digest
    shown = view_digest(glosses, ["prices rose", ""])
    assert shown != view_digest(glosses) and shown != view_digest(glosses, ["", "prices rose"])


def test_the_view_is_for_questions_not_in_the_corpus_language() -> None:
    assert reads_view("en") and reads_view("ja") and not reads_view("zh")
