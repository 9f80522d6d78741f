"""Host move handling with persistence (no rendering) and autocomplete, on a real SQLite file.

Run: ``.venv/bin/python -m bench.bench_host``. Targets: move p50 < 5 ms, autocomplete p95 < 50 ms.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from data.db import Database
from host.service import Host


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"p50 {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms (n={len(ordered)})"


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        host = Host(db, renderer=lambda obs: b"")
        rng = random.Random(1)
        move_ms: list[float] = []
        complete_ms: list[float] = []
        for _ in range(20):
            lobby = await host.challenge(game="zarathustra", creator=1, opponents=[2])
            game_id = (await host.accept(lobby.row.id, 2)).row.id
            while (await host.get(game_id)).status == "active":
                row = await host.get(game_id)
                obs = await host.observation(game_id, None)
                user = row.user_at(obs["to_move"][0])
                assert user is not None
                start = time.perf_counter()
                choices = await host.move_choices(game_id, user, rng.choice(["", "c", "a1", "oo"]))
                complete_ms.append((time.perf_counter() - start) * 1000)
                moves = [m for _, m in choices] or [m for _, m in await host.move_choices(game_id, user, "")]
                start = time.perf_counter()
                await host.play(game_id, user, rng.choice(moves))
                move_ms.append((time.perf_counter() - start) * 1000)
        await db.close()
    print(f"host move with persistence, no render: {percentiles(move_ms)}")
    print(f"autocomplete (legal moves, filter, describe): {percentiles(complete_ms)}")


if __name__ == "__main__":
    asyncio.run(main())
