from __future__ import annotations

import pytest

from bot.cooldown import SlidingWindowCooldown


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_default_five_per_minute_then_a_wait_until_the_oldest_expires() -> None:
    clock = Clock()
    cooldown = SlidingWindowCooldown(5, 60, clock)
    for _ in range(5):
        assert cooldown.hit("alice") == 0
        clock.now += 10  # questions at 1000, 1010, ..., 1040
    assert clock.now == 1050
    assert cooldown.hit("alice") == pytest.approx(10)  # the first expires at 1060
    clock.now = 1059.5
    assert cooldown.hit("alice") == pytest.approx(0.5)
    clock.now = 1060
    assert cooldown.hit("alice") == 0  # sliding: one slot came free
    assert cooldown.hit("alice") == pytest.approx(10)  # the next frees at 1070


def test_refused_attempts_do_not_extend_the_wait() -> None:
    clock = Clock()
    cooldown = SlidingWindowCooldown(2, 30, clock)
    cooldown.hit(1)
    cooldown.hit(1)
    for _ in range(10):
        clock.now += 1
        cooldown.hit(1)
    clock.now = 1030
    assert cooldown.hit(1) == 0


def test_users_are_independent() -> None:
    clock = Clock()
    cooldown = SlidingWindowCooldown(1, 60, clock)
    assert cooldown.hit(1) == 0
    assert cooldown.hit(1) > 0
    assert cooldown.hit(2) == 0
    assert cooldown.retry_after(2) == pytest.approx(60)
    assert cooldown.retry_after(3) == 0


def test_idle_users_are_forgotten() -> None:
    clock = Clock()
    cooldown = SlidingWindowCooldown(1, 1, clock)
    for user in range(999):
        cooldown.hit(user)
    clock.now += 5
    cooldown.hit("last")  # the 1000th hit sweeps
    assert len(cooldown) == 1


def test_bad_parameters_are_rejected() -> None:
    with pytest.raises(ValueError):
        SlidingWindowCooldown(0, 60)
    with pytest.raises(ValueError):
        SlidingWindowCooldown(1, 0)


def test_a_refused_user_is_told_once_per_wait() -> None:
    now = [0.0]
    cooldown = SlidingWindowCooldown(2, 60, clock=lambda: now[0])
    cooldown.hit("spammer")
    cooldown.hit("spammer")
    told = []
    for second in range(0, 40, 2):
        now[0] = float(second)
        assert cooldown.hit("spammer") > 0
        told.append(cooldown.should_warn("spammer"))
    assert told.count(True) == 1 and told[0]
    now[0] = 61.0  # the window slid: questions again, and a new wait is told again
    assert cooldown.hit("spammer") == 0 and cooldown.hit("spammer") == 0
    assert cooldown.hit("spammer") > 0 and cooldown.should_warn("spammer")
