"""Which questions of a conversation lean on the one before (index/answer/followup.py), and how the engine
answers them: a follow-up with the question before, a question with its own subject afresh."""

from __future__ import annotations

import pytest

from index.answer.compose import MAX_ANSWER_CHARS, widen
from index.answer.followup import (
    asks_only_for_more,
    leans_on_context,
    own_words_held,
    points_back,
    points_by_determiner,
    refers_back,
)
from index.text.tokens import tokenize
from tests.index.test_answers import SWE_ZH, check_citations


@pytest.mark.parametrize(
    ("question", "leans"),
    [
        ("那价格呢？", True),
        ("what about output?", True),
        ("and on CursorBench?", True),
        ("他挖走了谁？", True),
        ("how does it help?", True),
        ("Multilingual?", True),
        ("详细说说", True),
        ("跟谁比", True),  # 跟 and 比 are words, but one character each: no subject
        ("Composer 2.5 在 SWE-bench Verified 上的成绩是多少？", False),
        ("What is Composer 2.5's input price?", False),
        ("马斯克为什么站台", False),
        # one word, but a question about what that name is: its own subject
        ("Muon 是什么？", False),
        ("What is HSDP?", False),
        ("K2.5 是什么", False),
        ("目的是什么", True),  # whose purpose? not a name
        ("what's the price?", True),
        ("那 Muon 是什么？", True),  # 那 goes on from the question before
    ],
)
def test_leans_on_context(question: str, leans: bool) -> None:
    assert leans_on_context(question, tokenize(question)) is leans


@pytest.mark.parametrize(
    ("question", "back"),
    [
        ("他挖走了谁？", True),
        ("how does it help?", True),
        ("这说明了什么", True),
        ("那价格呢？", False),
        ("Who is Kate?", False),
    ],
)
def test_refers_back(question: str, back: bool) -> None:
    assert refers_back(question) is back


def test_that_points_back_only_when_asked_to() -> None:
    """A relative "that" is as common as a pointing one: "that" counts only for a question its own
    words don't answer (the engine asks it again so)."""
    assert points_back("Was the poster upset about that?") and points_back("Those numbers, where are they from?")
    assert not refers_back("What's the model that Cursor used?")
    assert refers_back("What's the model that Cursor used?", demonstratives=True)
    assert points_back("作者怎么看这种做法？") and not refers_back("作者怎么看这种做法？")
    assert not points_back("这个呢") and not refers_back("What is this?", demonstratives=True)


@pytest.mark.parametrize(
    ("question", "determiner"),
    [
        ("那个论坛帖子为什么批评 Cursor？", True),
        ("作者觉得这个价格怎么样？", False),  # 价格 its only word: no subject of its own
        ("那这个价格呢？", False),  # goes on from the question before
        ("他觉得这个价格怎么样？", False),  # a pronoun points back too
        ("这个呢？", False),  # no words of its own
        ("Why does that matter?", False),
    ],
)
def test_points_by_determiner(question: str, determiner: bool) -> None:
    assert points_by_determiner(question, tokenize(question)) == determiner


def test_own_words_held_reads_the_questions_words_in_the_quotes() -> None:
    tokens = tokenize("那个论坛帖子为什么批评 Cursor？")
    assert own_words_held(tokens, ["Cursor 论坛里有个帖子标题很有意思："]) > own_words_held(
        tokens, ["SWE-bench Verified 70.2%"]
    )
    assert own_words_held([], ["任何"]) == 0.0


def test_a_follow_up_by_a_determiner_keeps_the_question_before_when_alone_it_says_less(engine) -> None:  # type: ignore[no-untyped-def]
    result = engine.ask("作者觉得这个价格怎么样？", context="Composer 2.5 Fast 版每百万 token 输入多少钱？")
    assert not result.abstained and "性价比" in result.answer, result.answer


