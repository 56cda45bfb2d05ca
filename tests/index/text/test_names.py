"""A corpus's subject (index/text/names.py): the names most of its passages write."""

from __future__ import annotations

from index.text.names import subject_names


def test_the_subject_is_the_name_most_passages_write() -> None:
    passages = ["Cursor 发布了 Composer 2。", "Cursor 用了 Kimi K2.5。", "论坛里有人吐槽。", "Cursor 与 Kimi 合作。"]
    assert subject_names(passages) == frozenset({"cursor"})  # 3 of 4; Kimi 2 of 4
    assert subject_names(["the cat sat", "the cat ran"]) == frozenset()  # names are capitalised or hold digits
    assert subject_names(["K2.5 是底座", "用 K2.5 训练"]) == frozenset({"k2.5"})
    assert subject_names([]) == frozenset()


def test_latin_names_are_the_capitalised_words_and_codes_in_lower_case() -> None:
    from index.text.names import latin_names

    assert latin_names("Its best CursorBench v3.1 score is on the table，最高 64.8%") == ["cursorbench", "v3.1"]
    assert latin_names("with a maximum of 75.6%") == []
