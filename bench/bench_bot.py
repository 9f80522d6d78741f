"""``bot.py`` as the benches start it: the boards' PNG encoder chosen, and the board work counted.

    BENCH_PNG=old .venv/bin/python -m bench.bench_bot --sync     (bench/bench_moves_images.py starts it)

Production never runs this module. ``BENCH_PNG=old`` puts back the move path as it was before issue 24's cuts: the
boards' encoder (Pillow, compression level 3, its per-row filter search), ZÈRTZ boards painted part by part instead
of from cached layers (``bench/boards_before.py``), asyncpg's reset statement on every pool release, a game read in
two statements (three from its thread; a move read it again), a move's version check and its moves two statements, a
board shown in a transaction of six round trips, the gateway's message events (each reply and edit parsed again) and
boards drawn in a thread of the bot; ``new`` (the default) keeps today's code (boards drawn in worker processes,
host/play/painter.py); ``newt`` is that with the boards drawn in a thread as before (the painter's share of the
difference); ``new1`` is ``newt`` with ``to_png`` at zlib level 1 (a candidate: faster, larger files; in a thread so
the level applies).
Either way every board drawn is counted: the renderers and the encoder are wrapped to add up their own
thread's CPU time, and on SIGUSR1 the process writes one ``bench-stages`` line of JSON to stderr (renders,
CPU of drawing and of encoding, the process's own CPU), so a bench can split a move's cost by stage. Boards
drawn in worker processes come back with their CPU time (``Painter.drawn_cpu_s``), counted as drawing: the
encoding in there is not split out.
``BENCH_PROFILE=PATH`` also profiles the event loop's thread (cProfile, in that thread's CPU time): on
SIGUSR1 what ran since the last signal is written to PATH.
"""

from __future__ import annotations

import cProfile
import functools
import importlib
import io
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from PIL import Image

import engines
import render.common

RENDER_MODULES = [*engines.GAMES, "leaderboard", "standings", "profile", "events"]
"""Every render module that encodes through ``to_png`` (each imported it by name)."""