@pytest.mark.parametrize(
    ("question", "more"),
    [
        ("详细说说", True),
        ("多说点", True),
        ("tell me more", True),
        ("more details please", True),
        ("can you elaborate?", True),
        ("举个例子", True),
        ("then what?", True),
        ("第三点呢", False),
        ("what about the weather?", False),
        ("那价格呢？", False),
    ],
)
def test_asks_only_for_more(question: str, more: bool) -> None:
    assert asks_only_for_more(tokenize(question)) is more


@pytest.mark.parametrize(
    ("context", "follow_up", "says"),
    [
        # asking only for more: answered as the question before ("详细说说" alone is declined)
        ("马斯克为什么站台？", "详细说说", "收购"),
        ("What is HSDP?", "tell me more", "HSDP"),
        ("定向 RL 是什么？", "举个例子", "第 42 行"),
        ("Composer 2.5 在 SWE-bench Verified 上的成绩是多少？", "那 Multilingual 呢？", "73.7%"),
        ("How much does Composer 2.5 Fast cost for input?", "what about output?", "2.50 美元"),
        ("马斯克为什么给 Cursor 站台？", "他挖走了谁？", "Arvid Lunnemark"),  # declined before: judged alone
        ("What is directed RL?", "how does it help?", "文本反馈"),
        ("Cursor 的 RL 做了哪三件事？", "第一件具体是什么", "定向 RL"),
        # judged with the question before, but its names are its own: "What" opens it, it names nothing
        ("Give me the three lessons", "What's the 2nd lesson for the industry?", "垂直场景"),
    ],
)
def test_a_follow_up_is_answered_with_the_question_before(  # type: ignore[no-untyped-def]
    engine, context: str, follow_up: str, says: str
) -> None:
    result = engine.ask(follow_up, context=context)
    assert not result.abstained and says in result.answer, result.answer
    assert result.question == follow_up and result.language == ("zh" if follow_up[0] > "~" else "en")
    check_citations(result, engine)


def test_asking_for_more_continues_the_latest_question_with_a_subject(engine) -> None:  # type: ignore[no-untyped-def]
    """The bot's context is the thread's earlier questions, oldest first: "还有呢" after "那价格呢？"
    (itself a follow-up of the SWE-bench question) is about the price, and after a "详细说说" too:
    the price answer, widened with more of its passage."""
    price = engine.ask("那价格呢？", context=SWE_ZH)
    said = price.answer.removeprefix("根据文章：").rsplit(" [", 1)[0]
    for context in (f"{SWE_ZH}\n那价格呢？", f"{SWE_ZH}\n那价格呢？\n详细说说", f"{SWE_ZH}\n👍\n那价格呢？"):
        result = engine.ask("还有呢", context=context)
        assert not result.abstained and said in result.answer and len(result.answer) > len(price.answer)
        assert [c.chunk_id for c in result.citations] == [c.chunk_id for c in price.citations]
        check_citations(result, engine)


def test_widen_adds_the_nearest_sentences_of_the_passage_that_fit(engine) -> None:  # type: ignore[no-untyped-def]
    stored = engine.snapshot.stored
    best = next(i for i, s in enumerate(stored.sentences) if stored.sentence_text(s).startswith("这种级别的站台"))
    wider = widen(stored, [best])
    assert best in wider and wider == list(range(wider[0], wider[-1] + 1)) and len(wider) > 1
    assert {stored.sentences[i].chunk for i in wider} == {stored.sentences[best].chunk}
    assert sum(len(stored.sentence_text(stored.sentences[i])) for i in wider) <= MAX_ANSWER_CHARS
    assert widen(stored, [best], limit=10) == [best]  # nothing more fits
    lead = best + 1
    assert stored.sentence_text(stored.sentences[lead]) == "背后的关系很复杂："
    room = sum(len(stored.sentence_text(stored.sentences[i])) for i in (best, lead))
    assert widen(stored, [best], limit=room) == [best]  # not ended on a lead-in without its list


