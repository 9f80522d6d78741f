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


def test_an_unserved_use_is_refunded() -> None:
    now = [100.0]
    ration = Ration(10.0, clock=lambda: now[0])
    ration.refund(ration.admit(1))
    first = ration.admit(1)  # the refused use cost nothing
    now[0] = 112.0
    second = ration.admit(1)
    now[0] = 113.0
    ration.refund(second)  # the use at 112 was refused: the one at 100 stands, long past
    assert ration.wait(1) == 0.0
    del first


def test_a_refund_never_frees_a_third_use_while_a_later_one_runs() -> None:
    """A GIF may build for minutes: one admitted at 0 and refused at 12, after another was admitted at 11,
    must leave the one at 11 charged."""
    now = [0.0]
    ration = Ration(10.0, clock=lambda: now[0])
    first = ration.admit(1)
    now[0] = 11.0
    ration.admit(1)
    now[0] = 12.0
    ration.refund(first)
    assert ration.wait(1) == 9.0
    with pytest.raises(HostError):
        ration.admit(1)


async def test_a_turn_left_without_serving_is_refunded_and_a_served_one_is_kept() -> None:
    now = [0.0]
    ration = Ration(10.0, clock=lambda: now[0])
    with pytest.raises(RuntimeError), ration.turn(1):
        raise RuntimeError("Discord failed the deferral")
    assert ration.wait(1) == 0.0
    with ration.turn(1):
        pass  # refused inside (returned without serving)
    assert ration.wait(1) == 0.0
    with ration.turn(1) as ticket:
        ticket.served = True
    assert ration.wait(1) == 10.0
