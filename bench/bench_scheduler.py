"""Scheduler cost per tick with 10,000 stored games (target: under 50 ms).

Run from the project root: ``.venv/bin/python -m bench.bench_scheduler``. Fills a temporary database
with 10,000 games (7,000 active with clocks, 3,000 finished) and 1,000 digest subscribers whose
digests are not due, then times idle ticks (nothing due: the usual case) and the catch-up after
downtime where 20 real games owe reminders and 20 more time out: ticks of at most ``BATCH`` games
each until nothing is left. The timed-out games use the toy Dice Nim engine and a trivial renderer,
so the numbers are the scheduler's and the database's, not the PNG renderer's.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import report, timing
from data import bulk
from data.bulk import WholeGame
from data.correspondence import CorrespondenceStore
from data.db import Database
from host.app import Host
from host.correspondence.clocks import DAY, ClockState
from host.correspondence.scheduler import BATCH, Scheduler
from tests.engines.toy import DiceNim

STORED = 10_000
REAL = 20
T0 = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.value = T0

    def __call__(self) -> float:
        return self.value


async def fill(db: Database) -> None:
    """Bulk rows straight into the tables: deadlines and reminders spread over days 5-13, none due."""
    games = []
    for n in range(1, STORED + 1):
        active = n % 10 < 7
        deadline = T0 + 7 * DAY + (n % 1000) * 500.0 if active else None
        games.append(WholeGame(
            "dicenim", 2, "active" if active else "finished", (1000 + n % 500, 2000 + n % 700), seed="seed",
            creator_id=1, guild_id=1, channel_id=2, settings={"rated": True, "clock": "7d"}, created_at=T0,
            updated_at=T0, deadline=deadline, remind_at=deadline - 1.75 * DAY if deadline else None,
            clock=ClockState({0: T0}).to_json() if active else None))
    await bulk.load_games(db, games)
    prefs = CorrespondenceStore(db)
    for u in range(1000):
        await prefs.set_notify(1000 + u, "digest", T0 + 10 * DAY)


async def real_games(host: Host, clock: str) -> list[int]:
    ids = []
    for n in range(REAL):
        lobby = await host.lobby.challenge(game="dicenim", creator=1, opponents=[2 + n], settings={"clock": clock})
        ids.append(lobby.row.id if lobby.started else (await host.lobby.accept(lobby.row.id, 2 + n)).row.id)
        await host.turns.play(ids[-1], 1, "bid 1")  # one move, so the other seat's timeout is a loss, not an abort
    return ids


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(Path(tmp) / "bench.sqlite3")
        clock = Clock()
        host = Host(db, games={DiceNim.name: DiceNim}, renderer=lambda obs: b"", now=clock)
        scheduler = Scheduler(host.correspondence)
        await fill(db)
        await real_games(host, "1d")
        clock.value += 0.5 * DAY
        await real_games(host, "2d")  # reminders due at +2d, timeouts of the first batch at +1d
        idle: list[float] = []
        for _ in range(200):
            with timing(idle):
                tick = await scheduler.tick()
            assert not tick
        clock.value = T0 + 2 * DAY + 0.5 * DAY - 1
        busy: list[float] = []
        timeouts, reminders, more = 0, 0, True
        while more:
            with timing(busy):
                tick = await scheduler.tick()
            timeouts, reminders, more = timeouts + len(tick.timeouts), reminders + len(tick.reminders), tick.more
        await db.close()
    print(f"{STORED} stored games (tests/data/test_indexed_lookups.py checks the due queries' plans)")
    report("idle tick", idle)
    report(f"catch-up tick (batch {BATCH} games)", busy)
    print(f"catch-up: {timeouts} timeouts and {reminders} reminders in {len(busy)} ticks")
    print("target: under 50 ms per tick:", "met" if max(idle + busy) < 50 else "NOT met")


if __name__ == "__main__":
    asyncio.run(main())
