"""Moves a second with board images drawn and Discord in the loop, the move path before issue 24 against now.

Run: ``.venv/bin/python -m bench.bench_moves_images --seconds 20 --rounds 3`` (``--backend sqlite|postgres|both``,
``--seconds`` measured per phase, ``--rounds`` of phases, ``--encoders old,new[,new1]``, ``--pairs`` of
players, ``--game``, ``--profile PATH``, ``--sql``).

The real bot runs as its own process (``bench/bench_bot.py``: ``bot.py`` with the encoder chosen by
``BENCH_PNG``) against the project's fake Discord: one process on a SQLite file, or two shard processes
(``SHARD_COUNT=2``, one guild each) on a throwaway PostgreSQL server (tests/pg.py). Pairs of players each
play one game in its thread as fast as the bot answers: the player to move sends ``/<game> move`` with a
random legal move and the other waits for the reply (the board, drawn and uploaded); a finished game is
replaced by a new one. Per-user rate limits are on, as in production.

Each backend runs phases old, new, old, new... on the same database and games (the bot restarted with the
other encoder), so the load from the rest of the machine hits both sides alike. A phase plays ``--warmup``
seconds unmeasured (engines cached again after the restart), then ``--seconds`` measured: moves whose reply
arrived in the window, the reply times (the interaction's initial callback, board included), the load
average, and the CPU per move of the bot process(es) and their children (the board workers, host/play/painter.py;
of it: drawing and encoding the boards), of this
process (the fake Discord and the players) and of the PostgreSQL server. On SQLite each phase also has the
writer's line: transactions a move, trips to another thread and statements a transaction, how long the write
lock was held, and each write statement's time on the event loop (wall and CPU, p50/p99/max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import signal
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engines
from bench.common import percentile
from data.db import Database
from data.store import GameStore
from engines import CHANCE
from host.play import dice
from tests.e2e.test_crash import ROOT, BotProcess
from tests.fakediscord import FakeDiscord, User
from tests.fakediscord.records import InteractionRecord
from tests.fakediscord.world import Channel
from tests.pg import PgServer

SHARDS = 2
TICK = os.sysconf("SC_CLK_TCK")


class BenchBot(BotProcess):
    """``bench/bench_bot.py`` (bot.py with ``BENCH_PNG``'s encoder) in a process group of its own."""

    whole_group = True

    async def start(self) -> None:
        self.ready.clear()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.bench_bot", "--sync", cwd=ROOT, env=self.env, start_new_session=True,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(self.ready.wait(), 60)

    async def stages(self) -> dict[str, float]:
        """The bot's board-work counters now (it writes them to stderr on SIGUSR1)."""
        assert self.proc is not None
        seen = len(self.lines)
        os.kill(self.proc.pid, signal.SIGUSR1)
        for _ in range(500):
            for line in self.lines[seen:]:
                if "bench-stages " in line:
                    return dict(json.loads(line.split("bench-stages ", 1)[1]))
            await asyncio.sleep(0.01)
        raise RuntimeError("the bot did not report its stages")


@dataclass
class Move:
    at: float
    took: float
    played: bool


@dataclass
class Pair:
    """Two players, their current game and its position as the bench mirrors it (dice from the game's seed)."""

    fake: FakeDiscord
    game: str
    channel: Channel
    users: tuple[User, User]
    rng: random.Random
    game_id: int = 0
    thread: Channel | None = None
    seats: dict[int, User] = field(default_factory=dict)
    seed: str = ""
    state: Any = None
    games: int = 0
    refusals: dict[str, int] = field(default_factory=dict)

    async def start(self, db: Database) -> None:
        """A new game between the two, accepted, and its first board in its thread."""
        fake, title = self.fake, engines.get(self.game).title
        opponent = {"opponent": self.users[1].name}
        rec = await self.answered(lambda: fake.slash(self.users[0], f"{self.game} new", opponent, channel=self.channel,
                                                     wait="response"))
        challenge = await fake.wait_until(lambda: rec.original if rec.original and rec.original.custom_ids() else None,
                                          timeout=120, what="the challenge")
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        self.game_id = int(accept.rsplit(":", 1)[1])
        await self.answered(lambda: fake.click(self.users[1], challenge, accept, wait="response", timeout=120))
        name = f"{title} #{self.game_id}"
        self.thread = await fake.wait_until(
            lambda: next((t for t in fake.threads() if t.name == name and t.messages), None), timeout=120,
            what=f"the first board of {name}")
        row = await GameStore(db).get(self.game_id)
        assert row is not None
        by_id = {int(u.id): u for u in self.users}
        self.seats = {s.seat: by_id[s.user_id] for s in row.seats if s.user_id is not None}
        self.seed = row.seed
        self.state = engines.get(self.game).new(row.players, row.options)
        dice.roll_pending(self.state, self.seed)
        self.games += 1

    async def answered(self, ask: Callable[[], Awaitable[InteractionRecord]]) -> InteractionRecord:
        """The answer to a challenge or an accept, asked again after a "slow down". Before, a refused challenge or
        accept waited out the bench's 120 s as a stall (README runs 20 and 36)."""
        while (rec := await ask()).ephemeral:
            await self.refused(rec, f"the start of a game between {self.users[0].name} and {self.users[1].name}")
        return rec

    async def refused(self, rec: InteractionRecord, what: str) -> None:
        """A private refusal, counted: a "slow down" (the per-user limit) is waited out a second, as a person would;
        any other ends the run with its text."""
        said = rec.content[:60]
        self.refusals[said] = self.refusals.get(said, 0) + 1
        if "slow down" not in said.lower():
            raise RuntimeError(f"{what} was refused: {rec.content}")
        await asyncio.sleep(1)

    async def turn(self, db: Database, moves: list[Move]) -> None:
        """The player to move plays a random legal move and waits for the reply; a finished game is replaced."""
        seat = min(s for s in self.state.to_move() if s != CHANCE)
        move = self.rng.choice(self.state.legal_moves(seat))
        asked = time.perf_counter()
        rec = await self.fake.slash(self.seats[seat], f"{self.game} move", {"move": move}, channel=self.thread,
                                    wait="response", timeout=120)
        now = time.perf_counter()
        played = not rec.ephemeral or rec.content.startswith(("Played", "Done"))  # Done: the board posted apart
        moves.append(Move(now, now - asked, played))
        if not played:
            await self.refused(rec, f"{move!r} in game {self.game_id}")
            return
        self.state.play(seat, move)
        dice.roll_pending(self.state, self.seed)
        if self.state.outcome() is not None:
            await self.start(db)


@dataclass
class Phase:
    backend: str
    encoder: str
    round: int
    seconds: float
    moves: list[Move]
    load: float
    cpu: dict[str, float]
    renders: int

    @property
    def played(self) -> int:
        return sum(m.played for m in self.moves)

    def line(self) -> str:
        ms = [m.took * 1000 for m in self.moves]
        per = max(self.played, 1)
        return (f"{self.backend:<10} {self.encoder:<4} {self.round:>2} {self.played / self.seconds:>8.1f}"
                f" {percentile(ms, 50):>7.0f} {percentile(ms, 95):>7.0f} {self.load:>5.2f}"
                f" {self.cpu['bot'] * 1000 / per:>7.1f} {self.cpu['bot_process'] * 1000 / per:>6.1f}"
                f" {self.cpu['draw'] * 1000 / per:>6.1f}"
                f" {self.cpu['encode'] * 1000 / per:>6.1f} {self.cpu['bench'] * 1000 / per:>6.1f}"
                f" {self.cpu['postgres'] * 1000 / per:>5.1f} {self.renders / per:>5.2f}"
                f" {self.cpu['statements'] / per:>5.1f}"
                f" {self.cpu['bot'] / self.seconds:>5.2f}")


HEADER = (f"{'backend':<10} {'enc':<4} {'r':>2} {'moves/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'load':>5}"
          f" {'bot ms':>7} {'main':>6} {'draw':>6} {'encode':>6} {'fake':>6} {'pg':>5} {'boards':>5} {'sql':>5}"
          f" {'cores':>5}")
LEGEND = ("(ms are CPU per move played: 'bot' all of the bot process(es) and their children (the board worker"
          " processes), of it 'main' the bot process(es) alone (not their board workers), 'draw' and 'encode'"
          " the boards' drawing and PNG encoding (boards drawn in worker"
          " processes: both in 'draw'); 'fake' this process: the fake Discord and the players; 'pg' the"
          " PostgreSQL server; 'boards' boards drawn per move; 'sql' SQL statements the bot sent per move"
          " (PostgreSQL: round trips, BEGIN/COMMIT and the pool's reset included); 'cores' the bot process(es)'"
          " CPU seconds a second;"
          " p50/p95 the reply time of every move sent)")


def postgres_cpu(server: PgServer | None) -> float:
    """CPU seconds of the PostgreSQL server's processes so far (the postmaster and its children)."""
    if server is None:
        return 0.0
    try:
        master = int((server.root / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0.0
    return sum((int(fields[11]) + int(fields[12])) / TICK for pid, fields in processes()
               if pid == master or int(fields[1]) == master)


def processes() -> Iterator[tuple[int, list[str]]]:
    """Every live process's id and its ``/proc/<pid>/stat`` fields after the command name."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue


def group_cpu(leaders: list[int]) -> float:
    """CPU seconds so far of every live process in these process groups: a bot and the children it started
    (its board renderers, its offload workers), which the bot's own ``os.times`` does not see."""
    return sum((int(fields[11]) + int(fields[12])) / TICK for _pid, fields in processes() if int(fields[2]) in leaders)


async def cpu_now(bots: list[BenchBot], server: PgServer | None) -> dict[str, float]:
    stages = [await b.stages() for b in bots]
    group = group_cpu([b.proc.pid for b in bots if b.proc is not None])
    mine = os.times()
    by_text: dict[str, float] = {}
    for s in stages:
        for said, n in s.get("by_text", {}).items():
            by_text[f"sql: {said}"] = by_text.get(f"sql: {said}", 0) + n
    writer = {k: sum(s.get(k, 0.0) for s in stages) for k in stages[0] if k.startswith("sqlite_")}
    windows = {k: max(s.get(k, 0.0) for s in stages) for k in stages[0] if k.startswith("window_")}
    return by_text | writer | windows | {
            "bot": group, "bot_process": sum(s["process_s"] for s in stages),
            "draw": sum(s["render_s"] - s["encode_s"] for s in stages),
            "encode": sum(s["encode_s"] for s in stages), "renders": sum(s["renders"] for s in stages),
            "statements": sum(s.get("statements", 0) for s in stages),
            "bench": mine.user + mine.system, "postgres": postgres_cpu(server)}


async def phase(pairs: list[Pair], db: Database, bots: list[BenchBot], server: PgServer | None,
                warmup: float, seconds: float) -> tuple[list[Move], dict[str, float], int]:
    """Every pair plays as fast as answered: ``warmup`` seconds, then ``seconds`` measured."""
    moves: list[Move] = []
    stop = asyncio.Event()

    async def play(pair: Pair) -> None:
        while not stop.is_set():
            await pair.turn(db, moves)

    players = [asyncio.create_task(play(p)) for p in pairs]
    try:
        await asyncio.sleep(warmup)
        start, before = time.perf_counter(), await cpu_now(bots, server)
        await asyncio.sleep(seconds)
        end, after = time.perf_counter(), await cpu_now(bots, server)
    finally:
        stop.set()
        await asyncio.gather(*players)
    spent = {k: after[k] - (0 if k.startswith("window_") else before.get(k, 0)) for k in after}
    return [m for m in moves if start <= m.at < end], spent, int(spent.pop("renders"))


def writer_line(cpu: dict[str, float], played: int, seconds: float) -> str:
    """The SQLite writer in the measured window: transactions and trips a move, lock held, statements' loop time."""
    per, txs = max(played, 1), max(cpu["sqlite_transactions"], 1)
    return (f"    writer: {cpu['sqlite_transactions'] / per:.2f} transactions a move, {cpu['sqlite_trips'] / txs:.2f}"
            f" trips and {cpu['sqlite_statements'] / txs:.2f} statements a transaction, lock held"
            f" {cpu['sqlite_held_s'] * 1000 / txs:.2f} ms a transaction (max {cpu['window_held_max_ms']:.1f} ms),"
            f" {cpu['sqlite_held_s'] / seconds:.0%} of the time; statements on the loop:"
            f" {cpu['window_on_loop']:.0f}, p50 {cpu['window_on_loop_p50_ms']:.3f} ms,"
            f" p99 {cpu['window_on_loop_p99_ms']:.3f} ms, max {cpu['window_on_loop_max_ms']:.3f} ms"
            f" (CPU p99 {cpu['window_on_loop_cpu_p99_ms']:.3f} ms, max {cpu['window_on_loop_cpu_max_ms']:.3f} ms)")


async def start_all(pairs: list[Pair], db: Database) -> None:
    """Every pair's first game, four being set up at a time."""
    gate = asyncio.Semaphore(4)

    async def begin(pair: Pair) -> None:
        async with gate:
            await pair.start(db)

    await asyncio.gather(*(begin(p) for p in pairs))


def profiled(args: argparse.Namespace, encoder: str, shard: int) -> dict[str, str]:
    """``BENCH_PROFILE`` for the new side's bot processes when ``--profile`` asks; ``BENCH_SQL`` for ``--sql``."""
    sql = {"BENCH_SQL": "1"} if args.sql else {}
    return sql | ({"BENCH_PROFILE": f"{args.profile}.{shard}"} if args.profile and encoder != "old" else {})


async def run(backend: str, database: str, server: PgServer | None, args: argparse.Namespace) -> list[Phase]:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    phases: list[Phase] = []
    async with FakeDiscord() as fake:
        fake.timeout = 120
        fake.callback_deadline = None  # measured here, not failed
        channels = [fake.world.general]
        env: list[Mapping[str, str]] = [{}]
        if server is not None:  # two shard processes, a guild on each
            home = (fake.guild_id >> 22) % SHARDS
            channels.append(fake.world.add_guild("Second Guild", "lobby", shard=(1 - home, SHARDS)))
            env = [{"SHARD_COUNT": str(SHARDS), "SHARD_IDS": str((home + k) % SHARDS)} for k in range(SHARDS)]
        pairs = [Pair(fake, args.game, channels[k % len(channels)], (fake.user(f"a{k}"), fake.user(f"b{k}")),
                      random.Random(k)) for k in range(args.pairs)]
        db = await Database.open(database)
        bots: list[BenchBot] = []
        try:
            for number in range(args.rounds * len(args.encoders)):
                encoder = args.encoders[number % len(args.encoders)]
                # no per-user limit: 32 pairs at the limit's 1.5 a second each make at most ~100 moves a second,
                # so on a quiet machine the limit, not the bot, capped the new side (runs 42-45: 16-279 refusals)
                bots = [BenchBot(fake, database, {**e, "BENCH_PNG": encoder, "RATE_BURST": "0",
                                                  **profiled(args, encoder, k)}) for k, e in enumerate(env)]
                await asyncio.gather(*(b.start() for b in bots))
                try:
                    if number == 0:
                        await start_all(pairs, db)
                    moves, cpu, renders = await phase(pairs, db, bots, server, args.warmup, args.seconds)
                except Exception:  # what the bots said is the first thing to read about a stalled phase
                    for k, b in enumerate(bots):
                        said = [line for line in b.lines if "bench-stages " not in line][-40:]
                        print(f"  bot {k} said last:" + "".join(f"\n    {line[:240]}" for line in said), flush=True)
                    raise
                done = Phase(backend, encoder, number // len(args.encoders) + 1, args.seconds, moves,
                             os.getloadavg()[0], cpu, renders)
                phases.append(done)
                print(done.line(), flush=True)
                if "sqlite_transactions" in cpu:  # the writer: its counters are always kept
                    print(writer_line(cpu, done.played, args.seconds))
                if args.sql:  # the statements of a move, most frequent first
                    for said, n in sorted(cpu.items(), key=lambda kv: -kv[1]):
                        if said.startswith("sql: ") and n:
                            print(f"    {n / max(done.played, 1):5.2f}  {said[5:]}")
                await asyncio.sleep(1)  # the last replies' own writes (board shown) finish
                for b in bots:
                    errors = b.errors()
                    if errors:
                        print(f"  bot errors: {len(errors)}" + "".join(f"\n    {e[:160]}" for e in errors[:3]))
                    await b.kill()
                bots = []
        finally:
            for b in bots:
                if b.proc is not None and b.proc.returncode is None:
                    await b.kill()
            await db.close()
        refused: dict[str, int] = {}
        for p in pairs:
            for said, n in p.refusals.items():
                refused[said] = refused.get(said, 0) + n
        print(f"  games started: {sum(p.games for p in pairs)}; refusals: {refused or 'none'}")
    return phases


def summary(phases: list[Phase], encoders: list[str]) -> list[str]:
    """Backend x encoder: moves/s (mean of the rounds), pooled p50/p95 reply, the CPU a move costs the bot and
    its database (the machine's part when Discord is elsewhere), and each encoder over the first (old)."""
    lines = []
    for backend in dict.fromkeys(p.backend for p in phases):
        rate: dict[str, float] = {}
        cost: dict[str, float] = {}
        for encoder in encoders:
            mine = [p for p in phases if p.backend == backend and p.encoder == encoder]
            ms = [m.took * 1000 for p in mine for m in p.moves]
            rate[encoder] = sum(p.played / p.seconds for p in mine) / len(mine)
            cost[encoder] = (sum(p.cpu["bot"] + p.cpu["postgres"] for p in mine) * 1000
                             / max(1, sum(p.played for p in mine)))
            loads = ", ".join(f"{p.load:.1f}" for p in mine)
            lines.append(f"{backend:<10} {encoder:<4} {rate[encoder]:6.1f} moves/s"
                         f" ({', '.join(f'{p.played / p.seconds:.1f}' for p in mine)})  reply p50"
                         f" {percentile(ms, 50):.0f} ms, p95 {percentile(ms, 95):.0f} ms  bot+database CPU"
                         f" {cost[encoder]:.1f} ms a move  (load {loads})")
        base = encoders[0]
        lines += [f"{backend:<10} {e} / {base}: {rate[e] / rate[base]:.2f}x the moves a second,"
                  f" {cost[base] / cost[e]:.2f}x the moves per CPU second of bot and database" for e in encoders[1:]]
    return lines


async def main(args: argparse.Namespace) -> None:
    phases: list[Phase] = []
    print(HEADER)
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as folder:
            phases += await run("SQLite", str(Path(folder) / "moves.sqlite3"), None, args)
    if args.backend in ("postgres", "both"):
        server = PgServer()
        await asyncio.to_thread(server.start)
        try:
            async with server.fresh_database() as url:
                phases += await run("PostgreSQL", url, server, args)
        finally:
            server.stop()
    print(LEGEND)
    print(f"\n{args.pairs} pairs of players, {args.game}, {args.seconds:.0f} s measured per phase, {os.cpu_count()}"
          " cores; old: the move path before issue 24's cuts (Pillow PNG level 3, boards painted part by part, the"
          " pool's reset statement, SQLite's writer a trip to aiosqlite's thread per statement), new: today's"
          " (new1: to_png at zlib level 1)")
    print("\n".join(summary(phases, args.encoders)))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=("both", "sqlite", "postgres"), default="both")
    parser.add_argument("--seconds", type=float, default=20, help="seconds measured per phase")
    parser.add_argument("--warmup", type=float, default=5, help="seconds played unmeasured after each bot start")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of phases (one per encoder) per backend")
    parser.add_argument("--encoders", type=lambda text: text.split(","), default=["old", "new"],
                        help="BENCH_PNG values, a phase each in turn, the first the baseline (bench/bench_bot.py:"
                        " old, new, new1)")
    parser.add_argument("--pairs", type=int, default=32, help="pairs of players, each in its own game")
    parser.add_argument("--profile", metavar="PATH", help="cProfile the event loop of every side but old: the"
                        " last measured window's stats in PATH.0 (PATH.1: the second shard process)")
    parser.add_argument("--sql", action="store_true", help="count the bot's SQL statements by their text and"
                        " print them per move after each phase")
    parser.add_argument("--game", choices=sorted(engines.GAMES), default="zrtz")
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
