"""index/english/render.py: the English line, from Chinese answer units and a Chinese → English lexicon."""

from __future__ import annotations

import re

from index.english.render import EnglishUnit, english_line, gloss_sentence, key_terms, render_clause

CJK = re.compile(r"[\u3400-\u9fff]")
QUOTED = re.compile(r"“[^”]*”")
LEXICON = {
    "收购": "acquisition", "优先权": "priority", "握有": "hold", "价格": "price", "输入": "input",
    "输出": "output", "发布": "release", "报告": "report", "技术": "technology", "基准测试": "benchmark",
    "对比": "comparison", "行业": "industry", "顶尖": "top", "传闻": "rumor", "属实": "true", "原罪": "original sin",
    "套壳": "wrapper", "透明度": "transparency", "合成数据": "synthetic data", "规模": "scale", "算力": "compute",
    "用": "use", "翻": "grow", "启示": "lesson", "马斯克": "Elon Musk",
}  # fmt: skip


def line(*units: EnglishUnit, question: str = "") -> str:
    text = english_line(question, units, LEXICON)
    assert not CJK.search(QUOTED.sub("", text)), text  # Chinese only as a quoted word the lexicon lacks
    return text


def test_a_sum_with_its_magnitude_and_currency() -> None:
    text = line(EnglishUnit("马斯克握有 600 亿美元收购 Acme 的优先权。", ("五、收购",)))
    assert "US$60 billion" in text and "Acme" in text and "Elon Musk" in text
    assert "$600" not in text.replace("US$60 billion", "")


def test_prices_keep_which_is_which() -> None:
    text = line(EnglishUnit("价格上，每百万 token 输入 15 美元、输出 2.50 美元。"))
    assert "input US$15" in text and "output US$2.50" in text and "1 million token" in text


def test_a_date() -> None:
    assert "March 27, 2026" in line(EnglishUnit("Acme 在 2026 年 3 月 27 日发布技术报告。"))


def test_a_table_row_with_its_header() -> None:
    row = EnglishUnit(
        "SWE-bench Multilingual\t73.7%\t行业顶尖",
        header=("基准测试", "Widget 2.5", "对比"),
        cells=("SWE-bench Multilingual", "73.7%", "行业顶尖"),
    )
    assert line(row) == "SWE-bench Multilingual: Widget 2.5 73.7%, comparison industry top."


def test_a_cell_with_a_parenthesis() -> None:
    row = EnglishUnit("", header=("基准测试", "Widget"), cells=("Bench v3.1", "63.2%（最高 64.8%）"))
    assert "63.2%" in line(row) and "64.8%" in line(row)


def test_a_term_goes_by_the_english_name_the_text_gives_it() -> None:
    text = line(EnglishUnit("• 定向 RL（Directed RL）：合成数据规模翻 25 倍。"))
    assert "Directed RL" in text and "25×" in text and "synthetic data scale" in text


def test_a_plain_clause_the_question_asks_about() -> None:
    unit = EnglishUnit("我先说结论：传闻属实，而且官方压根没打算藏。", ("一、传闻",))
    text = line(unit, question="Is the rumor true?")
    assert "rumor true" in text.lower() and "not" in text  # every clause, the one it asks about too


def test_an_opinion_is_rendered_word_for_word() -> None:
    unit = EnglishUnit("「套壳」不是原罪，「只会套壳」才是，透明度正在变成护城河。", ("四、套壳有问题吗？",))
    text = line(unit, question="Why is a wrapper no sin?")
    assert text.startswith("Wrapper is not original sin, ") and "transparency" in text


def test_a_passage_nothing_of_which_renders_says_what_it_is_about() -> None:
    unit = EnglishUnit("栉水母的名字很长。", ("四、套壳有问题吗？",))
    # a question with no word to answer, a sentence with nothing exact: no word-for-word line
    assert line(unit, question="Why?").startswith("The quoted passage is from section 4;")


def test_a_word_the_lexicon_lacks_stays_as_written_and_the_negation_is_kept() -> None:
    rendered, news = render_clause("Acme 并非占 85% 份额", LEXICON)
    assert rendered == "Acme “并” not “占” 85% “份额”" and news


def test_a_name_the_question_already_says_is_no_answer() -> None:
    _, news = render_clause("Acme 用了算力", LEXICON, frozenset({"acme"}))
    assert not news


def test_the_units_the_question_names_come_first() -> None:
    first = EnglishUnit("Acme 用了 3 万个 GPU。")
    second = EnglishUnit("价格上，输入 15 美元。")
    assert line(first, second, question="What is the input price?").startswith(
        "Price, input US$15; Acme use 30,000 “个” GPU"
    )


def test_key_terms() -> None:
    assert key_terms("马斯克握有优先权，Acme 的传闻", LEXICON) == ["Elon Musk", "hold", "priority", "Acme"]


def test_no_units_no_line() -> None:
    assert english_line("anything?", [], LEXICON) == ""


def test_a_foreign_name_joined_by_an_interpunct_is_rendered_as_a_name() -> None:
    from index.english.render import foreign_names

    people = {"艾萨克": "Isaac", "牛顿": "Newton", "查尔斯": "Charles", "达尔文": "Charles Darwin", "威廉": "William"}
    text = "万有引力理论由艾萨克·牛顿提出，查尔斯•达尔文在后，威廉·某某不详。"
    found = foreign_names(text, people)
    assert [(text[s:e], english) for s, e, english in found] == [
        ("艾萨克·牛顿", "Isaac Newton"),
        ("查尔斯•达尔文", "Charles Darwin"),  # named in full: its last word, not "Charles Charles Darwin"
    ]  # 某某 isn't named by the dictionary: no guess


