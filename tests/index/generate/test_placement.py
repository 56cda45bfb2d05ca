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
    assert given_another(["kimi"], stated, lambda subject: False)
    assert not given_another(["kimi"], stated, lambda subject: True)  # it says "own training and RL" too
    assert not given_another(["cursor"], stated, lambda subject: False)
    assert not given_another(["kimi"], [], lambda subject: False)
