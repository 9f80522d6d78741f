"""The per-user rations of hints, GIFs and imports: only a served use spends the user's cooldown."""

from __future__ import annotations

import pytest

from cogs._limits import Ration
from host.results import HostError


def test_an_admitted_use_waits_and_the_wait_runs_out() -> None:
    now = [100.0]
    ration = Ration(10.0, clock=lambda: now[0])
    assert ration.wait(1) == 0.0
    ration.admit(1)
    now[0] = 104.0
    assert ration.wait(1) == 6.0 and ration.wait(2) == 0.0  # one user's hint never rations another
    now[0] = 110.0
    assert ration.wait(1) == 0.0


def test_two_uses_sent_together_are_not_both_admitted() -> None:
    """The turn is taken on admission: a GIF takes seconds, and a burst must not all pass before it ends."""
    ration = Ration(10.0, clock=lambda: 100.0)
    ration.admit(1)
    with pytest.raises(HostError, match="try again in 10 s"):
        ration.admit(1)


def test_a_refused_use_is_refunded_back_to_the_previous_one() -> None:
    now = [100.0]
    ration = Ration(10.0, clock=lambda: now[0])
    ration.admit(1)
    ration.refund(1)
    ration.admit(1)  # the first refusal cost nothing
    now[0] = 112.0
    ration.admit(1)
    now[0] = 113.0
    ration.refund(1)  # the use at 112 refused: the one at 100 stands, long past
    assert ration.wait(1) == 0.0
    ration.refund(1)  # nothing held: no change
    assert ration.wait(1) == 0.0
