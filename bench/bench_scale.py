"""Start-up, memory, leaderboard and move throughput at scale (issue 13), on SQLite and on PostgreSQL.

Run: ``.venv/bin/python -m bench.bench_scale`` measures both backends: a temporary SQLite file, and a
throwaway PostgreSQL server this script starts in a temporary directory (tests/pg.py: ``initdb`` and
``pg_ctl`` on a unix socket, tuned like the tests': no fsync, asynchronous commit; SQLite runs WAL with
``synchronous = NORMAL``, so neither syncs each commit) and stops at the end. ``--database PATH_OR_URL``
measures one given (empty) database instead. For each backend:

- ``recover()`` time and the process's RSS at 10k and 50k games of ~100 moves, each in a fresh process
  (as a restarted bot), then the RSS after loading every game's engine through the Host and its bounded
  LRU engine cache (``--touch`` limits how many at the largest size);
- leaderboard p50/p95 at 100k rating rows;
- sustained moves per second: ``--workers`` processes (default 2 on PostgreSQL, 1 on SQLite), each its own
  Host, playing random legal Zaic moves through ``Host.play`` in their own games for ``--seconds``;
  only committed moves are counted.

Targets: ``recover()`` under 2 s at 50k games / 5M moves, RSS under 200 MB after touching every game,
leaderboard p95 under 20 ms at 100k rows. Moves a second with board images drawn and Discord in the loop
(issue 24's throughput target: the move path before its cuts against today's, interleaved in one run) are
measured by bench/bench_moves_images.py.

The games are 2-player Ziggurat games whose logs are prefixes of real random playouts (so every log replays),
mostly finished, some active with deadlines, and a few of each kind of work start-up must still do: full
challenges whose start was interrupted, active games without a thread, matches whose next game was never
created. Rows are written directly (data/bulk.py), so filling 5M moves takes seconds, not hours of play.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import engines
from bench.common import percentile, report, timing
from data import bulk, preflight
from data import ratings as stored_ratings
from data.bulk import WholeGame
from data.db import Database
from data.ratings import Rating
from engines import CHANCE
from host.app import Host
from host.engine_cache import ENGINE_CACHE
from host.play import dice
from host.ratings import service as ratings
from host.results import HostError
from tests.pg import PgServer

T = TypeVar("T")

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


async def board(target: str, rows: int, samples: int, summary: list[str]) -> None:
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
    summary.append(f"leaderboard at {rows // 1000}k rows: p50 {percentile(everyone, 50):.2f} ms,"
                   f" p95 {percentile(everyone, 95):.2f} ms")
    report(f"leaderboard without AI levels at {rows} rows", people)
    report(f"profile at {rows} rows", profiles)
    print(f"  leaderboard p95 {percentile(everyone, 95):.2f} ms (target < 20 ms)")
    await db.close()



def is_postgres(target: str) -> bool:
    return target.startswith(("postgres://", "postgresql://"))


def in_fresh_process(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a new (spawned) process, so RSS and timings are those of a freshly started bot."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


def restart(target: str, touch: int) -> dict[str, float]:
    """A restarted bot (run in a fresh process): ``recover()`` with the pending work, again with none,
    then ``touch`` games' engines loaded through the Host (its bounded cache); RSS after each step."""
    return asyncio.run(_restart(target, touch))


async def _restart(target: str, touch: int) -> dict[str, float]:
    out: dict[str, float] = {"rss_start": rss_mb()}
    started = time.perf_counter()
    if not is_postgres(target):
        preflight.check(Path(target))
    checked = time.perf_counter()
    db = await Database.open(target)
    opened = time.perf_counter()
    host = Host(db, renderer=lambda observation: b"", now=lambda: NOW)
    out["resumed"] = len(await host.recover())
    done = time.perf_counter()
    out.update(preflight_ms=(checked - started) * 1000, open_ms=(opened - checked) * 1000,
               recover_ms=(done - opened) * 1000, rss_recovered=rss_mb())
    await db.close()
    db = await Database.open(target)
    host = Host(db, renderer=lambda observation: b"", now=lambda: NOW)
    started = time.perf_counter()
    await host.recover()
    out["again_ms"] = (time.perf_counter() - started) * 1000
    ids = (await bulk.game_ids(db))[: touch or None]
    started = time.perf_counter()
    for at in range(0, len(ids), 500):
        await host.session.cached_engines(await host.store.get_many(ids[at:at + 500]))
    out.update(touched=len(ids), touch_s=time.perf_counter() - started)
    gc.collect()
    out["rss_touched"] = rss_mb()
    await db.close()
    return out


def mover(target: str, worker: int, games: int, start_at: float, seconds: float) -> int:
    """One bot process moving in its own ``games`` Zaic games from ``start_at`` for ``seconds``: the number
    of moves it committed (a finished game is replaced by a new one, outside the count's time)."""
    return asyncio.run(_mover(target, worker, games, start_at, seconds))


