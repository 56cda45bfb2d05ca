"""Question clean-up, validation and language detection (index/text/language.py)."""

from __future__ import annotations

import pytest

from index.text.language import (
    MAX_QUESTION_CHARS,
    QuestionError,
    asked_language,
    clean_question,
    detect_language,
    truecase,
    validate_question,
    without_attribution,
)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("```\n价格是多少？\n```", "价格是多少？"),
        ("```text\nWhat is the price?\n```", "What is the price?"),
        ("**价格** 是 __多少__ ~~吗~~ ||剧透|| `code`", "价格 是 多少 吗 剧透 code"),
        ("# 标题\n> 引用\n- 列表项", "标题 引用 列表项"),
        ("在 _SWE-bench Verified_ 上 *多少*分？", "在 SWE-bench Verified 上 多少分？"),  # italics
        ("snake_case_name, 2*3*4 and a * b", "snake_case_name, 2*3*4 and a * b"),  # no italics
        ("[the article](https://example.com/a) says", "the article says"),
        ("价\u200b格\u200c是\u200d多\u2060少\ufeff？\u00ad", "价格是多少？"),
        ("price\x00 of\x07 it\tnow\r\nok", "price of it now ok"),
        ("  lots   of\n\n spaces  ", "lots of spaces"),
        # lone surrogates: a command line's undecodable bytes (PEP 383), JSON's "\ud800" escapes
        ("Cursor \udcff\udcfe 是什么", "Cursor 是什么"),
        ("price \ud83d of it", "price of it"),
    ],
)
def test_clean_question(raw: str, clean: str) -> None:
    assert clean_question(raw) == clean


def test_clean_question_leaves_discord_syntax_to_the_bot() -> None:
    # mentions and custom emoji are removed by bot/discord_text.py; to the index they are text
    assert clean_question("<@123> 价格 <:pepe:1>") == "<@123> 价格 <:pepe:1>"


def test_clean_question_keeps_numbers_and_names() -> None:
    question = "Composer 2.5 在 SWE-bench Verified 上是 70.2% 吗？成本 1/10，H100、K2.5"
    assert clean_question(question) == question


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("\u200b\u200b", "empty"),
        ("```\n```", "empty"),
        ("🙂🙂👍", "no words"),
        ("？？！！……", "no words"),
        ("!!! ??? ...", "no words"),
        ("x" * 20_000, "too long"),
        ("问" * (MAX_QUESTION_CHARS + 1), "too long"),
    ],
)
def test_validate_question_rejects(raw: str, message: str) -> None:
    with pytest.raises(QuestionError, match=message) as caught:
        validate_question(raw)
    assert "\n" not in str(caught.value)


def test_validate_question_accepts_and_cleans() -> None:
    assert validate_question("> **价格** 是多少？") == "价格 是多少？"
    assert validate_question("问" * MAX_QUESTION_CHARS) == "问" * MAX_QUESTION_CHARS
    assert validate_question("K2.5?") == "K2.5?"
    assert validate_question("Почему?") == "Почему?"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("这篇文章讲了什么？", "zh"),
        ("Composer 2.5 在 SWE-bench 上的成绩", "zh"),
        ("What is Composer 2.5's SWE-bench Verified score?", "en"),
        ("What does 套壳 mean?", "en"),  # English, quoting a Chinese term
        ("Cursor CEO Michael Truell 是谁", "zh"),  # Chinese, with names
        ("这篇文章的 takeaway 是什么", "zh"),
        ("Quel est le score de Composer 2.5 ?", "en"),
        ("Composer 2.5 の SWE-bench のスコアは？", "ja"),
        ("漢字とかな", "ja"),
        ("컴포저의 점수는 무엇입니까?", "ko"),
        ("70.2%", "en"),
    ],
)
def test_detect_language(text: str, language: str) -> None:
    assert detect_language(text) == language


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ('"机会是留给有准备的人，不是留给等待的人" - what is the author getting at?', "en"),
        ("Why does the author say “这意味着什么”?", "en"),
        ("『Composer 2 being KimiK2.5++ is fine, lack of transparency is not』这句话是谁说的？", "zh"),
        ("「用底座造产品」是什么意思？", "zh"),
        ("What does 套壳 mean?", "en"),
        ("「套壳」", "zh"),  # nothing outside the quote: the quote's language
    ],
)
def test_a_question_is_asked_in_the_language_of_its_words_outside_quotes(question: str, language: str) -> None:
    """What a question quotes is the article's; the words around it are the asker's."""
    assert asked_language(question) == language


def test_truecase_writes_lower_case_words_as_the_corpus_does() -> None:
    forms = {"cursor": "Cursor", "spacex": "SpaceX", "swe-bench": "SWE-bench"}.get
    assert truecase("为啥说cursor是大方承认", forms) == "为啥说Cursor是大方承认"
    assert truecase("spacex ai跟cursor是啥关系", forms) == "SpaceX ai跟Cursor是啥关系"  # "ai": no form known
    assert truecase("swe-bench 成绩", forms) == "SWE-bench 成绩"
    assert truecase("CURSOR 和 Cursor", forms) == "CURSOR 和 Cursor"  # written with capitals: left alone
    asked: list[str] = []
    truecase("cursor cursor kimi cursor", lambda w: asked.append(w) or None)
    assert asked == ["cursor", "kimi"]  # once per distinct word


@pytest.mark.parametrize(
    ("question", "read"),
    [
        (
            "Is using an open-source base model standard practice according to the article?",
            "Is using an open-source base model standard practice ?",
        ),
        (
            "why does pinpointing the exact mistake help the model, per the article?",
            "why does pinpointing the exact mistake help the model, ?",
        ),
        (
            "Which training stage does the author say Cursor really poured its effort into?",
            "Which training stage Cursor really poured its effort into?",
        ),
        ("so is wrapping bad in the author's view?", "so is wrapping bad ?"),
        # the author's analogy is what is asked about
        ("In the author's steel-plate analogy, what matters?", "In the author's steel-plate analogy, what matters?"),
        ("Which open models does the article mention?", "Which open models ?"),
        # asking for the view itself: the attribution is what is asked
        (
            "What is the author's view on wrapping an open model?",
            "What is the author's view on wrapping an open model?",
        ),
        ("Who is the author?", "Who is the author?"),
        ("According to the article", "According to the article"),  # nothing else would be left
    ],
)
def test_without_attribution(question: str, read: str) -> None:
    assert without_attribution(question) == read
