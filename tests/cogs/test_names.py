"""``/leaderboard`` names: fetched concurrently when missing, then reused from a cache (issue 24)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from cogs._names import names_for


class SlowClient:
    """No user cached; every fetch takes 50 ms."""

    def __init__(self) -> None:
        self.fetched = 0

    def get_user(self, user_id: int) -> None:
        return None

    async def fetch_user(self, user_id: int) -> Any:
        self.fetched += 1
        await asyncio.sleep(0.05)
        return SimpleNamespace(display_name=f"player {user_id}")


async def test_twenty_names_are_fetched_at_once_then_cached() -> None:
    client = SlowClient()
    interaction: Any = SimpleNamespace(guild=None)
    name_of = names_for(client, interaction)  # type: ignore[arg-type]
    started = time.perf_counter()
    names = await asyncio.gather(*(name_of(u) for u in range(20)))
    first = time.perf_counter() - started
    assert names == [f"player {u}" for u in range(20)] and client.fetched == 20
    assert first < 0.5, "the names were fetched one after another"
    again = names_for(client, interaction)  # type: ignore[arg-type]
    started = time.perf_counter()
    assert await asyncio.gather(*(again(u) for u in range(20))) == names
    assert client.fetched == 20 and time.perf_counter() - started < 0.05
