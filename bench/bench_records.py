"""Game records: the animated GIF of 100 moves of each game, one replay step, and an export.

Run: ``.venv/bin/python -m bench.bench_records``. Each game is played at random through the host on
a temporary database (dice from the seed), up to 100 steps or its end (Zarathustra and Zaic end
sooner: their time is also given per step), then timed as ``/<game> gif``, ``replay`` and ``export``
run them. Targets: the GIF stays far under Discord's 8 MB, and a replay step (what a button press
costs) stays well under Discord's 3 s.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

import engines
from bench.common import report, timing
from data.db import Database
from engines import CHANCE
from host.app import Host

LONGEST = {"zarathustra": {"board": 7}, "zrtz": {"rings": 61}, "ziggurat": {"round_limit": 100}}
STEPS = 100


async def played(host: Host, name: str, seed: int) -> int:
    lobby = await host.lobby.challenge(game=name, creator=1, opponents=[2], options=LONGEST.get(name, {}))
    game_id = (await host.lobby.accept(lobby.row.id, 2)).row.id
    rng = random.Random(seed)
    for _ in range(STEPS * 12):
        row = await host.session.row(game_id)
        moves = await host.store.moves(game_id)
        game = engines.get(name).from_dict({"game": name, "players": 2, "options": row.options,
                                            "history": [[m.seat, m.text] for m in moves]})
        steps = sum(1 for m in moves if m.seat != CHANCE) if name != "ziggurat" else sum(
            1 for m in moves if m.seat == CHANCE)
        if row.status != "active" or steps >= STEPS:
            break
        seat = sorted(s for s in game.to_move() if s != CHANCE)[0]
        await host.turns.play(game_id, row.user_at(seat), rng.choice(game.legal_moves(seat)))
    return game_id


async def name_of(user: int) -> str:
    return f"player{user}"


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        host = Host(db)
        for name in sorted(engines.GAMES):
            game_id = await played(host, name, seed=1)
            gif_ms: list[float] = []
            with timing(gif_ms):
                _caption, board = await host.records.gif(game_id)
            steps = (await host.records.page("g", game_id, None)).last
            step_ms: list[float] = []
            for step in range(0, steps + 1, max(1, steps // 10)):
                with timing(step_ms):
                    await host.records.page("g", game_id, step)
            export_ms: list[float] = []
            with timing(export_ms):
                await host.record_exchange.export(game_id, name_of)
            print(f"{name}: {steps} steps, GIF {len(board.image) / 1e6:.2f} MB in {gif_ms[0] / 1000:.1f} s "
                  f"({gif_ms[0] / max(1, steps):.0f} ms per step, so {gif_ms[0] / max(1, steps) / 10:.1f} s "
                  f"per 100 steps)")
            report(f"{name} replay step (button press)", step_ms)
            report(f"{name} export (JSON, text, SGF)", export_ms)
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