async def _mover(target: str, worker: int, games: int, start_at: float, seconds: float) -> int:
    db = await Database.open(target)
    host = Host(db, renderer=lambda observation: b"")
    rng = random.Random(worker)
    users = iter(range(10_000_000 * (worker + 1), 10_000_000 * (worker + 2), 2))

    async def new_game() -> tuple[int, dict[int, int], engines.Game]:
        creator = next(users)
        lobby = await host.lobby.challenge(game="zaic", creator=creator, opponents=[creator + 1],
                                     settings={"rated": False})
        lobby = await host.lobby.accept(lobby.row.id, creator + 1)
        row = lobby.row if lobby.started else await host.session.row(lobby.row.id)
        seats = {s.seat: s.user_id for s in row.seats if s.user_id is not None}
        return row.id, seats, engines.get("zaic").new(row.players, row.options)

    tables = [await new_game() for _ in range(games)]
    await asyncio.sleep(max(0.0, start_at - time.time()))
    moved, end = 0, start_at + seconds
    while time.time() < end:
        for i, (game_id, seats, game) in enumerate(tables):
            seat = min(game.to_move())
            move = rng.choice(game.legal_moves(seat))
            try:
                await host.turns.play(game_id, seats[seat], move)
            except HostError as error:
                raise SystemExit(f"worker {worker}: game {game_id} refused {move!r}: {error}") from None
            if time.time() < end:
                moved += 1
            game.play(seat, move)
            if game.outcome() is not None:
                tables[i] = await new_game()
    await db.close()
    return moved


async def throughput(target: str, workers: int, games: int, seconds: float, summary: list[str]) -> None:
    """Sustained committed moves per second of ``workers`` processes over ``target``."""
    start_at = time.time() + 5 + 2 * workers  # after every process has started and made its games
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        runs = [pool.submit(mover, target, w, games, start_at, seconds) for w in range(workers)]
        counts = [await asyncio.wrap_future(run) for run in runs]
    line = (f"sustained moves: {workers} process{'es' if workers > 1 else ''}, {sum(counts)} moves committed in"
            f" {seconds:.0f} s = {sum(counts) / seconds:.0f} moves/s ({' + '.join(map(str, counts))})")
    print(f"  {line}")
    summary.append(line)


async def measure(target: str, args: argparse.Namespace, workers: int) -> list[str]:
    """Every figure on one (empty) database; returns the summary lines."""
    summary: list[str] = []
    db = await Database.open(target)
    if await bulk.count(db, "games"):
        raise SystemExit(f"{target} already holds games; give an empty database")
    logs = playouts(20, args.moves)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    loaded = 0
    for size in sizes:
        started = time.perf_counter()
        await bulk.load_games(db, games(loaded, size - loaded, logs))
        await bulk.refresh_statistics(db)
        loaded = size
        moves = await bulk.count(db, "moves")
        print(f"{size} games, {moves} moves: written in {time.perf_counter() - started:.1f} s ({db.dialect})")
        touch = args.touch if size == sizes[-1] else 0
        got = await asyncio.to_thread(in_fresh_process, restart, target, touch)
        print(f"  preflight {got['preflight_ms']:.0f} ms, open {got['open_ms']:.0f} ms, recover()"
              f" {got['recover_ms']:.0f} ms ({got['resumed']:.0f} starts resumed); again, nothing pending:"
              f" {got['again_ms']:.0f} ms")
        print(f"  RSS: {got['rss_start']:.0f} MB at start, {got['rss_recovered']:.0f} MB after recover(),"
              f" {got['rss_touched']:.0f} MB after touching {got['touched']:.0f} games in {got['touch_s']:.0f} s"
              f" (engine cache {ENGINE_CACHE})")
        summary.append(f"{size:,} games / {moves / 1e6:.2f}M moves: recover() {got['recover_ms']:.0f} ms"
                       f" (then {got['again_ms']:.0f} ms), RSS {got['rss_recovered']:.0f} MB after recover(),"
                       f" {got['rss_touched']:.0f} MB after touching {got['touched']:.0f} games")
    await db.close()
    if args.ratings:
        await board(target, args.ratings, args.samples, summary)
    if args.seconds:
        await throughput(target, workers, args.games, args.seconds, summary)
    return summary


async def main(args: argparse.Namespace) -> None:
    results: dict[str, list[str]] = {}
    if args.database:
        results[args.database] = await measure(args.database, args, 2 if is_postgres(args.database) else 1)
    else:
        with tempfile.TemporaryDirectory() as folder:
            if args.backend in ("sqlite", "both"):
                path = Path(folder) / "scale.sqlite3"
                print("== SQLite", path)
                results["SQLite"] = await measure(str(path), args, args.workers or 1)
                for leftover in Path(folder).iterdir():
                    leftover.unlink()  # free the disk before PostgreSQL fills its own
        if args.backend in ("postgres", "both"):
            server = PgServer()
            await asyncio.to_thread(server.start)
            try:
                async with server.fresh_database() as url:
                    print("== PostgreSQL", url)
                    results["PostgreSQL"] = await measure(url, args, args.workers or 2)
            finally:
                server.stop()
    load = os.getloadavg()
    print(f"\nSummary (load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}; {os.cpu_count()} cores)")
    for backend, lines in results.items():
        for line in lines:
            print(f"  {backend}: {line}")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", help="one SQLite path or postgresql:// URL to measure (default: both backends,"
                        " each in a temporary place)")
    parser.add_argument("--backend", choices=("both", "sqlite", "postgres"), default="both",
                        help="without --database: which backends to measure")
    parser.add_argument("--sizes", default="10000,50000", help="game counts to measure at, ascending ('' for none)")
    parser.add_argument("--moves", type=int, default=100, help="moves per game")
    parser.add_argument("--ratings", type=int, default=100_000, help="players on the leaderboard (0: skip)")
    parser.add_argument("--samples", type=int, default=200, help="leaderboard calls timed")
    parser.add_argument("--touch", type=int, default=0,
                        help="games whose engine is loaded at the largest size (0: all; smaller sizes: all)")
    parser.add_argument("--seconds", type=float, default=10, help="duration of the moves-per-second run (0: skip)")
    parser.add_argument("--workers", type=int, default=0,
                        help="processes moving at once (default: 1 on SQLite, 2 on PostgreSQL)")
    parser.add_argument("--games", type=int, default=20, help="games each moving process plays at once")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
