"""Fairness under load (issue 24): other users' reply times while some users do heavy work or spam buttons.

Run: ``.venv/bin/python -m bench.bench_fair`` (``--rounds N`` moves per player per phase, default 6;
``--gif-plies N`` plies of each game animated; ``--postgres`` on a throwaway PostgreSQL server instead of SQLite;
``--phases idle,heavy,spam`` a part of it; ``--dump-after S`` the bot's stacks whenever a player waited S seconds).
Not under ``nice``: the bot inherits it and starves on a loaded machine (each phase prints how long its event
loop waited for a core).

The real bot runs as ``bot.py`` in its own process (tests/e2e/test_crash.py's ``BotProcess``, rate limits
on as in production) against the fake Discord on a temporary database. 20 players in 10 ZÈRTZ
games each play a move (``/zrtz move`` in the game's thread) and open ``/games`` in turn; every reply's time
to Discord's initial callback is recorded. Three phases, in the same run:

- idle: only the players;
- heavy: meanwhile 12 users import a long record each (bench/long_records.py: a random 4-player Ziggurat of
  100 rounds, about 1,000 plies, 80 kB) and 6 users build a GIF of a long finished Ziggurat game;
- spam: meanwhile one user presses their board's Move button 400 times, 20 presses at a time.

Reported: the players' p50/p95/max per phase, the heavy work's own completion times, and any public
refusal ("busy", "went wrong"). Target: p95 under 1 s in every phase, and no public refusal.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import engines
from bench.common import cpu_seconds, percentile
from bench.long_records import SEED, long_record
from data import bulk
from data.db import Database
from data.store import GameStore
from engines import CHANCE
from tests.e2e.test_crash import BotProcess
from tests.fakediscord import FakeDiscord, Upload
from tests.fakediscord.world import Channel
from tests.pg import PgServer

GAME = "zrtz"
TITLE = "ZÈRTZ"
PAIRS = 10
PACE = 0.5
"""Seconds a player waits between two actions (people read the board): the players' load is the same in every
phase, so the phases compare."""
ASKED: dict[int, float] = {}
"""Players' requests still unanswered: a key of each -> when it was asked (for ``--dump-after``)."""
IMPORTERS = 12
GIFS = 6
SPAM = 400
SPAM_AT_ONCE = 20


class PatientBot(BotProcess):
    """``bot.py`` as the crash tests start it, given two minutes to log in: on a loaded machine (and at nice 19)
    the start alone can take longer than the tests' 30 s."""

    async def start(self) -> None:
        try:
            await super().start()
        except TimeoutError:
            await asyncio.wait_for(self.ready.wait(), 90)


