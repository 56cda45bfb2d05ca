"""Which questions are accepted: DMs, the channel allow-list, length, cooldown — in that order."""

from __future__ import annotations

from bot.config import BotSettings
from bot.cooldown import SlidingWindowCooldown
from bot.exts.ask._gate import Refusal, channel_allowed, check_question


def settings(**values: object) -> BotSettings:
    return BotSettings(_env_file=None, **values)  # type: ignore[call-arg]


def ask(s: BotSettings, cooldown: SlidingWindowCooldown, text: str = "价格是多少？", **where: object) -> Refusal | None:
    where = {"is_dm": False, "channel_id": 10, "parent_id": None, **where}
    return check_question(s, cooldown, user_id=1, text=text, **where).refusal  # type: ignore[arg-type]


def test_dms_follow_the_setting() -> None:
    assert (
        ask(settings(allow_dms=False), SlidingWindowCooldown(5, 60), is_dm=True, channel_id=99) is Refusal.DMS_DISABLED
    )
    assert ask(settings(allow_dms=True), SlidingWindowCooldown(5, 60), is_dm=True, channel_id=99) is None


def test_allow_list_covers_threads_of_allowed_channels_and_auto_channels() -> None:
    s = settings(allowed_channel_ids="10", auto_answer_channel_ids="20")
    assert s.allowed_channel_ids == [10, 20]
    cooldown = SlidingWindowCooldown(50, 60)
    assert ask(s, cooldown, channel_id=10) is None
    assert ask(s, cooldown, channel_id=555, parent_id=10) is None
    assert ask(s, cooldown, channel_id=20) is None
    assert ask(s, cooldown, channel_id=30) is Refusal.CHANNEL_NOT_ALLOWED
    assert channel_allowed(settings(), 12345, None)  # no list: everywhere


def test_length_limit_is_configurable_and_checked_before_the_cooldown() -> None:
    s = settings(max_question_chars=1000, cooldown_count=1)
    cooldown = SlidingWindowCooldown(1, 60)
    verdict = check_question(s, cooldown, user_id=1, text="长" * 1001, is_dm=False, channel_id=1)
    assert verdict.refusal is Refusal.TOO_LONG and verdict.length == 1001
    assert ask(s, cooldown, text="   ") is Refusal.EMPTY
    assert ask(s, cooldown, text="长" * 1000) is None  # the refusals above cost nothing
    assert ask(s, cooldown) is Refusal.COOLDOWN


def test_cooldown_verdict_says_when_to_retry() -> None:
    s = settings(cooldown_count=2, cooldown_seconds=60)
    cooldown = SlidingWindowCooldown(2, 60)
    assert ask(s, cooldown) is None
    assert ask(s, cooldown) is None
    verdict = check_question(s, cooldown, user_id=1, text="q", is_dm=False, channel_id=10)
    assert verdict.refusal is Refusal.COOLDOWN
    assert 59 < verdict.retry_after <= 60
