"""SQLite's writer runs a transaction on the event loop's thread (issue 24: no trip to another thread per
statement while the write lock is held), checkpoints its WAL off the loop, and sends long work to a thread.

SQLite only, by nature: PostgreSQL's statements always run in its server (tests/data/test_postgres.py)."""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
import time
from pathlib import Path

import pytest

import data.db
from data.db import Busy, Database, SqliteDatabase, StaleVersion
from data.store import GameRow, GameStore, Seat


async def open_sqlite(path: Path) -> SqliteDatabase:
    db = await Database.open(path)
    assert isinstance(db, SqliteDatabase)
    return db


async def test_a_burst_of_version_checked_moves_has_one_winner_per_version_and_never_busy(tmp_path: Path) -> None:
    """20 players press at once on the same version, 30 times over: one write wins each version, the other 19
    are told the game changed (none is busy), and the transactions made no trip off the loop."""
    db = await open_sqlite(tmp_path / "burst.sqlite3")
    store = GameStore(db)
    try:
        game_id = await store.create(guild_id=1, channel_id=2, game="dicenim", players=2, options={"stones": 9},
                                     settings={}, seed="s", creator_id=10,
                                     seats=[Seat(0, 10, True), Seat(1, 11, True)], now=5.0)
        trips, transactions = db.stats.trips, db.stats.transactions
        for version in range(30):
            seen = [await store.get(game_id) for _ in range(20)]  # each player's own read (update bumps it)
            assert {row.version for row in seen if row is not None} == {version}

            async def press(k: int, row: GameRow | None) -> str:
                assert row is not None
                try:
                    await store.update(row, now=6.0, new_moves=[(0, f"press {k}")], first_ply=row.version)
                except StaleVersion:
                    return "stale"
                return "won"

            said = await asyncio.gather(*(press(k, row) for k, row in enumerate(seen)), return_exceptions=True)
            assert sorted(map(str, said)) == ["stale"] * 19 + ["won"], said
        moves = await store.moves(game_id)
        assert len(moves) == 30
        assert db.stats.transactions - transactions == 30 * 20
        assert db.stats.trips == trips, "a move's transaction went to another thread"
        assert len(db.stats.on_loop) > 30 * 20
        assert max(db.stats.on_loop) < 0.05
    finally:
        await db.close()


