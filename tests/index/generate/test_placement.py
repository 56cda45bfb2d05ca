from index.generate.placement import given_another, source_numbers

SPLIT = "他说 Kimi 打底，自家额外训练+RL 占了 85% 的总算力。"
PRICE = "价格上，Composer 2.5 Fast 版每百万 token 输入 15 美元、输出 2.50 美元。"
EXAMPLE = "Cursor 不仅告诉它「错了」，还会指出「第 42 行引用了未定义的变量」。"


def test_a_number_knows_what_its_clause_says_it_of_and_the_names_of_the_other_clauses() -> None:
    (share,) = source_numbers(SPLIT)
    assert share.subject == "自家额外训练+RL 占了"
    assert share.others == {"kimi"}


def test_an_enumeration_shares_its_sentences_thing() -> None:
    # 、 lists what one thing has: Composer's input and output prices
    assert all(not n.others for n in source_numbers(PRICE))


def test_a_clause_with_no_noun_of_its_own_is_said_of_the_sentences_thing() -> None:
    (line,) = source_numbers(EXAMPLE)
    assert line.subject == ""  # 还会指出「第: Cursor's, not a thing of its own


def test_a_number_is_given_another_thing_when_the_clause_names_it_and_says_nothing_of_its_own() -> None:
    stated = source_numbers(SPLIT)
    assert given_another(["kimi"], [], stated, lambda subject: False)  # wherever the clause names it
    assert not given_another(["kimi"], ["kimi"], stated, lambda subject: True)  # it says "own training and RL" too
    assert not given_another(["cursor"], ["cursor"], stated, lambda subject: False)
    assert not given_another(["kimi"], ["kimi"], [], lambda subject: False)


TABLE = (
    "基准测试\tComposer 2.5\t对比\n"
    "CursorBench v3.1\t63.2%（最高 64.8%）\tClaude Opus 4.7 水平\n"
    "SWE-bench Verified\t70.2%（最高 75.6%）\t显著提升"
)


def test_a_table_number_is_said_of_its_columns_heading() -> None:
    numbers = source_numbers(TABLE)
    assert [n.mention.quantity.text for n in numbers] == ["63.2%", "64.8%", "70.2%", "75.6%"]
    assert all(n.subject == "Composer 2.5" for n in numbers)
    # the compared model is another column's, in every row: not what the scores are of
    assert all(n.others == {"claude", "opus"} and n.in_table for n in numbers)
    # a compared model named after the number is what the row is compared with, before it what it is of
    assert given_another(["claude"], ["claude"], numbers[:1], lambda subject: False)
    assert not given_another(["claude"], [], numbers[:1], lambda subject: False)
    assert [n.label for n in numbers] == [n.label for n in source_numbers(TABLE.split("\n", 1)[1])]  # rows as before


def test_a_table_without_a_header_row_is_read_row_by_row() -> None:
    rows = TABLE.split("\n", 1)[1]
    assert all(not n.others for n in source_numbers(rows))  # no heading says whose its numbers are
    price = source_numbers(rows + "\n\n" + "价格上，Composer 2.5 每百万 token 输入 15 美元。")[-1]
    assert not price.in_table and price.others == {"cursorbench", "v3.1", "swe", "verified", "claude", "opus"}


def test_a_name_only_another_sentence_of_the_passage_writes_is_another_thing() -> None:
    """3 月 27 日 is the report's: Kimi, named only in the quote after it, is no subject of that date."""
    passage = (
        "Cursor 在 2026 年 3 月 27 日发布的技术报告中写得明明白白：\n『We trained on an open base model, Kimi K2.5.』"
    )
    (date,) = source_numbers(passage)
    assert date.subject.startswith("Cursor") and date.others == {"kimi", "k2.5"}
    assert given_another(["kimi", "k2.5"], [], [date], lambda subject: False)
    assert not given_another(["cursor"], [], [date], lambda subject: True)  # the report's date, said of it


def test_a_blank_line_between_rows_keeps_the_table_and_text_ends_it() -> None:
    spaced = TABLE.replace("\n", "\n\n")
    assert [n.others for n in source_numbers(spaced)] == [n.others for n in source_numbers(TABLE)]
    cut = TABLE.replace("\nCursorBench", "\n这是正文。\nCursorBench")
    assert all(not n.others for n in source_numbers(cut))  # the header is another table's
