"""Start-up, memory and leaderboard at scale (issue 13): 10k and 50k games of ~100 moves, 100k rating rows.

Run: ``.venv/bin/python -m bench.bench_scale [--database PATH_OR_POSTGRESQL_URL]`` (default: a temporary
SQLite file; a PostgreSQL database must be empty). Targets: ``recover()`` under 2 s at 50k games / 5M moves,
RSS under 200 MB after touching every game, leaderboard p95 under 20 ms at 100k rows.

The games are 2-player Ziggurat games whose logs are prefixes of real random playouts (so every log replays),
mostly finished, some active with deadlines, and a few of each kind of work start-up must still do: full
challenges whose start was interrupted, active games without a thread, matches whose next game was never
created. Rows are written directly (data/bulk.py), so filling 5M moves takes seconds, not hours of play.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import engines
from bench.common import percentile, report, timing
from data import bulk, preflight
from data import ratings as stored_ratings
from data.bulk import WholeGame
from data.db import Database
from data.ratings import Rating
from engines import CHANCE
from host import dice, ratings
from host.service import Host

GAME = "ziggurat"
USERS = 5000
PENDING = 10
"""Of each kind of work left for start-up, per batch of games added."""
NOW = 1_800_000_000.0


def rss_mb() -> float:
    """Resident memory of this process now (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def playouts(count: int, plies: int) -> list[list[tuple[int, str]]]:
    """``count`` legal move logs of ``plies`` plies (random moves, rolls from a seed)."""
    cls = engines.get(GAME)
    logs: list[list[tuple[int, str]]] = []
    seed = 0
    while len(logs) < count:
        seed += 1
        rng, game = random.Random(seed), cls.new(2, {})
        log = [(CHANCE, r) for r in dice.roll_pending(game, f"s{seed}")]
        while game.outcome() is None and len(log) < plies:
            seat = min(s for s in game.to_move() if s != CHANCE)
            log.append((seat, game.play(seat, rng.choice(game.legal_moves(seat)))))
            log += [(CHANCE, r) for r in dice.roll_pending(game, f"s{seed}")]
        if len(log) >= plies:
            logs.append(log[:plies])
    return logs


def games(start: int, count: int, logs: list[list[tuple[int, str]]]) -> Iterator[WholeGame]:
    """``count`` games: 85% finished, 13% active, 2% aborted, then ``PENDING`` of each kind of unfinished work."""
    rng = random.Random(start)
    for i in range(start, start + count):
        a, b = rng.sample(range(1, USERS + 1), 2)
        kind = rng.random()
        status = "finished" if kind < 0.85 else "active" if kind < 0.98 else "aborted"
        at = NOW - rng.uniform(0, 365 * 86400)
        yield WholeGame(
            game=GAME, players=2, status=status, users=(a, b), moves=logs[i % len(logs)], seed=f"g{i}", creator_id=a,
            guild_id=1, channel_id=2, thread_id=10_000_000 + i, settings={"rated": True, "clock": "none", "match": 1},
            result={"ranks": [1, 2], "reason": "resign"} if status == "finished" else None, created_at=at,
            updated_at=at, deadline=NOW + rng.uniform(1, 30) * 86400 if status == "active" else None,
            remind_at=NOW + rng.uniform(1, 30) * 86400 if status == "active" else None)
    for _ in range(PENDING):  # a start interrupted by a crash: a full table still in "challenge"
        a, b = rng.sample(range(1, USERS + 1), 2)
        yield WholeGame(game=GAME, players=2, status="challenge", users=(a, b), creator_id=a, guild_id=1,
                        channel_id=2, settings={"rated": True, "clock": "none", "match": 1}, created_at=NOW,
                        updated_at=NOW)
    for _ in range(PENDING):  # an active game that never got its thread
        a, b = rng.sample(range(1, USERS + 1), 2)
        yield WholeGame(game=GAME, players=2, status="active", users=(a, b), moves=logs[0], creator_id=a,
                        guild_id=1, channel_id=2, settings={"rated": True, "clock": "none", "match": 1},
                        created_at=NOW, updated_at=NOW)
    for _ in range(PENDING):  # a match game that ended without its next game
        a, b = rng.sample(range(1, USERS + 1), 2)
        yield WholeGame(game=GAME, players=2, status="finished", users=(a, b), moves=logs[1], creator_id=a,
                        guild_id=1, channel_id=2, thread_id=rng.randrange(10**9),
                        settings={"rated": True, "clock": "none", "match": 3},
                        result={"ranks": [1, 2], "reason": "resign"}, created_at=NOW, updated_at=NOW,
                        match_pending=True)


async def start_up(target: str) -> tuple[float, float, float, int]:
    """(preflight ms, open ms, recover() ms, reports) on a fresh connection and a fresh host, as a restarted bot
    has; the preflight file check is SQLite's only."""
    started = time.perf_counter()
    if not target.startswith(("postgres://", "postgresql://")):
        preflight.check(Path(target))
    checked = time.perf_counter()
    db = await Database.open(target)
    opened = time.perf_counter()
    host = Host(db, renderer=lambda observation: b"", now=lambda: NOW)
    reports = await host.recover()
    done = time.perf_counter()
    await db.close()
    return (checked - started) * 1000, (opened - checked) * 1000, (done - opened) * 1000, len(reports)


async def touch(target: str, ids: list[int]) -> tuple[float, float, float]:
    """(RSS before MB, RSS after MB, seconds): every game's engine loaded through the host, as commands do."""
    db = await Database.open(target)
    host = Host(db, renderer=lambda observation: b"", now=lambda: NOW)
    gc.collect()
    before, started = rss_mb(), time.perf_counter()
    for at in range(0, len(ids), 500):
        await host.engines_of(await host.store.get_many(ids[at:at + 500]))
    seconds = time.perf_counter() - started
    gc.collect()
    after = rss_mb()
    await db.close()
    return before, after, seconds


async def board(target: str, rows: int, samples: int) -> None:
    """Leaderboard and profile timings on one board of ``rows`` players."""
    db = await Database.open(target)
    rng = random.Random(7)
    await stored_ratings.put_many(db, [Rating(u, GAME, "global", 0, rng.gauss(25, 4), rng.uniform(0.8, 8.3),
                                              rng.randrange(0, 60), 0, 0, 0) for u in range(1, rows + 1)])
    await bulk.refresh_statistics(db)
    everyone: list[float] = []
    people: list[float] = []
    profiles: list[float] = []
    for _ in range(samples):
        user = rng.randrange(1, rows + rows // 10)  # some callers are not on the board
        with timing(everyone):
            await ratings.leaderboard(db, GAME, "global", user_id=user)
        with timing(people):
            await ratings.leaderboard(db, GAME, "global", user_id=user, bots_too=False)
        with timing(profiles):
            await ratings.profile(db, user, "global")
    report(f"leaderboard at {rows} rows", everyone)
    report(f"leaderboard without AI levels at {rows} rows", people)
    report(f"profile at {rows} rows", profiles)
    print(f"  leaderboard p95 {percentile(everyone, 95):.2f} ms (target < 20 ms)")
    await db.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = args.database or str(Path(folder) / "scale.sqlite3")
        db = await Database.open(target)
        if await bulk.count(db, "games"):
            raise SystemExit(f"{target} already holds games; give an empty database")
        logs = playouts(20, args.moves)
        loaded = 0
        for size in (int(s) for s in args.sizes.split(",") if s):
            started = time.perf_counter()
            await bulk.load_games(db, games(loaded, size - loaded, logs))
            await bulk.refresh_statistics(db)
            loaded = size
            moves = await bulk.count(db, "moves")
            print(f"{size} games, {moves} moves: written in {time.perf_counter() - started:.1f} s ({db.dialect})")
            check_ms, open_ms, recover_ms, reports = await start_up(target)
            print(f"  preflight {check_ms:.0f} ms, open {open_ms:.0f} ms, recover() {recover_ms:.0f} ms"
                  f" ({reports} starts resumed){'  (target < 2000 ms)' if size >= 50_000 else ''}")
            check_ms, open_ms, recover_ms, reports = await start_up(target)
            print(f"  again, nothing pending: preflight {check_ms:.0f} ms, open {open_ms:.0f} ms,"
                  f" recover() {recover_ms:.0f} ms")
            ids = (await bulk.game_ids(db))[: args.touch or None]
            before, after, seconds = await touch(target, ids)
            print(f"  touched {len(ids)} games in {seconds:.0f} s: RSS {before:.0f} MB -> {after:.0f} MB"
                  f" ({(after - before) * 1024 / max(1, len(ids)):.1f} KB per game)")
        await db.close()
        await board(target, args.ratings, args.samples)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", help="SQLite path or postgresql:// URL (default: a temporary SQLite file)")
    parser.add_argument("--sizes", default="10000,50000", help="game counts to measure at, ascending ('' for none)")
    parser.add_argument("--moves", type=int, default=100, help="moves per game")
    parser.add_argument("--ratings", type=int, default=100_000, help="players on the leaderboard")
    parser.add_argument("--samples", type=int, default=200, help="leaderboard calls timed")
    parser.add_argument("--touch", type=int, default=0, help="games whose engine is loaded (0: all)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
