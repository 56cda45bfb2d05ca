"""Answer threads (BOT_THREADS=true): each public answer opens a thread on itself; a message in
that thread, or /ask there, follows up on the thread's latest answer."""

from __future__ import annotations

import re

from tests.e2e.harness import BotUnderTest, custom_ids, embed_text

BOT = "threads"
THREADS = r"/channels/\d+/messages/(\d+)/threads$"
VERIFIED_ZH = "Composer 2.5 在 SWE-bench Verified 上的成绩是多少？"


def _answer_id(payload: dict) -> str:  # type: ignore[type-arg]
    return custom_ids(payload)[0].split(":")[2]


def test_an_answer_opens_a_thread_where_messages_and_ask_follow_up(bot: BotUnderTest) -> None:
    asker = bot.user("threader")
    _, _, edit = bot.ask(VERIFIED_ZH, user=asker)
    assert "70.2%" in embed_text(edit.json)
    answer_message = edit.response["id"]

    opened = bot.wait_request("POST", THREADS, predicate=lambda r: answer_message in r.path)
    assert opened.json["name"] == VERIFIED_ZH
    thread_id = int(opened.response["id"])
    first = bot.wait_answer_stored(_answer_id(edit.json))
    bot.wait_rows("SELECT 1 FROM answer_threads WHERE thread_id = ?", (thread_id,))
    assert first["context"] is None

    # A plain message in the thread (no mention) is a follow-up of the answer the thread is on.
    since = len(bot.fake.requests)
    question = bot.say("那 Multilingual 呢？", author=asker, channel_id=thread_id)
    reply = bot.reply_to(question)
    assert int(reply.json["message_reference"]["message_id"]) == int(question["id"])
    assert re.search(rf"/channels/{thread_id}/messages$", reply.route)
    assert "73.7%" in embed_text(reply.json)
    second = bot.wait_answer_stored(_answer_id(reply.json))
    assert "SWE-bench Verified" in (second["context"] or "")
    assert not [r for r in bot.fake.requests[since:] if re.search(THREADS, r.path)], "no thread inside a thread"

    # /ask in the thread follows up too: "CursorBench 呢？" alone, read after the last answer.
    followed = bot.slash("ask", {"question": "那 CursorBench 呢？"}, user=asker, channel_id=thread_id)
    edit = bot.edited_original(followed)
    assert "63.2%" in embed_text(edit.json)
    third = bot.wait_answer_stored(_answer_id(edit.json))
    assert third["context"] and "Multilingual" in third["context"], third["context"]
    bot.wait_log(r'"via": "slash".*"follow_up": true')

    # Asking only for more continues the thread's latest question: CursorBench, not a decline.
    more = bot.say("详细说说", author=asker, channel_id=thread_id)
    reply = bot.reply_to(more)
    assert "63.2%" in embed_text(reply.json)
