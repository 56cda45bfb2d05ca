"""What a decline says (index/answer/decline.py)."""

from __future__ import annotations

from index.answer.decline import decline_text, names, unmentioned
from index.answer.features import Terms


def terms(absent: tuple[str, ...]) -> Terms:
    return Terms((frozenset(["火车"]),), (1.0,), absent, 2, frozenset(), frozenset())


def test_names() -> None:
    assert names("What is the price of Bitcoin and GPT-5 today?") == ["Bitcoin", "GPT-5"]
    assert names("Why is Cursor worth it?") == ["Cursor"]
    assert names("Is it good?") == []


def test_only_names_no_form_of_which_the_corpus_has() -> None:
    question = "What does Bitcoin cost on the Cursor train?"
    assert unmentioned(question, terms(("bitcoin", "cost"))) == ("Bitcoin",)
    assert unmentioned(question, terms(("cost",))) == ()


def test_decline_text() -> None:
    zh = decline_text("zh", ["一、水果", "二、火车 › 票价"], ("Bitcoin",))
    assert zh.startswith("文章没有提到") and "Bitcoin" in zh and "二、火车 › 票价" in zh
    en = decline_text("en", [], ())
    assert en.startswith("The article doesn't say") and "mentions" not in en