async def test_checkpoints_keep_the_wal_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer never checkpoints (``wal_autocheckpoint = 0``), and passive checkpoints alongside steady writes
    never let SQLite start the WAL over: without the truncating one it would hold every page written (12 MB). Past
    ``WAL_PAGES`` a checkpoint that can copy every frame truncates the WAL."""
    monkeypatch.setattr(data.db, "CHECKPOINT_EVERY", 0.02)
    path = tmp_path / "wal.sqlite3"
    db = await open_sqlite(path)
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body BLOB)")
        largest = 0
        for _batch in range(100):
            for _ in range(10):
                async with db.transaction() as tx:
                    await tx.execute("INSERT INTO blobs (body) VALUES (?)", (os.urandom(5000),))
            await asyncio.sleep(0.005)  # other work of the loop; checkpoints run meanwhile
            largest = max(largest, path.with_name(path.name + "-wal").stat().st_size)
        assert db.stats.checkpoints >= 5  # whether one had to truncate depends on the machine's pace
        assert largest < 8 * 1024 * 1024, f"the WAL grew to {largest} bytes"
        assert (await db.fetchone("SELECT COUNT(*) FROM blobs"))[0] == 1000
        monkeypatch.setattr(data.db, "WAL_PAGES", 1)  # past the bound, nothing writing: it truncates the WAL
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO blobs (body) VALUES (?)", (os.urandom(5000),))
        resets = db.stats.wal_resets
        await db.checkpoint()
        assert db.stats.wal_resets > resets
        assert path.with_name(path.name + "-wal").stat().st_size == 0
    finally:
        await db.close()
    again = sqlite3.connect(path)
    try:
        assert again.execute("SELECT COUNT(*) FROM blobs").fetchone()[0] == 1001
    finally:
        again.close()


async def test_heavy_work_runs_off_the_loop_and_a_cancelled_one_rolls_back(tmp_path: Path) -> None:
    """A ``heavy`` transaction's statements (and a big ``executemany``) run in a thread while the loop goes on;
    cancelled in the middle, the statement still ends before the ROLLBACK, and the database stays writable."""
    db = await open_sqlite(tmp_path / "heavy.sqlite3")
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE n (x INTEGER)")
            await tx.executemany("INSERT INTO n (x) VALUES (?)", [(k,) for k in range(200_000)])
        assert db.stats.trips == 1  # the executemany of 200,000 rows
        ticks = 0
        stop = False

        async def ticker() -> None:
            nonlocal ticks
            while not stop:
                ticks += 1
                await asyncio.sleep(0)

        running = asyncio.create_task(ticker())
        slow = ("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000000)"
                " SELECT COUNT(*) FROM c")

        deleted = asyncio.Event()

        async def heavy_then_cancelled() -> None:
            async with db.transaction(heavy=True) as tx:
                await tx.execute("DELETE FROM n WHERE x < 100000")
                deleted.set()
                await tx.fetchall(slow)  # counting to a million: long enough to be cancelled in

        started = time.perf_counter()
        task = asyncio.create_task(heavy_then_cancelled())
        await deleted.wait()
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        stop = True
        await running
        assert ticks > 10, "the loop stood still while the heavy statements ran"
        assert db.stats.trips == 3
        assert time.perf_counter() - started < 30
        assert (await db.fetchone("SELECT COUNT(*) FROM n"))[0] == 200_000  # the delete was rolled back
        async with db.transaction() as tx:
            assert await tx.execute("DELETE FROM n WHERE x < 10") == 10
    finally:
        await db.close()


async def test_a_lock_held_by_another_process_is_waited_for_without_stopping_the_loop(tmp_path: Path) -> None:
    """The writer does not wait inside SQLite (busy_timeout 0 on the loop): it tries again after short sleeps,
    so the loop runs meanwhile; a lock let go within the limit is taken, one held past it is ``Busy``."""
    path = tmp_path / "held.sqlite3"
    db = await open_sqlite(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, other.execute, "ROLLBACK")
        beats: list[float] = []

        async def beat() -> None:
            for _ in range(40):
                beats.append(time.perf_counter())
                await asyncio.sleep(0.01)

        beating = asyncio.create_task(beat())
        started = time.perf_counter()
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (x)")
        assert 0.25 < time.perf_counter() - started < 0.9
        await beating
        assert max(b - a for a, b in itertools.pairwise(beats)) < 0.2
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(Busy):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t VALUES (1)")
        other.execute("ROLLBACK")
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (2)")
        assert [tuple(r) for r in await db.fetchall("SELECT x FROM t")] == [(2,)]
    finally:
        other.close()
        await db.close()


async def test_a_commit_refused_by_a_deferred_constraint_rolls_back_and_the_next_write_begins(tmp_path: Path) -> None:
    """A COMMIT that fails leaves SQLite's transaction open: it is rolled back before the write lock is let go."""
    db = await open_sqlite(tmp_path / "deferred.sqlite3")
    try:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE p (id INTEGER PRIMARY KEY)")
            await tx.execute("CREATE TABLE c (pid INTEGER REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED)")
        with pytest.raises(sqlite3.IntegrityError):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO c (pid) VALUES (5)")  # checked only at COMMIT
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO p (id) VALUES (5)")
            await tx.execute("INSERT INTO c (pid) VALUES (5)")
        assert [tuple(r) for r in await db.fetchall("SELECT pid FROM c")] == [(5,)]
    finally:
        await db.close()