@pytest.mark.parametrize(
    ("context", "question"),
    [
        ("马斯克为什么站台？", "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"),
        ("What is directed RL?", "What is Composer 2.5's CursorBench score?"),
        ("行业启示第一条是啥", "马斯克握有多少钱的收购优先权？"),
        ("What does 套壳 mean?", "Muon 是什么？"),  # was steered to a 套壳 sentence (found in `make chat`)
        # a question about the article itself gives no subject, even to a pronoun (found in `make chat`)
        ("Who wrote this piece and when was it published?", "what optimizations did they use (optimizer, sharding)"),
        ("这篇文章讲了什么？", "他们用了什么优化器？"),
        # 那个 before a thing of the article: asked alone, its answer holds more of its own words
        (SWE_ZH, "那个论坛帖子为什么批评 Cursor？"),
    ],
)
def test_a_question_with_its_own_subject_is_asked_afresh(engine, context: str, question: str) -> None:  # type: ignore[no-untyped-def]
    """In a thread, an unrelated earlier question used to steer the search: standalone dev questions
    lost 16 of 89 first passages that way."""
    alone, in_thread = engine.ask(question), engine.ask(question, context=context)
    assert in_thread.answer == alone.answer and in_thread.citations == alone.citations


@pytest.mark.parametrize(
    ("context", "follow_up"),
    [
        ("马斯克为什么站台", "那明天天气呢？"),
        ("What is directed RL?", "and what's the weather in Paris?"),
        ("Composer 2.5 多少钱", "那比特币呢？"),  # asked afresh: 比特币 is in no passage
    ],
)
def test_a_follow_up_to_something_the_article_lacks_is_declined(engine, context: str, follow_up: str) -> None:  # type: ignore[no-untyped-def]
    """Declined, or at least answered saying it may not be the answer: the gates' thresholds are
    learned, and a question near one (比特币 alone) may pass it by less than the hedge margin."""
    result = engine.ask(follow_up, context=context)
    assert result.abstained or result.hedged


def test_a_follow_up_saying_that_is_asked_with_the_question_before_when_alone_it_is_declined(engine) -> None:  # type: ignore[no-untyped-def]
    question, context = (
        "How does the writer describe that sort of backing?",
        ["What did Musk post on X on release day?"],
    )
    assert engine.ask(question).abstained  # its own words aren't the article's
    in_thread = engine.ask(question, context=context)
    assert not in_thread.abstained and in_thread.citations[0].section.startswith("五、")
    relative = "What was the model that Cursor started from?"  # answered alone: the conversation doesn't steer it
    assert engine.ask(relative, context=context).citations == engine.ask(relative).citations


def _recalled(engine, question: str, context: tuple[str, ...]):  # type: ignore[no-untyped-def]
    snapshot = engine.snapshot
    return engine.recall(snapshot, engine.understand(snapshot.stored, question, context), 5, "hybrid")


def test_a_follow_up_naming_the_answer_by_a_pronoun_carries_what_that_answer_quoted(engine) -> None:  # type: ignore[no-untyped-def]
    before = engine.ask(SWE_ZH)
    said = _recalled(engine, "这个比上一代高多少？", (SWE_ZH,)).said
    assert said and set(said) <= {c.quote for c in before.citations}
    assert "70.2%" in "".join(said)
    # a follow-up with a subject of its own, or one asking only for more, carries nothing
    assert _recalled(engine, "那价格呢？", (SWE_ZH,)).said == ()
    assert _recalled(engine, "详细说说", (SWE_ZH,)).said == ()


def test_a_follow_up_to_a_declined_question_carries_nothing(engine) -> None:  # type: ignore[no-untyped-def]
    declined = "GPT-5 在 SWE-bench 上多少分？"
    assert engine.ask(declined).abstained
    assert _recalled(engine, "它比 Composer 2.5 高吗？", (declined,)).said == ()
