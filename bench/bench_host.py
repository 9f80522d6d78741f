"""Host move handling with persistence (no rendering) and autocomplete, on a real SQLite file.

Run: ``.venv/bin/python -m bench.bench_host``. Targets: move p50 < 5 ms, autocomplete p95 < 50 ms.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from bench.common import report, timing
from data.db import Database
from host.app import Host


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        host = Host(db, renderer=lambda obs: b"")
        rng = random.Random(1)
        move_ms: list[float] = []
        complete_ms: list[float] = []
        for _ in range(20):
            lobby = await host.lobby.challenge(game="zarathustra", creator=1, opponents=[2])
            game_id = (await host.lobby.accept(lobby.row.id, 2)).row.id
            while (await host.session.row(game_id)).status == "active":
                row = await host.session.row(game_id)
                obs = await host.boards.observation(game_id, None)
                user = row.user_at(obs["to_move"][0])
                assert user is not None
                prefix = rng.choice(["", "c", "a1", "oo"])
                with timing(complete_ms):
                    choices = await host.boards.move_choices(game_id, user, prefix)
                label, move = rng.choice(choices or await host.boards.move_choices(game_id, user, ""))
                while " … (" in label:  # a group of moves: narrow into it, as a user would
                    label, move = rng.choice(await host.boards.move_choices(game_id, user, move))
                with timing(move_ms):
                    await host.turns.play(game_id, user, move)
        await db.close()
    report("host move with persistence, no render", move_ms)
    report("autocomplete (legal moves, filter, describe)", complete_ms)


if __name__ == "__main__":
    asyncio.run(main())
