"""Chinese names by their pinyin (index/english/pinyin.py), as the glossary keys them."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.english.dictionary import build_glossary, translation
from index.english.pinyin import spellings
from index.text.tokens import tokenize


def test_a_name_is_spelled_joined_and_as_surname_and_given_name() -> None:
    assert spellings("海贝") == (("haibei",), ("hai", "bei"))
    assert spellings("张一鸣") == (("zhangyiming",), ("zhang", "yiming"))
    assert spellings("重庆") == (("chongqing",), ("chong", "qing"))  # read in context: not zhongqing
    assert spellings("绿色") == (("luse",), ("lu", "se"))  # ü as English writes it


def test_only_chinese_words_of_two_to_four_characters_with_enough_letters_are_spelled() -> None:
    assert spellings("海") == ()
    assert spellings("阿姨") == ()  # "ayi": too short to tell from something else
    assert spellings("A股") == () and spellings("Cursor") == () and spellings("中华人民共和国") == ()


def test_an_english_question_names_a_chinese_company_by_its_pinyin() -> None:
    vocabulary = {"海贝", "汇通", "退款", "雷军"}
    glossary = build_glossary(vocabulary)
    words = frozenset(vocabulary)
    assert translation(tokenize("How many orders did Haibei's team refund?"), glossary, words)[0] == "海贝"
    assert "汇通" in translation(tokenize("Was Huitong just lucky?"), glossary, words)
    assert "雷军" in translation(tokenize("What did Lei Jun say?"), glossary, words)


def test_a_names_pinyin_comes_beside_its_english_glosses_not_instead() -> None:
    glossary = build_glossary({"理想", "梦想"})
    assert "梦想" in glossary["dream"] and "理想" in glossary["ideal"]
    assert glossary["lixiang"] == ["理想"] and glossary["li xiang"] == ["理想"]


@pytest.mark.model
def test_an_english_asker_finds_the_company_the_article_writes_only_in_chinese(tmp_path: Path) -> None:
    from index.build.builder import build_index
    from index.config import load_settings
    from index.engine import Engine

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = (
        "一次宕机的复盘\n\n"
        "那天上午，云服务商的一个配置文件出错，很多公司的系统同时停了，事后都要人工退款。\n\n"
        "电商平台华联商城停摆了两个小时，事后人工退款的订单有三千多单。\n\n"
        "电商平台海贝优选停摆了四个小时，事后人工退款的订单超过一万二千单。\n\n"
        "外卖平台快达到家停摆了一个小时，事后人工退款的订单不到一千单。"
    )
    (corpus / "outage.txt").write_text(text, encoding="utf-8")
    settings = load_settings(corpus_dir=corpus, index_dir=tmp_path / "index")
    build_index(settings, progress=False)
    engine = Engine(settings)
    result = engine.ask("How many orders did Haibei have to refund by hand?")
    assert not result.abstained
    assert [c.quote for c in result.citations] == ["电商平台海贝优选停摆了四个小时，事后人工退款的订单超过一万二千单。"]
