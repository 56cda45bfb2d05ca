"""index/english/lexicon.py: readable Chinese → English words from the tech terms and CC-CEDICT."""

from __future__ import annotations

from index.english.lexicon import build_lexicon, corpus_words, lexicon_for, own_names, readable_gloss
from index.english.render import EnglishUnit, english_line


def test_readable_gloss() -> None:
    assert readable_gloss("fa1 bu4", "to release/to issue/to announce/") == "release"
    assert readable_gloss("Ma3 si1 ke4", "Elon Musk (1971-), business magnate/") == "Elon Musk"
    assert readable_gloss("ge4", "CL:個|个/individual/") == "individual"
    assert readable_gloss("x", "variant of 個|个/") is None
    # the shortest gloss, the first of equally short ones
    assert readable_gloss("fan3 kui4", "to send back information/feedback/") == "feedback"
    assert readable_gloss("xia4 you2", "lower reaches (of a river)/lower level/downstream/") == "downstream"
    assert readable_gloss("na3 li3", "where?/somewhere/") == "where"


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


def test_own_names_are_the_names_a_text_gives_its_terms() -> None:
    texts = [
        "底层其实是用月之暗面（Moonshot）的模型，做了继续预训练（Continued Pretraining）。",
        "• 定向 RL（Directed RL）：只给文本反馈。维基百科（英语：Wikipedia）是一部百科全书。",
        "这是苹果（Apple），那也是苹果（apple pie）。",  # named two ways: neither
        "他说（Hello）",  # a grammar word right before: no term
    ]
    assert own_names(texts) == {
        "月之暗面": "Moonshot",
        "继续预训练": "Continued Pretraining",
        "定向": "Directed",  # RL is said on both sides
        "维基百科": "Wikipedia",
    }


def test_an_own_name_is_rendered_exactly_wherever_the_term_recurs() -> None:
    texts = ["第一步是继续预训练（Continued Pretraining）。", "他们用代码数据做了继续预训练。"]
    lexicon = build_lexicon(corpus_words(texts), own_names(texts))
    assert lexicon.names == {"继续预训练"}
    line = english_line("What was the first stage?", [EnglishUnit(texts[1])], lexicon)
    assert "Continued Pretraining" in line


def test_an_affix_is_no_gloss() -> None:
    from index.english.lexicon import readable_glosses

    assert readable_glosses("zhe3", "(after a verb) one who (is) .../-er/-ist/") == ["one who"]
    assert readable_glosses("ci4", "second/vice-/sub-/") == ["second"]


def test_every_character_of_the_corpus_is_a_word_of_its_own_too() -> None:
    # the English line cuts a word where a count starts (一天 → 1, 天): the character needs its gloss
    words = corpus_words(["栉水母一天可以吃下十倍于自身体重的食物。"])
    assert "天" in words and "食物" in words
    assert build_lexicon(words)["天"]


def test_name_characters_are_those_the_dictionary_mostly_uses_in_names() -> None:
    from index.english.dictionary import name_shares

    shares = name_shares()
    assert shares["尔"] > 0.8 and shares["斯"] > 0.8  # transliteration: 尔 in 达尔文, 斯 in 斯大林
    assert shares["说"] < 0.1 and shares["去"] < 0.1
    lexicon = build_lexicon(corpus_words(["伯吉斯页岩说明了一切。"]))
    assert {"伯", "吉", "斯"} & lexicon.name_characters and not {"说", "明"} & lexicon.name_characters


def test_a_gloss_in_digits_is_no_gloss() -> None:
    # CC-CEDICT glosses 一 "one; 1; single; a (article)": the digit is the number, not the word
    from index.english.lexicon import readable_glosses

    glosses = readable_glosses("yi1", "/one/1/single/a (article)/")
    assert "1" not in glosses and "one" in glosses
