"""The bot's worked-out sentences (bot/messages.py): the cooldown's wait, channel lists, /help."""

from __future__ import annotations

from bot.config import BotSettings
from bot.messages import channel_not_allowed, cooldown, help_text


def test_cooldown_rounds_the_wait_up_and_names_the_moment() -> None:
    text = cooldown("en", 2.1, 5, 60.0, now=1000.0)
    assert "at most 5 questions per 60 s" in text and "in 3 s" in text and "<t:1003:R>" in text
    assert "每 60 s 最多 5 个问题" in cooldown("zh", 0.2, 5, 60.0, now=0.0) and "1 秒后" in cooldown("zh", 0.2, 5, 60.0)


def test_channel_lists_are_mentions_and_an_empty_list_says_only_no() -> None:
    assert channel_not_allowed("en", [1, 2]) == "I don't answer in this channel. Please ask in: <#1> <#2>"
    assert channel_not_allowed("zh", []) == "我不在这个频道回答问题。"


def test_help_lists_threads_and_auto_channels_only_when_they_apply() -> None:
    plain = BotSettings(_env_file=None, threads=False)  # type: ignore[call-arg]
    zh, en = help_text(plain, "<@9>")
    assert "<@9> question" in en and "<@9> 问题" in zh
    assert "thread" not in en and "子区" not in zh and "Every message in" not in en
    assert en.splitlines()[-1].startswith(f"At most {plain.cooldown_count} questions")
    busy = BotSettings(_env_file=None, threads=True, auto_answer_channel_ids=[7])  # type: ignore[call-arg]
    zh, en = help_text(busy, "<@9>")
    assert "Each answer opens a thread" in en and "• Every message in <#7> is taken as a question" in en
    assert "在 <#7> 里发的每条消息" in zh and len(zh.splitlines()) == len(en.splitlines()) == 10