class Pair:
    """Two players, their game, and its position as the bench mirrors it."""

    def __init__(self, fake: FakeDiscord, k: int) -> None:
        self.fake = fake
        self.names = (f"p{2 * k}", f"p{2 * k + 1}")
        for name in self.names:
            fake.user(name)
        self.game_id = 0
        self.database: Path | str = ""
        self.thread: Channel | None = None
        self.seats: dict[int, str] = {}
        self.state = engines.get(GAME).new(2, {})
        self.rng = random.Random(k)
        self.played = 0
        self.refused: list[str] = []

    async def start(self, database: Path | str) -> None:
        """A new game of the two (again when their last one is over, so every phase has moves to time)."""
        fake = self.fake
        self.database = database
        self.state = engines.get(GAME).new(2, {})
        rec = await fake.slash(self.names[0], f"{GAME} new", {"opponent": self.names[1]}, wait="response",
                               timeout=120)
        challenge = await fake.wait_until(lambda: rec.original if rec.original and rec.original.custom_ids() else None,
                                          timeout=120)
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        self.game_id = int(accept.rsplit(":", 1)[1])
        await fake.click(self.names[1], challenge, accept, wait="response", timeout=120)
        name = f"{TITLE} #{self.game_id}"
        await fake.wait_until(lambda: any(t.name == name and t.messages for t in fake.threads()), timeout=120)
        self.thread = fake.thread(name)
        db = await Database.open(database)
        try:
            row = await GameStore(db).get(self.game_id)
        finally:
            await db.close()
        assert row is not None
        for seat in range(2):
            self.seats[seat] = next(u.name for u in fake.world.users.values() if int(u.id) == row.user_at(seat))

    async def turn(self, times: list[float]) -> None:
        """The player to move plays a random legal move; the other opens /games."""
        fake = self.fake
        if self.state.outcome() is not None:
            await self.start(self.database)
        if self.state.outcome() is None:
            seat = min(s for s in self.state.to_move() if s != CHANCE)
            move = self.rng.choice(self.state.legal_moves(seat))
            ASKED[id(self)] = time.perf_counter()
            rec = await fake.slash(self.seats[seat], f"{GAME} move", {"move": move}, channel=self.thread,
                                   wait="response", timeout=60)
            times.append(time.perf_counter() - ASKED.pop(id(self)))
            if not rec.ephemeral:
                self.state.play(seat, move)
                self.played += 1
            else:
                self.refused.append(rec.content[:80])
            other = self.seats[1 - seat]
            await asyncio.sleep(PACE)
        else:
            other = self.names[0]
        ASKED[id(self)] = time.perf_counter()
        await fake.slash(other, "games", wait="response", timeout=60)
        times.append(time.perf_counter() - ASKED.pop(id(self)))
        await asyncio.sleep(PACE)


async def players(pairs: list[Pair], rounds: int) -> list[float]:
    times: list[float] = []

    async def play(pair: Pair) -> None:
        for _ in range(rounds):
            await pair.turn(times)

    await asyncio.gather(*(play(p) for p in pairs))
    return times


def long_game_rows(fake: FakeDiscord, plies: int) -> list[bulk.WholeGame]:
    """Finished 4-player Ziggurat games of their first ``plies`` plies, for the GIF makers (written before the bot
    starts; a 30-round game, about 120 frames, costs some 7 s of CPU to animate)."""
    games = []
    for k in range(GIFS):
        record = json.loads(long_record(seed=100 + k, rounds=30))
        record["history"] = record["history"][:plies]
        users = [int(fake.user(f"g{k}s{s}").id) for s in range(4)]
        games.append(bulk.WholeGame(
            game="ziggurat", players=4, status="finished", users=users,
            moves=[(p["seat"], p["move"]) for p in record["history"]], seed=SEED, creator_id=users[0],
            guild_id=fake.world.guild_id, channel_id=int(fake.world.general.id), options=record["options"],
            settings={"rated": False, "clock": "none", "match": 1}, result=record["outcome"],
            created_at=time.time(), updated_at=time.time()))
    return games


def summary(label: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{label:<28} n {len(ms):>4}  p50 {percentile(ms, 50):>7.0f} ms  p95 {percentile(ms, 95):>7.0f} ms  "
            f"max {max(ms):>7.0f} ms")


async def heavy(fake: FakeDiscord, gif_ids: list[int]) -> tuple[list[float], list[float], list[str]]:
    """12 imports and 6 GIFs at once; each one's time to its result, and what each ended in."""
    ends: list[str] = []

    async def one(user: str, command: str, options: dict[str, Any]) -> float:
        asked = time.perf_counter()
        rec = await fake.slash(user, command, options, wait="response", timeout=60)
        if not rec.deferred:
            ends.append(f"{command}: at once: {rec.content[:80]}")
            return time.perf_counter() - asked
        await rec.wait_followups(1, timeout=600)
        last = rec.followups[-1]
        ends.append(f"{command}: {'private' if last.ephemeral else 'public'}: {last.content[:60]!r}"
                    f"{' +file' if last.attachments else ''}")
        return time.perf_counter() - asked

    for name in [f"i{k}" for k in range(IMPORTERS)] + [f"gif{k}" for k in range(GIFS)]:
        fake.user(name)
    imports = [one(f"i{k}", "ziggurat import", {"record": Upload("long.json", long_record(seed=k))})
               for k in range(IMPORTERS)]
    gifs = [one(f"gif{k}", "ziggurat gif", {"game": gif_ids[k]}) for k in range(GIFS)]
    done = await asyncio.gather(*imports, *gifs)
    return list(done[:IMPORTERS]), list(done[IMPORTERS:]), ends


