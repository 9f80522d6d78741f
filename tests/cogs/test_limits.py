"""The hint ration: only a hint actually computed spends the user's cooldown."""

from __future__ import annotations

from cogs._limits import Ration


def test_only_spent_uses_wait_and_the_wait_runs_out() -> None:
    now = [100.0]
    ration = Ration(10.0, clock=lambda: now[0])
    assert ration.wait(1) == 0.0
    ration.spend(1)
    now[0] = 104.0
    assert ration.wait(1) == 6.0 and ration.wait(2) == 0.0  # one user's hint never rations another
    now[0] = 110.0
    assert ration.wait(1) == 0.0
