"""index/generate/cut.py: how an answer and a passage are cut for the grounding check."""

from __future__ import annotations

from index.generate.cut import cited_numbers, sentences, source_sentences, unmarked, written


def test_sentences_keep_their_markers() -> None:
    assert sentences("One fact [1]. Two facts. [2][3] Three") == ["One fact [1].", "Two facts. [2][3]", "Three"]
    assert cited_numbers("Two facts. [2][3]") == [2, 3]
    assert unmarked("Two facts [2][3].", "") == "Two facts ."


def test_a_table_row_is_read_with_its_header_row() -> None:
    table = "基准测试\tComposer 2.5\nSWE-bench Verified\t70.2%\n\n价格上，输入 15 美元。输出 2.50 美元。"
    assert source_sentences(table) == [
        "基准测试\tComposer 2.5",
        "基准测试\tComposer 2.5\nSWE-bench Verified\t70.2%",
        "价格上，输入 15 美元。",
        "输出 2.50 美元。",
    ]


def test_numbers_in_words_or_chinese_numerals_are_read_in_digits() -> None:
    assert written("于五月十八日发布，得分 seventy point two percent") == "于 5 月 18 日 发布，得分 70.2 percent"
    assert written("5 月 18 日发布") == "5 月 18 日发布"