def test_the_english_line_says_the_foreign_name() -> None:
    from index.english.lexicon import build_lexicon, corpus_words

    text = "万有引力理论由艾萨克·牛顿提出。"
    lexicon = build_lexicon(corpus_words([text]))
    assert lexicon["牛顿"] == "newton" and lexicon.people["牛顿"] == "Newton"  # the unit, and the name
    assert "Isaac Newton" in english_line("Who formed the theory of gravitation?", [EnglishUnit(text)], lexicon)


def test_a_comma_or_colon_inside_a_number_ends_no_clause() -> None:
    from index.english.render import _clauses

    clauses = _clauses("人口约为 2,000 人，在 10:30 开始，然后, 结束")
    assert clauses == ["人口约为 2,000 人", "在 10:30 开始", "然后", "结束"]


def test_the_measure_word_after_a_count_is_the_counts() -> None:
    from index.english.lexicon import build_lexicon, corpus_words

    text = "开幕庆典有 2000 名宾客参加。"
    lexicon = build_lexicon(corpus_words([text]))
    assert "名" in lexicon.measures and "宾客" not in lexicon.measures  # the dictionary's "classifier for"
    line = english_line("How many guests attended?", [EnglishUnit(text)], lexicon)
    assert "2000" in line and "name" not in line.split()


def test_characters_that_spell_a_name_stay_as_written() -> None:
    from index.english.lexicon import Lexicon

    chars = {"伯": "senior", "吉": "lucky", "斯": "this", "天": "day", "吃": "eat"}
    lexicon = Lexicon({**LEXICON, **chars, "页岩": "shale"})
    lexicon.name_characters = frozenset("伯斯")
    text = english_line("How many species?", [EnglishUnit("在伯吉斯页岩发现了 3 个物种。")], lexicon)
    assert "“伯吉斯” shale" in text and "lucky" not in text
    # one character on its own is a word: 天 after the count that took 一
    assert "1 day eat" in english_line("How much?", [EnglishUnit("一天吃 10 倍。")], lexicon)


def test_a_unit_that_does_not_fit_is_said_up_to_a_clause() -> None:
    first = EnglishUnit("Acme 用了 3 万个 GPU，" + "，".join(["算力规模翻 25 倍"] * 8) + "。")
    second = EnglishUnit("输入 15 美元，输出 2.50 美元，" + "，".join(["技术报告 2026 年发布"] * 8) + "。")
    text = line(first, second, question="How much compute?")
    assert len(text) <= 320 and "; input US$15, output US$2.50" in text  # its opening clauses, not nothing


def test_a_numeral_that_starts_a_word_is_the_words() -> None:
    lexicon = {**LEXICON, "一起": "together", "发布": "release"}
    assert render_clause("两家一起发布", lexicon)[0] == "2 “家” together release"  # not "2 “家” 1 “起”"
    assert render_clause("发布了一个模型", lexicon)[0].startswith("release 1")  # a count before its measure word


def test_a_localizer_closing_a_phrase_is_not_glossed() -> None:
    lexicon = {**LEXICON, "实践": "practice", "上": "above", "中": "middle"}
    assert render_clause("在实践中", lexicon)[0] == "in practice"
    assert render_clause("价格上", lexicon)[0] == "price"
    assert render_clause("上", lexicon)[0] == "above"  # alone, it is the word


def test_only_the_closing_localizer_goes() -> None:
    lexicon = {**LEXICON, "实践": "practice", "上": "above", "中": "middle", "山": "mountain"}
    assert render_clause("在山上的实践上", lexicon)[0] == "in mountain above practice"  # the second 上


def test_a_sentence_is_glossed_whole_whatever_it_says() -> None:
    # the English view (english/view.py): no question, nothing new or exact, every clause still said
    text = gloss_sentence("我先说结论：传闻属实，而且官方压根没打算藏。", LEXICON)
    assert text == "“我先说结论”, rumor true, “且官方压根” not “打算藏”"  # words this lexicon lacks as written
    assert gloss_sentence("", LEXICON) == "" and gloss_sentence("。！", LEXICON) == ""


def test_a_bound_or_an_estimate_beside_a_number_goes_before_it_in_english() -> None:
    """九分之一左右 is "about 1/9", 不到 50% "under 50%", 最高 75.6% "up to 75.6%", 两成出头 "over 20%":
    Chinese says them after the number or right before it, English before it, not word by word. The
    English view keeps the glosses the answer model was trained on."""
    text = "销量只有九分之一左右，利用率不到50%，最高 75.6%，占两成出头。"
    lexicon = {**LEXICON, "销量": "sales volume", "利用率": "utilization rate", "占": "take up", "左右": "nearby"}
    said = english_line("", [EnglishUnit(text)], lexicon)
    assert all(words in said for words in ("about 1/9", "under 50%", "up to 75.6%", "over 20%")), said
    assert gloss_sentence(text, lexicon, bounds=True).lower() in said.lower()
    assert "1/9 nearby" in gloss_sentence(text, lexicon)