async def spam(fake: FakeDiscord, pair: Pair) -> dict[str, int]:
    """One user presses their board's Move button 400 times, 20 at a time; what the answers said."""
    assert pair.thread is not None
    board = next(m for m in reversed(fake.messages(pair.thread)) if f"mo:{pair.game_id}" in " ".join(m.custom_ids()))
    button = next(c for c in board.custom_ids() if c.startswith(f"mo:{pair.game_id}"))
    user = pair.seats[min(s for s in pair.state.to_move() if s != CHANCE)]
    said: dict[str, int] = {}
    gate = asyncio.Semaphore(SPAM_AT_ONCE)

    async def press() -> None:
        async with gate:
            rec = await fake.click(user, board, button, wait="response", timeout=60)
            key = "slow down" if "slow down" in rec.content.lower() else "builder" if rec.ephemeral else "other"
            said[key] = said.get(key, 0) + 1

    await asyncio.gather(*(press() for _ in range(SPAM)))
    return said


async def during(pairs: list[Pair], rounds: int, load: asyncio.Task[Any]) -> list[float]:
    """The players' times while ``load`` runs: ``rounds`` turns each, then on until the load is over."""
    times = await players(pairs, rounds)
    while not load.done():
        times += await players(pairs, 1)
    return times


def cpu_of(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) the process ``pid`` has used so far (its children not counted), and the seconds
    its main thread (the event loop) waited for a core while it could run (the scheduler's run-queue delay)."""
    waited = int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    return cpu_seconds(pid), waited


async def phase(label: str, bot: BotProcess, work: Awaitable[list[float]]) -> None:
    """One phase's reply times, with the bot process's CPU seconds, the time its event loop was ready to run but
    had no core (a loaded machine, or a low priority: ``nice``), and the load average beside its wall time."""
    assert bot.proc is not None
    (cpu, waited), wall = cpu_of(bot.proc.pid), time.perf_counter()
    times = await work
    cpu_after, waited_after = cpu_of(bot.proc.pid)
    print(f"{summary(label, times)}  ({time.perf_counter() - wall:.0f} s wall, bot CPU {cpu_after - cpu:.1f} s, "
          f"its event loop waited {waited_after - waited:.1f} s for a core, load {os.getloadavg()[0]:.1f})",
          flush=True)


async def watch(pid: int, after: float, out: Path) -> None:
    """Whenever a player has waited ``after`` seconds, the bot's Python stacks (``py-spy dump``) go to ``out``:
    what held a stall, seen while it lasts."""
    last = 0.0
    while True:
        await asyncio.sleep(0.25)
        now = time.perf_counter()
        oldest = min(ASKED.values(), default=now)
        if now - oldest < after or now - last < 5:
            continue
        last = now
        spy = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).with_name("py-spy")), "dump", "--pid", str(pid), "--locals",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        dumped, _ = await spy.communicate()
        with out.open("a") as sink:
            sink.write(f"=== a player waiting {now - oldest:.1f} s, load {os.getloadavg()[0]:.1f}\n"
                       f"{dumped.decode(errors='replace')}\n")


def public_refusals(fake: FakeDiscord) -> list[str]:
    return [m.content[:100] for m in fake.messages() if "busy" in m.content.lower() or "went wrong" in m.content]


