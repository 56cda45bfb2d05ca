"""index/lexicon.py: readable Chinese → English words from the tech terms and CC-CEDICT."""

from __future__ import annotations

from index.lexicon import build_lexicon, corpus_words, lexicon_for, readable_gloss


def test_readable_gloss() -> None:
    assert readable_gloss("fa1 bu4", "to release/to issue/to announce/") == "release"
    assert readable_gloss("Ma3 si1 ke4", "Elon Musk (1971-), business magnate/") == "Elon Musk"
    assert readable_gloss("ge4", "CL:個|个/individual/") == "individual"
    assert readable_gloss("x", "variant of 個|个/") is None


def test_lexicon_from_the_dictionary_and_the_tech_terms() -> None:
    lexicon = build_lexicon({"发布", "价格", "算力", "开源", "马斯克", "Cursor"})
    assert lexicon["发布"] == "release" and lexicon["价格"] == "price"
    assert lexicon["算力"] == "compute"  # a tech term before CC-CEDICT's "hash rate"
    assert lexicon["马斯克"] == "Elon Musk"
    assert "Cursor" not in lexicon  # only Chinese words


def test_lexicon_for_a_version_is_made_once() -> None:
    first = lexicon_for("test-version", ["公司发布了价格。"])
    assert lexicon_for("test-version", ["anything else"]) is first
    assert first["价格"] == "price"
    assert "价格" in corpus_words(["公司发布了价格。"])
