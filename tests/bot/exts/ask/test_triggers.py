"""Which messages the bot answers, and which of them are follow-ups."""

from __future__ import annotations

from bot.conversation import Turn
from bot.exts.ask._triggers import classify, strip_leading_mention

BOT = 424242
PREVIOUS = Turn("Composer 2.5 在 SWE-bench Verified 上的成绩是多少？")


def trigger(content: str, **kwargs: object):  # type: ignore[no-untyped-def]
    options = {
        "bot_id": BOT,
        "is_dm": False,
        "in_auto_channel": False,
        "replied_turn": None,
        "thread_turn": None,
    }
    options.update(kwargs)
    return classify(content, **options)  # type: ignore[arg-type]


def test_leading_mention_in_both_forms() -> None:
    assert strip_leading_mention(f"<@{BOT}> 价格呢？", BOT) == "价格呢？"
    assert strip_leading_mention(f"  <@!{BOT}>价格呢？", BOT) == "价格呢？"
    assert strip_leading_mention(f"价格呢？ <@{BOT}>", BOT) is None  # not leading
    assert strip_leading_mention("<@1> 价格呢？", BOT) is None  # someone else
    assert strip_leading_mention(f"<@{BOT}1> x", BOT) is None  # a different, longer id


def test_plain_messages_are_ignored_outside_auto_channels_and_dms() -> None:
    assert trigger("随便聊聊") is None
    auto = trigger("随便聊聊", in_auto_channel=True)
    assert auto is not None and auto.via == "auto" and not auto.explicit
    dm = trigger("价格？", is_dm=True)
    assert dm is not None and dm.via == "dm" and dm.explicit


def test_replies_and_thread_messages_are_follow_ups() -> None:
    reply = trigger("Multilingual 呢？", replied_turn=PREVIOUS)
    assert reply is not None and reply.via == "reply" and reply.previous == PREVIOUS
    mention_reply = trigger(f"<@{BOT}> Multilingual 呢？", replied_turn=PREVIOUS)
    assert mention_reply is not None and mention_reply.text == "Multilingual 呢？"
    assert mention_reply.previous == PREVIOUS
    in_thread = trigger("Multilingual 呢？", thread_turn=PREVIOUS)
    assert in_thread is not None and in_thread.via == "thread" and in_thread.previous == PREVIOUS


def test_mention_without_question_is_still_a_trigger() -> None:
    empty = trigger(f"<@{BOT}>")
    assert empty is not None and empty.via == "mention" and empty.text == ""
