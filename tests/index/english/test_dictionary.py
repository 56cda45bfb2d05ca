"""English → Chinese query expansion from CC-CEDICT (index/english/dictionary.py)."""

from __future__ import annotations

from index.english.dictionary import (
    MAX_TRANSLATIONS,
    build_glossary,
    expand,
    position_forms,
    stem,
    translated_positions,
    translation,
)
from index.text.tokens import tokenize


def test_stem() -> None:
    assert stem("released") == stem("release") == stem("releases")
    assert stem("Prices") == stem("price")


def test_a_plural_snowball_keeps_is_looked_up_as_its_singular() -> None:
    # Snowball leaves an s after a vowel or a vowel-less stem: "GPUs" missed the entry for "GPU"
    assert stem("GPUs") == stem("GPU")
    assert stem("APIs") == stem("API")
    assert stem("LLMs") == stem("LLM")
    assert stem("news") != stem("new")
    glossary = build_glossary({"显卡"})
    assert "显卡" in expand(tokenize("How many GPUs does it have?"), glossary, frozenset({"显卡"}))


def test_glossary_maps_english_to_the_corpus_words() -> None:
    glossary = build_glossary({"价格", "发布", "训练", "成本", "模型", "价"})
    assert "价格" in glossary[stem("price")]
    assert "发布" in glossary[stem("release")]
    assert "训练" in glossary[stem("training")]
    assert "成本" in glossary[stem("cost")]
    words = {w for translations in glossary.values() for w in translations}
    assert words <= {"价格", "发布", "训练", "成本", "模型", "价"}  # only corpus words
    assert all(
        translations[-1] == "价" for translations in glossary.values() if "价" in translations
    )  # a character last
    assert all(len(translations) <= MAX_TRANSLATIONS for translations in glossary.values())


def test_built_index_glossary(built_index) -> None:  # type: ignore[no-untyped-def]
    from index.build.loading import load_current

    glossary = load_current(built_index.index_dir).glossary
    assert "价格" in glossary[stem("price")]
    assert "发布" in glossary[stem("release")]
    assert "成本" in glossary[stem("cost")]
    assert "训练" in glossary[stem("train")]


def test_expand_adds_translations_the_corpus_has() -> None:
    glossary = {stem("price"): ["价格", "价钱"], stem("release"): ["发布"]}
    vocabulary = frozenset({"价格", "发布"})
    tokens = tokenize("What was the price at release of K2.5?")
    expanded = expand(tokens, glossary, vocabulary)
    assert expanded[: len(tokens)] == tokens
    assert expanded[len(tokens) :] == ["价格", "发布"]  # 价钱 is not in the corpus
    assert expand(["价格", "70.2%", "k2.5"], glossary, vocabulary) == ["价格", "70.2%", "k2.5"]
    assert expand(["price", "价格"], glossary, vocabulary) == ["price", "价格"]  # no duplicates


def test_translation_is_the_corpus_words_for_the_english_ones() -> None:
    glossary = {stem("price"): ["价格", "价钱"], stem("release"): ["发布"]}
    vocabulary = frozenset({"价格", "发布"})
    assert translation(tokenize("What was the price at release of K2.5?"), glossary, vocabulary) == ["价格", "发布"]
    assert translation(tokenize("Who is Michael Truell?"), glossary, vocabulary) == []