def pillow_png(image: Image.Image) -> bytes:
    """The boards' encoder before issue 24: Pillow, compression level 3."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()


class Stages:
    """CPU seconds of the board work, summed over the threads that did it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.renders = 0
        self.render_s = 0.0
        self.encodes = 0
        self.encode_s = 0.0
        self.statements = 0
        """SQL statements sent to the database (PostgreSQL: each a round trip, BEGIN/COMMIT and pool resets
        included; SQLite: each a call into the writer's or the reader's thread)."""
        self.by_text: dict[str, int] | None = {} if os.environ.get("BENCH_SQL") else None
        """``BENCH_SQL=1``: the statements counted by their text, written with each report."""
        self.painters: list[Any] = []
        """The host's painters: boards drawn in worker processes, and their CPU there, go with each report."""
        self.databases: list[Any] = []
        """The SQLite databases the bot opened: their writer's ``WriteStats`` go with each report."""

    def counted(self, fn: Callable[..., Any], kind: str) -> Callable[..., Any]:
        """``fn`` adding its calling thread's CPU time to ``kind`` ("render" or "encode")."""
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.thread_time() - started
                with self.lock:
                    setattr(self, f"{kind}s", getattr(self, f"{kind}s") + 1)
                    setattr(self, f"{kind}_s", getattr(self, f"{kind}_s") + spent)
        return wrapper

    def counting(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """``fn`` (a database call: a coroutine, or aiosqlite's awaitable context) adding one to ``statements``."""
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.statements += 1  # called on the event loop's thread only: no lock needed
            if self.by_text is not None:
                said = " ".join(str(args[1] if len(args) > 1 else kwargs.get("query", "?")).split())[:90]
                self.by_text[said] = self.by_text.get(said, 0) + 1
            return fn(*args, **kwargs)
        return wrapper

    def writer(self) -> dict[str, float]:
        """The SQLite writer's counters (summed over databases; a bench takes their differences) and, since the
        last report (``window_``, taken as they are), the longest lock hold and the statements' time on the loop."""
        if not self.databases:
            return {}
        total = {"sqlite_transactions": 0.0, "sqlite_trips": 0.0, "sqlite_statements": 0.0, "sqlite_held_s": 0.0}
        held_max, on_loop, on_loop_cpu = 0.0, [], []
        for db in self.databases:
            stats = db.stats
            if stats.texts and self.by_text is not None:  # statements not sent through aiosqlite
                for said, n in stats.texts.items():
                    self.by_text[said] = self.by_text.get(said, 0) + n
                stats.texts.clear()
            total["sqlite_transactions"] += stats.transactions
            total["sqlite_trips"] += stats.trips
            total["sqlite_statements"] += stats.statements
            total["sqlite_held_s"] += stats.held_s
            held_max = max(held_max, stats.held_max_s)
            on_loop += stats.on_loop
            on_loop_cpu += stats.on_loop_cpu
            stats.held_max_s = 0.0
            stats.on_loop.clear()
            stats.on_loop_cpu.clear()
        on_loop.sort()
        on_loop_cpu.sort()

        def at(samples: list[float], share: float) -> float:
            return samples[min(len(samples) - 1, int(share * len(samples)))] * 1000 if samples else 0.0

        return total | {"window_held_max_ms": held_max * 1000, "window_on_loop": float(len(on_loop)),
                        "window_on_loop_p50_ms": at(on_loop, 0.5), "window_on_loop_p99_ms": at(on_loop, 0.99),
                        "window_on_loop_max_ms": at(on_loop, 1.0), "window_on_loop_cpu_p99_ms": at(on_loop_cpu, 0.99),
                        "window_on_loop_cpu_max_ms": at(on_loop_cpu, 1.0)}

    def line(self) -> str:
        cpu = os.times()
        on_loop = sum(db.stats.statements - db.stats.trips for db in self.databases)  # not through aiosqlite
        writer = self.writer()
        away = sum(p.drawn for p in self.painters), sum(p.drawn_cpu_s for p in self.painters)
        with self.lock:
            return "bench-stages " + json.dumps({
                "renders": self.renders + away[0], "render_s": self.render_s + away[1], "encodes": self.encodes,
                "encode_s": self.encode_s, "statements": self.statements + on_loop,
                **({"by_text": self.by_text} if self.by_text is not None else {}),
                **writer, "process_s": cpu.user + cpu.system})


ENCODERS = ("old", "new", "newt", "new1")


def install(encoder: str) -> tuple[Stages, Callable[[], None]]:
    """Choose the encoder (one of ``ENCODERS``) in every render module and count the board work; returns the
    counters and a function that puts every module back as it was (for tests)."""
    if encoder not in ENCODERS:
        raise SystemExit(f"BENCH_PNG must be one of {', '.join(ENCODERS)}, not {encoder!r}")
    stages = Stages()
    encode = stages.counted(pillow_png if encoder == "old" else render.common.to_png, "encode")
    modules = [render.common, *(importlib.import_module(f"render.{name}") for name in RENDER_MODULES)]
    saved = [(m, name, getattr(m, name)) for m in modules for name in ("to_png", "render") if hasattr(m, name)]
    saved.append((render.common, "PNG_LEVEL", render.common.PNG_LEVEL))
    for module, name, fn in saved:
        if name != "PNG_LEVEL":
            setattr(module, name, encode if name == "to_png" else stages.counted(fn, "render"))
    if encoder == "new1":
        render.common.PNG_LEVEL = 1
    if encoder != "new":  # the boards drawn in a thread of the bot, as before host/play/painter.py
        import host.play.painter

        saved.append((host.play.painter, "PROCESSES", host.play.painter.PROCESSES))
        host.play.painter.PROCESSES = 0
    if encoder == "old":
        saved += before_the_move_path_cuts(stages, encode)
    saved += count_statements(stages)
    saved += keep_databases(stages)
    saved += keep_painters(stages)

    def restore() -> None:
        for module, name, fn in reversed(saved):  # a name patched twice gets its first value back last
            setattr(module, name, fn)

    return stages, restore


def before_the_move_path_cuts(stages: Stages, encode: Callable[..., Any]) -> list[tuple[Any, str, Any]]:
    """The old side as the move path was before issue 24's cuts, besides the encoder: ZÈRTZ boards painted part by
    part (``bench/boards_before.py``), asyncpg's reset statement on every pool release, a game read as two
    statements (the game, then its seats; from its thread, its id first) and read again by the move, the board shown
    as a transaction of several statements on PostgreSQL too (``BoardPosts._shown``), the moves appended apart from
    their version check (``GameStore._checked``), SQLite's writer on aiosqlite's thread, a trip per statement
    (``bench/sqlite_before.py``), the gateway's message events (``zbot.intents``) and, from ``install``, the boards
    drawn in a thread. Returns what was replaced, for ``restore``."""
    import asyncpg

    import data.db
    import data.postgres
    import render.zrtz
    from bench import boards_before
    from bench.sqlite_before import SqliteDatabaseBefore
    from data.boards import BoardPosts
    from data.store import GameStore, Seat, row_to_game
    from host.play.turns import Turns

    async def get(self: GameStore, game_id: int) -> Any:
        row = await self.db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        seat_rows = await self.db.fetchall(
            "SELECT seat, user_id, accepted, team FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return row_to_game(row, [Seat(r["seat"], r["user_id"], bool(r["accepted"]), r["team"]) for r in seat_rows])

    play = Turns.play

    async def play_reading_again(self: Turns, game_id: int, user: int, text: str, *,
                                 expected_ply: int | None = None, row: Any = None) -> Any:
        return await play(self, game_id, user, text, expected_ply=expected_ply)  # the command's row not kept

    async def find_by_thread(self: GameStore, thread_id: int) -> Any:
        row = await self.db.fetchone("SELECT id FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                                     (thread_id,))
        return await self.get(row["id"]) if row else None

    import discord

    import zbot  # after the encoder's patches (install), so no module holds the encoder from before

    saved = [(zbot, "intents", zbot.intents), (render.zrtz, "render", render.zrtz.render),
             (boards_before, "to_png", boards_before.to_png),
             (data.postgres.PooledConnection, "get_reset_query", data.postgres.PooledConnection.get_reset_query),
             (GameStore, "get", GameStore.get), (GameStore, "find_by_thread", GameStore.find_by_thread),
             (BoardPosts, "_shown_at_once", BoardPosts._shown_at_once),
             (GameStore, "_checked_at_once", GameStore.__dict__["_checked_at_once"]),  # a staticmethod
             (Turns, "play", Turns.play),
             (data.db, "SqliteDatabase", data.db.SqliteDatabase)]
    zbot.intents = discord.Intents.default  # the message events too
    render.zrtz.render = stages.counted(boards_before.zrtz, "render")
    boards_before.to_png = encode
    data.postgres.PooledConnection.get_reset_query = asyncpg.Connection.get_reset_query  # type: ignore[method-assign]
    GameStore.get = get  # type: ignore[method-assign]
    GameStore.find_by_thread = find_by_thread  # type: ignore[method-assign]
    BoardPosts._shown_at_once = BoardPosts._shown  # type: ignore[method-assign]
    GameStore._checked_at_once = GameStore.__dict__["_checked"]  # type: ignore[method-assign]
    Turns.play = play_reading_again  # type: ignore[method-assign]
    data.db.SqliteDatabase = SqliteDatabaseBefore  # type: ignore[misc, assignment]
    return saved


def count_statements(stages: Stages) -> list[tuple[Any, str, Any]]:
    """Count every statement the bot sends: asyncpg's connection methods (the pool's reads, transactions'
    statements, BEGIN/COMMIT and the reset on release all go through them) and aiosqlite's; returns what
    was replaced, for ``restore``."""
    import aiosqlite
    import asyncpg

    targets = [(asyncpg.connection.Connection, name) for name in ("execute", "executemany", "fetch", "fetchrow",
                                                                   "fetchval")]
    targets += [(aiosqlite.Connection, name) for name in ("execute", "executemany", "execute_fetchall")]
    saved = [(cls, name, getattr(cls, name)) for cls, name in targets]
    for cls, name, fn in saved:
        setattr(cls, name, stages.counting(fn))
    return saved


def keep_databases(stages: Stages) -> list[tuple[Any, str, Any]]:
    """Every SQLite database the bot opens goes into ``stages.databases``; returns what was replaced."""
    import data.db

    chosen = data.db.SqliteDatabase  # the old side's class when that side is chosen
    connect = chosen.__dict__["connect"]

    async def kept(cls: type[Any], path: Any) -> Any:
        db = await connect.__func__(cls, path)
        stages.databases.append(db)
        if stages.by_text is not None:
            db.stats.texts = {}
        return db

    chosen.connect = classmethod(kept)  # type: ignore[method-assign, assignment]
    return [(chosen, "connect", connect)]


def keep_painters(stages: Stages) -> list[tuple[Any, str, Any]]:
    """Every painter the host makes goes into ``stages.painters``; returns what was replaced."""
    from host.play.painter import Painter

    made = Painter.__init__

    def kept(self: Painter, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        stages.painters.append(self)

    Painter.__init__ = kept  # type: ignore[method-assign]
    return [(Painter, "__init__", made)]


def main() -> int:
    stages, _ = install(os.environ.get("BENCH_PNG", "new"))
    profile_path = os.environ.get("BENCH_PROFILE")
    profiler = cProfile.Profile(time.thread_time) if profile_path else None

    def report(_signal: int, _frame: FrameType | None) -> None:
        nonlocal profiler
        print(stages.line(), file=sys.stderr, flush=True)
        if profiler is not None and profile_path:  # what ran since the last signal; a fresh count from here
            profiler.dump_stats(profile_path)
            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()

    signal.signal(signal.SIGUSR1, report)
    import zbot  # after the patches, so nothing holds the encoder from before

    if profiler is not None:
        profiler.enable()
    return zbot.main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
