"""Follow-ups: a reply to an answer is asked with the earlier question(s) as context."""

from __future__ import annotations

from pathlib import Path

from bot.client import ArticleBot
from bot.config import BotSettings
from bot.conversation import (
    CONTEXT_QUESTIONS,
    MAX_CONTEXT_CHARS,
    ConversationMemory,
    Turn,
    context_from_store,
    join_context,
    stored_context,
)
from bot.exts.ask._answering import Answerer, Asker
from bot.exts.ask._triggers import classify
from bot.feedback import FeedbackStore

BOT_ID = 999
ASKER = Asker(user_id=1, guild_id=2, channel_id=3, via="mention")


def make_bot(engine, db: Path) -> ArticleBot:  # type: ignore[no-untyped-def]
    settings = BotSettings(_env_file=None, index=engine.settings, feedback_db=db)  # type: ignore[call-arg]
    return ArticleBot(settings, engine, FeedbackStore(db))


def reply(text: str, turn: Turn | None):  # type: ignore[no-untyped-def]
    return classify(text, bot_id=BOT_ID, is_dm=False, in_auto_channel=False, replied_turn=turn, thread_turn=None)


def test_memory_is_bounded_and_least_recently_used_goes_first() -> None:
    memory = ConversationMemory(3)
    for key in (1, 2, 3):
        memory.remember([key], Turn(f"q{key}"))
    assert memory.get(1) == Turn("q1")  # 1 is now the most recent
    memory.remember([4], Turn("q4"))
    assert len(memory) == 3 and 2 not in memory and 1 in memory and 4 in memory


def test_context_keeps_the_last_questions_within_the_engine_limit() -> None:
    context: tuple[str, ...] = ()
    for i in range(6):
        context = join_context(context, f"问题 {i}")
    assert context == tuple(f"问题 {i}" for i in range(6 - CONTEXT_QUESTIONS, 6))  # oldest first
    long = join_context(("旧" * 1400,), "新" * 1000)
    assert long == ("新" * 1000,)  # the older question doesn't fit next to the new one
    assert join_context((), "长" * 3000) == ("长" * MAX_CONTEXT_CHARS,)


def test_a_conversation_is_stored_as_one_text_and_read_back() -> None:
    conversation = ("Composer 2.5 是什么？", "价格呢？")
    assert context_from_store(stored_context(conversation)) == conversation
    assert stored_context(()) is None and context_from_store(None) == ()


async def test_a_reply_to_an_answer_asks_with_the_previous_question(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bot = make_bot(engine, tmp_path / "feedback.sqlite3")
    answerer = Answerer(bot)
    first, context = await answerer.ask("Composer 2.5 在 SWE-bench Verified 上的成绩是多少？", None)
    assert context == () and "70.2%" in first.answer
    await answerer.record("a1" * 8, first, context, ASKER, [1001, 1002])  # an answer split over two messages

    turn = await answerer.turn_for_message(1002, None)
    trigger = reply("Multilingual 呢？", turn)
    assert trigger is not None and trigger.previous is not None
    second, context = await answerer.ask(trigger.text, trigger.previous)
    assert context == (first.question,)
    assert "73.7%" in second.answer
    await answerer.record("b2" * 8, second, context, ASKER, [2001])
    assert await answerer.turn_for_message(3001, None) is None  # not an answer: not a follow-up


async def test_follow_up_context_survives_a_restart(engine, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "feedback.sqlite3"
    bot = make_bot(engine, db)
    answerer = Answerer(bot)
    first, _ = await answerer.ask("Composer 2.5 是什么？", None)
    await answerer.record("c3" * 8, first, (), ASKER, [4001])
    bot.store.close()

    restarted = Answerer(make_bot(engine, db))  # empty memory, same database
    turn = await restarted.turn_for_message(4001, None)
    assert turn == Turn(first.question, (), "c3" * 8)
    then, context = await restarted.ask("它基于哪个模型？", turn)
    assert context == (first.question,)
    # Alone, "它基于哪个模型？" finds a general remark on open-source bases; "它" is Composer 2.5 here.
    assert "Kimi K2.5" in then.answer
