"""Questions about the article itself (index/answer/about.py): pure, no index."""

from __future__ import annotations

import pytest

from index.answer.about import is_author_question, is_meta_question, is_overview_question, learned_about

SWE_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"


@pytest.mark.parametrize(
    ("question", "overview", "meta"),
    [
        ("这篇文章讲了什么？", True, False),
        ("总结一下", True, False),
        ("summarize the article", True, False),
        ("What are the main points?", True, False),
        ("tl;dr", True, False),
        ("给我一句话总结这篇文章", True, False),
        ("总结全文", True, False),
        ("Summarize the article in one sentence", True, False),
        ("结语怎么总结 Cursor 的做法", False, False),  # about the conclusion's words on Cursor
        ("这篇文章是谁写的？", False, True),
        ("作者是谁", False, True),
        ("Who wrote this article?", False, True),
        ("When was the article published?", False, True),
        ("What year was the article written?", False, True),
        ("这篇文章是哪年写的", False, True),
        ("文章几月几号发表的？", False, True),
        ("Cursor 是哪一年成立的？", False, False),
        ("What's the headline of this article?", False, True),
        ("Who wrote this piece and when was it published?", False, True),  # two asks, "piece" for the article
        ("Who's the author, and what's the date on it?", False, True),  # the second ask, in other words
        ("who wrote it and when was it dated", False, True),
        ("Who wrote this and what is Muon?", False, False),
        ("When was it published?", False, True),
        ("When was Composer 2.5 published?", False, False),
        ("Who wrote Kimi K2.5?", False, False),
        ("When did it come out?", False, True),
        ("When did Composer 2.5 come out?", False, False),
        ("这篇文章的副标题是什么？", False, True),
        (SWE_ZH, False, False),
        ("Cursor CEO 怎么说的？", False, False),
        ("What did Michael Truell say about the compute?", False, False),
    ],
)
def test_question_kinds(question: str, overview: bool, meta: bool) -> None:
    assert is_overview_question(question) is overview
    assert is_meta_question(question) is meta


TITLE = "Composer 2/2.5 技术拆解与行业启示"


@pytest.mark.parametrize(
    ("question", "meta"),
    [
        ("who wrote this Composer breakdown and when did it come out?", True),  # the title's words name it
        ("Who wrote the Composer 2.5 article?", True),
        ("Who wrote Composer 2.5?", False),  # the model, named without a word for the article
        ("Who wrote Composer 2.5 and when was it published?", False),
        ("这篇 Composer 文章是谁写的？", True),
        ("这篇文章的启示是谁写的？", False),  # a Chinese title's words are content words
    ],
)
def test_meta_question_named_by_its_title(question: str, meta: bool) -> None:
    assert is_meta_question(question, [TITLE]) is meta


@pytest.mark.parametrize(
    ("question", "about_the_author"),
    [
        ("who is kate", True),
        ("介绍一下 Kate", True),
        ("Tell me about Kate.", True),
        ("Kate 对套壳怎么看？", False),  # her view, which the article gives
        ("Who is Michael Truell?", False),
        ("Who is Kate Bush?", False),
    ],
)
def test_author_questions(question: str, about_the_author: bool) -> None:
    assert is_author_question(question, ["Kate", ""]) is about_the_author


@pytest.mark.parametrize(
    ("shares", "question", "routed"),
    [
        ([0.05, 0.05, 0.85, 0.05], "What are the sections of the article?", "overview"),  # an outline: the overview
        ([0.05, 0.9, 0.03, 0.02], "这篇文章想说明什么道理", "overview"),
        ([0.02, 0.03, 0.05, 0.9], "Who put this piece together?", "meta"),
        ([0.1, 0.1, 0.1, 0.7], "Who put this piece together?", None),  # not sure enough
        ([0.9, 0.05, 0.03, 0.02], "What does the article say about the price?", None),  # about what it discusses
        ([0.02, 0.03, 0.05, 0.9], "周杰伦新专辑什么时候发", None),  # no word for the article
    ],
)
def test_the_about_model_routes_only_when_sure_and_the_article_is_named(
    shares: list[float], question: str, routed: str | None
) -> None:
    assert learned_about(shares, ("content", "overview", "outline", "meta"), question) == routed


def test_a_pronoun_after_a_question_about_the_article_names_it() -> None:
    """ "她是哪天发的？" after "这篇文章是谁写的？": 她 is the article's author, as good as a word for it."""
    sure = [0.05, 0.0, 0.0, 0.95]
    kinds = ("content", "overview", "outline", "meta")
    assert learned_about(sure, kinds, "她是哪天发的？") is None
    assert learned_about(sure, kinds, "她是哪天发的？", points_at_article=True) == "meta"
    assert learned_about([0.3, 0.0, 0.0, 0.7], kinds, "她是哪天发的？", points_at_article=True) is None  # not sure
