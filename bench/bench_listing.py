"""``/history`` and ``/games`` for a player with 3,000 games (issue 16: 3.0 s cold, no defer).

Run: ``.venv/bin/python -m bench.bench_listing``. Both commands defer first; ``/history`` reads only the
25 newest finished games. ``/games`` replays every active game's engine, so it grows with their number.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bench.common import report, timing
from data import bulk
from data.bulk import WholeGame
from data.db import Database
from host.app import Host

GAMES = 3000


async def fill(db: Database, status: str) -> None:
    result = {"ranks": [1, 2], "reason": "resign"} if status == "finished" else None
    await bulk.load_games(db, (WholeGame("zaic", 2, status, (1, 2), seed="s", creator_id=1, guild_id=1, channel_id=2,
                                         result=result, created_at=i, updated_at=i) for i in range(GAMES)))


async def main() -> None:
    for status, label in (("finished", "/history"), ("active", "/games")):
        with tempfile.TemporaryDirectory() as folder:
            db = await Database.open(Path(folder) / "bench.sqlite3")
            await fill(db, status)
            host = Host(db, renderer=lambda obs: b"")
            samples: list[float] = []
            for _ in range(3):
                host = Host(db, renderer=lambda obs: b"")  # cold: no cached engines
                with timing(samples):
                    if status == "finished":
                        await host.correspondence.history(1, 1)
                    else:
                        await host.correspondence.games_overview(1, 1)
            report(f"{label} of a player with {GAMES} {status} games (cold)", samples)
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