def test_glossary_is_the_same_whether_words_are_scanned_looked_up_or_remembered(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import index.english.dictionary as crosslingual

    words = {"价格", "发布", "训练", "成本", "模型", "基准测试", "修改", "不存在的词", "价"}
    assert crosslingual._look_up(words) == crosslingual._scan_dictionary(words)
    monkeypatch.setattr(crosslingual, "_translations", {})
    scanned = build_glossary(words)  # nothing remembered: reads the dictionary
    monkeypatch.setattr(crosslingual, "_translations", {})
    monkeypatch.setattr(crosslingual, "MAX_TARGETED_LOOKUPS", 0)
    assert build_glossary(words) == scanned
    monkeypatch.setattr(crosslingual, "MAX_TARGETED_LOOKUPS", 100)
    monkeypatch.setattr(crosslingual, "_translations", {})
    build_glossary(words - {"基准测试", "修改"})
    assert build_glossary(words) == scanned  # two new words looked up one by one
    assert build_glossary(words) == scanned  # all remembered
    assert set(crosslingual._translations) == {w for w in words if len(w) > 1}


def test_two_word_glosses_translate_only_as_a_phrase() -> None:
    glossary = build_glossary({"钢板", "刀工", "价格"})
    assert glossary["steel plate"] == ["钢板"] and glossary["knife work"] == ["刀工"]
    assert stem("steel") not in glossary and stem("plate") not in glossary
    vocabulary = frozenset({"钢板", "刀工", "价格"})
    tokens = tokenize("What's the steel plate vs knife analogy about, and the price?")
    assert translation(tokens, glossary, vocabulary) == ["价格", "钢板"]  # words first, then phrases
    assert translation(tokenize("a plate of steel"), glossary, vocabulary) == []  # not neighbours
    assert {tokens[i] for i in translated_positions(tokens, glossary, vocabulary)} == {"steel", "plate", "price"}


def test_each_position_has_the_corpus_words_that_may_say_it() -> None:
    glossary = build_glossary({"钢板", "刀", "analogy"})
    vocabulary = frozenset({"钢板", "刀", "analogy"})
    tokens = tokenize("steel plate knife analogy")
    forms = position_forms(tokens, glossary, vocabulary)
    assert forms[0] == forms[1] == {"钢板"}  # the phrase says both its words
    assert forms[2] == {"刀"}  # a single character counts here: it must share a passage with the rest
    assert forms[3] == {"analogy"}  # the corpus has the word itself


def test_hyphenated_words_translate() -> None:
    glossary = build_glossary({"细粒", "反馈"})
    assert "细粒" in glossary[stem("fine-grained")]
    tokens = tokenize("Why is fine-grained feedback better?")
    assert translation(tokens, glossary, frozenset({"细粒", "反馈"})) == ["细粒", "反馈"]


def test_a_hyphenated_word_is_its_parts_as_a_phrase_and_covers_them() -> None:
    glossary = build_glossary({"钢板"})
    vocabulary = frozenset({"钢板"})
    tokens = tokenize("In the steel-plate analogy, what matters?")
    assert translation(tokens, glossary, vocabulary) == ["钢板"]
    # the compound and both its parts are known: none of them counts as a word the article lacks
    assert {tokens[i] for i in translated_positions(tokens, glossary, vocabulary)} == {"steel-plate", "steel", "plate"}


def test_an_idiom_opening_with_a_preposition_does_not_translate_its_noun() -> None:
    # CC-CEDICT: 基于 "because of; on the basis of; in view of", 一块 "... together; in company"
    glossary = build_glossary({"基于", "看法", "一块", "公司", "比如"})
    assert "基于" not in glossary.get(stem("view"), []) and "看法" in glossary[stem("view")]
    assert "一块" not in glossary.get(stem("company"), []) and "公司" in glossary[stem("company")]
    assert "比如" in glossary[stem("example")]  # "for example": the noun is meant


def test_a_persons_name_is_keyed_by_each_of_its_words() -> None:
    glossary = build_glossary({"马斯克", "美元"})
    assert glossary["musk"] == glossary["elon"] == ["马斯克"]  # 'Elon Musk (1971-), business magnate…'
    assert "american" not in glossary  # 'American dollar' is not a name
    assert translation(tokenize("Why is Musk endorsing Cursor?"), glossary, frozenset({"马斯克"})) == ["马斯克"]


def test_tech_terms_translate_words_cedict_lacks() -> None:
    vocabulary = {"算力", "开源", "套壳", "护城河", "合作"}
    glossary = build_glossary(vocabulary)
    assert glossary[stem("compute")] == ["算力"]
    assert glossary[stem("wrapper")] == ["套壳"]
    assert glossary[stem("moat")] == ["护城河"]
    assert glossary["open sourc"][0] == "开源" and glossary[stem("open-source")][0] == "开源"
    tokens = tokenize("Did Cursor partner with anyone for compute? Is the model open-source?")
    assert set(translation(tokens, glossary, frozenset(vocabulary))) == {"合作", "算力", "开源"}
    assert translation(tokenize("Is it good value for money?"), build_glossary({"性价比"}), frozenset({"性价比"})) == [
        "性价比"
    ]


def test_a_one_character_tech_term_translates_when_the_corpus_has_it_as_a_word(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # 挖 ("poach" staff) is one character: CC-CEDICT's one-character glosses are too ambiguous to
    # use, a tech term (here a terms file of one line) is taken as it is
    from index.text import tokens

    terms = tmp_path / "tech_terms.tsv"
    terms.write_text("poach\t挖\nheadhunt\t挖\n", encoding="utf-8")
    monkeypatch.setattr(tokens, "terms_path", lambda: terms)
    glossary = build_glossary({"挖", "人"})
    assert glossary[stem("poached")] == ["挖"] and glossary[stem("headhunt")] == ["挖"]
    assert stem("poach") not in build_glossary({"人"})


def test_a_tech_term_stands_for_its_words_only_when_the_corpus_has_them_all() -> None:
    glossary = build_glossary({"强化", "学习", "公司"})
    assert sorted(glossary["reinforc learn"]) == ["学习", "强化"]  # 强化学习 is cut in two
    assert stem("startup") not in glossary  # 创业公司: 创业 is missing, and 公司 alone isn't a startup


def test_tech_terms_file_is_well_formed() -> None:
    from index.english.dictionary import tech_terms

    terms = tech_terms()
    assert len(terms) > 100
    for key, chinese in terms:
        assert 1 <= len(key.split()) <= 2, key  # the glossary keys words and two-word phrases only
        assert chinese and not chinese.isascii(), key


def test_tech_terms_are_read_as_the_file_says_now(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a running bot that rebuilds after an edit gets the edited terms, matching the digest it records
    from index.english import dictionary as crosslingual
    from index.text import tokens as tokenizer

    terms = tmp_path / "tech_terms.tsv"
    monkeypatch.setattr(tokenizer, "terms_path", lambda: terms)
    terms.write_text("# comment\ncompute\t算力\n", encoding="utf-8")
    first = (crosslingual.tech_terms(), tokenizer.terms_digest())
    terms.write_text("compute\t算力\nmoat\t护城河\n", encoding="utf-8")
    assert crosslingual.tech_terms() == ((stem("compute"), "算力"), (stem("moat"), "护城河"))
    assert first == (((stem("compute"), "算力"),), first[1]) and tokenizer.terms_digest() != first[1]


def test_a_lone_character_translates_by_its_first_sense_after_every_word() -> None:
    glossary = build_glossary({"刀", "锅", "比", "刀工", "的"})
    assert glossary[stem("knife")] == ["刀"]  # 刀工 is "cutting skills", not a knife
    assert glossary[stem("pot")] == ["锅"]
    assert "belgium" not in glossary  # 比's first entry is the proper noun's: skipped for 比 "to compare"
    assert "的" not in {w for words in glossary.values() for w in words}  # its first sense is a function word


def test_a_lone_character_does_not_show_the_article_covers_a_word() -> None:
    glossary = {stem("good"): ["好"], stem("price"): ["价格"]}
    tokens = ["good", "price"]
    assert translated_positions(tokens, glossary, frozenset({"好", "价格"})) == {0, 1}
    assert translated_positions(tokens, glossary, frozenset({"好", "价格"}), whole_words=True) == {1}


def test_dictionary_entries_are_remembered_and_only_new_words_looked_up(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import index.english.dictionary as crosslingual

    monkeypatch.setattr(crosslingual, "_entries", {})
    first = crosslingual.dictionary_entries({"价格", "不存在的词"})
    assert first["价格"] and first["不存在的词"] == []
    asked: list[set[str]] = []
    look_up = crosslingual._look_up_entries
    monkeypatch.setattr(crosslingual, "_look_up_entries", lambda words: asked.append(words) or look_up(words))
    again = crosslingual.dictionary_entries({"价格", "发布"})
    assert asked == [{"发布"}] and again["价格"] == first["价格"] and again["发布"]
    assert crosslingual.dictionary_entries(set()) == {}
