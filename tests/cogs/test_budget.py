"""The per-user budget (issue 24, item 2): a burst and a refill rate, that a builder at a person's pace never meets."""

from __future__ import annotations

from cogs._limits import BURST, Budget, slow_down_text
from tests.conftest import FakeClock


def test_a_builder_at_a_persons_pace_is_never_refused() -> None:
    clock = FakeClock(0.0)
    budget = Budget(clock=clock)
    for _ in range(150):  # ten minutes: bursts of 4 presses 0.2 s apart, then a pause; about one a second
        for _ in range(4):
            assert budget.take(7) == 0
            clock.advance(0.2)
        clock.advance(3.2)
    for _ in range(300):  # or one press a second, steadily, with a command in between now and then
        assert budget.take(7) == 0
        clock.advance(0.9)


def test_a_spammer_gets_the_burst_then_the_refill_rate_and_others_are_untouched() -> None:
    clock = FakeClock(0.0)
    budget = Budget(burst=10, rate=1.5, clock=clock)
    admitted = 0
    for _ in range(20):  # 400 presses, 20 at a time, over 10 s
        clock.advance(0.5)
        for _ in range(20):
            admitted += budget.take(1) == 0
    assert BURST <= admitted <= 10 + 1.5 * 10 + 1
    assert budget.take(2) == 0  # another user has their own budget
    wait = budget.take(1)
    assert 0 < wait <= 1 / 1.5
    assert "Slow down" in slow_down_text(wait) and "1 s" in slow_down_text(wait)


def test_users_whose_budget_is_full_again_are_forgotten() -> None:
    clock = FakeClock(0.0)
    budget = Budget(clock=clock)
    for user in range(10_001):
        budget.take(user)
    clock.advance(60)
    budget.take(20_000)
    budget.take(20_001)
    assert len(budget.buckets) <= 2