async def main(rounds: int, gif_plies: int, postgres: bool, phases: set[str], dump: float | None) -> None:
    if not postgres:
        with tempfile.TemporaryDirectory() as folder:
            print("SQLite:")
            await run(Path(folder) / "fair.sqlite3", rounds, gif_plies, phases, dump)
        return
    server = PgServer()
    await asyncio.to_thread(server.start)
    try:
        async with server.fresh_database() as url:
            print("PostgreSQL:")
            await run(url, rounds, gif_plies, phases, dump)
    finally:
        server.stop()


NICE_WARNING = ("warning: this bench runs at nice {0}, and so does the bot it starts (its heavy-work children at "
                "most 19 - {0} lower): on a machine loaded by other work the bot then waits for a core, and its "
                "replies stall for seconds (a stall of 18-30 s at nice 19 and load 13-24). Measure it not niced.")


async def run(database: Path | str, rounds: int, gif_plies: int, phases: set[str], dump: float | None) -> None:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    if os.nice(0) > 0:
        print(NICE_WARNING.format(os.nice(0)), flush=True)
    started = time.perf_counter()
    async with FakeDiscord() as fake:
        fake.timeout = 120
        fake.callback_deadline = None  # measured here, not failed
        db = await Database.open(database)
        gif_ids = await bulk.load_games(db, long_game_rows(fake, gif_plies))
        await db.close()
        bot = PatientBot(fake, database)
        await bot.start()
        assert bot.proc is not None
        print(f"bot process {bot.proc.pid}", flush=True)
        watcher = None if dump is None else asyncio.create_task(watch(bot.proc.pid, dump, Path("stalls.txt")))
        try:
            pairs = [Pair(fake, k) for k in range(PAIRS + 1)]
            for pair in pairs:
                await pair.start(database)
            spammer, pairs = pairs[-1], pairs[:-1]
            await players(pairs, 2)  # warm-up: the first boards of a bot fill its caches
            ends: list[str] = []
            said: dict[str, int] = {}
            if "idle" in phases:
                await phase("idle", bot, players(pairs, rounds))
            if "heavy" in phases:
                load = asyncio.create_task(heavy(fake, gif_ids))
                await phase("during 12 imports + 6 GIFs", bot, during(pairs, rounds, load))
                imports, gifs, ends = await load
                print(summary("  the imports themselves", imports))
                print(summary("  the GIFs themselves", gifs), flush=True)
                await phase("idle again", bot, players(pairs, rounds))
            if "spam" in phases:
                pressed = asyncio.create_task(spam(fake, spammer))
                await phase("during 400 presses by one", bot, during(pairs, rounds, pressed))
                said = await pressed
            if ends:
                print("heavy work ended in:")
            for end in sorted(set(ends)):
                print(f"  {sum(e == end for e in ends)} x {end}")
            if said:
                print(f"the spammer's presses: {said}")
            print(f"players' moves played: {sum(p.played for p in pairs)}, refused: "
                  f"{sum(len(p.refused) for p in pairs)} {sorted({r for p in pairs for r in p.refused})[:3]}")
            print(f"public refusals: {public_refusals(fake) or 'none'}")
            errors = bot.errors()
            print(f"bot errors logged: {len(errors)}" + "".join(f"\n  {e[:160]}" for e in errors[:5]))
        finally:
            if watcher is not None:
                watcher.cancel()
            await bot.kill()
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--gif-plies", type=int, default=300, help="plies of each game animated (300: 30 rounds)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL server (tests/pg.py)")
    parser.add_argument("--phases", default="idle,heavy,spam", help="which phases to run (default: all three)")
    parser.add_argument("--dump-after", type=float, help="py-spy dump the bot into stalls.txt when a player has "
                        "waited this many seconds")
    options = parser.parse_args()
    asyncio.run(main(options.rounds, options.gif_plies, options.postgres, set(options.phases.split(",")),
                     options.dump_after))
