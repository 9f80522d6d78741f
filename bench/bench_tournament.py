"""Tournament jobs: what a 64-player Swiss of ZÈRTZ costs the bot, step by step.

Run from the project root: ``.venv/bin/python -m bench.bench_tournament``. On a temporary SQLite file,
with a trivial board renderer (so the numbers are the event's, not the PNG renderer's): pairing a
round (the core's Swiss pairing and the version-checked write), starting its 32 games, recording one
result (the finish hook's job, the standings post it owes), and the standings of the whole table.
Five rounds, each game decided by a resignation.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from bench.common import report, timing
from data.db import Database
from data.jobs import JobQueue
from host.app import Host
from host.tournaments.jobs import Post, TournamentWorker
from host.tournaments.service import Actor

PLAYERS = 64
ROUNDS = 5
ADMIN = Actor(1, manage_guild=True)


def no_board(observation: dict[str, Any]) -> bytes:
    return json.dumps(observation.get("to_move")).encode()


async def deliver(post: Post) -> int | None:
    return None


async def run_kind(worker: TournamentWorker, kind: str, samples: list[float]) -> None:
    """Claim and run every due job of one kind, timing each."""
    queue = JobQueue(worker.t.db)
    while jobs := await queue.claim(worker.t.now(), worker.owner, kinds=(kind,)):
        for job in jobs:
            with timing(samples):
                await worker.worker.run_job(job)  # the job runner: a retry is retried, not raised


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        host = Host(db, games=engines.GAMES, renderer=no_board)
        t = host.tournaments
        worker = TournamentWorker(t, deliver)
        event = await t.create(guild_id=1, channel_id=2, actor=ADMIN, game="zrtz", format="swiss", rounds=ROUNDS,
                               max_players=PLAYERS)
        for user in range(1000, 1000 + PLAYERS):
            await t.join(event.id, user)
        await t.start(event.id, ADMIN)
        pair, start, result, standings, other = [], [], [], [], []
        for _ in range(ROUNDS):
            await run_kind(worker, "event_pair", pair)
            await run_kind(worker, "event_games", start)
            await worker.drain()
            snap = await t.load(event.id)
            for p in snap.pairings:
                if p.game_id is not None and p.points is None:
                    await host.turns.resign(p.game_id, p.seats[1])
                    await run_kind(worker, "event_result", result)
            await run_kind(worker, "event_post", standings)
            await run_kind(worker, "event_settle", other)
        assert (await t.load(event.id)).event.status == "finished"
        report("pair a round of 64 (ms)", pair)
        report("start a round's 32 games (ms)", start)
        report("record one result (ms)", result)
        report("build a post (standings of 64) (ms)", standings)
        report("settle after a result (ms)", other)
        await db.close()


if __name__ == "__main__":
    asyncio.run(main())
