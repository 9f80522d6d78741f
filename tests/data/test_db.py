"""Storage on a real database: SQLite migrations and pragmas, and version-checked writes on both backends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from data.db import SQLITE_MIGRATIONS as MIGRATIONS
from data.db import Database, StaleVersion
from data.store import GameStore, Seat


async def test_migrations_set_user_version_wal_and_foreign_keys(tmp_path: Path) -> None:
    """SQLite only, by nature: ``user_version``, WAL and the foreign-keys switch are SQLite file pragmas.
    PostgreSQL's migrations (``schema_version``, applied once even by two processes at once) are held by
    tests/data/test_postgres.py; the tests below run on both backends."""
    db = await Database.open(tmp_path / "nested" / "x.sqlite3")
    try:
        latest = max(int(f.name[:3]) for f in MIGRATIONS.glob("*.sql"))
        assert (await db.fetchone("PRAGMA user_version"))[0] == latest
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "moves", "ratings", "guild_settings"} <= tables
    finally:
        await db.close()
    again = await Database.open(tmp_path / "nested" / "x.sqlite3")  # a second start applies nothing twice
    await again.close()


async def make_game(store: GameStore) -> int:
    return await store.create(guild_id=1, channel_id=2, game="dicenim", players=2, options={"stones": 9},
                              settings={"rated": True}, seed="s", creator_id=10,
                              seats=[Seat(0, 10, True), Seat(1, 11, False)], now=5.0)


async def test_update_appends_moves_and_bumps_the_version(db: Database) -> None:
    store = GameStore(db)
    game_id = await make_game(store)
    row = await store.get(game_id)
    assert row is not None and row.version == 0 and row.seat_of(11) == 1
    await store.update(row, now=6.0, new_moves=[(0, "bid 1"), (1, "bid 2")], status="active")
    fresh = await store.get(game_id)
    assert fresh is not None and fresh.version == 1 and fresh.status == "active" and fresh.updated_at == 6.0
    assert [(m.ply, m.seat, m.text) for m in await store.moves(game_id)] == [(0, 0, "bid 1"), (1, 1, "bid 2")]


async def test_a_stale_version_writes_nothing(db: Database) -> None:
    store = GameStore(db)
    game_id = await make_game(store)
    first, second = await store.get(game_id), await store.get(game_id)
    assert first is not None and second is not None
    await store.update(first, now=6.0, new_moves=[(0, "bid 1")])
    with pytest.raises(StaleVersion):
        await store.update(second, now=7.0, new_moves=[(1, "bid 3")], status="finished")
    fresh = await store.get(game_id)
    assert fresh is not None and fresh.status == "challenge" and fresh.version == 1
    assert [m.text for m in await store.moves(game_id)] == ["bid 1"]


async def test_a_failed_transaction_rolls_back_everything(db: Database) -> None:
    store = GameStore(db)
    game_id = await make_game(store)
    row = await store.get(game_id)
    assert row is not None
    await store.update(row, now=6.0, new_moves=[(0, "bid 1")])
    with pytest.raises(Exception, match=r"(?i)unique"):
        await store.update(row, now=7.0, new_moves=[(1, "bid 2")], first_ply=0,
                           seats=[Seat(0, 99, True)])
    fresh = await store.get(game_id)
    assert fresh is not None and fresh.version == 1 and fresh.seat_of(99) is None
    assert len(await store.moves(game_id)) == 1


async def test_a_writer_cancelled_at_any_point_leaves_the_database_whole_and_writable(db: Database) -> None:
    """A shutdown cancels background writers wherever they are: the write is then all there or not at
    all, and the next writer can begin (a cancelled BEGIN once left the connection inside a transaction)."""
    store = GameStore(db)
    game_id = await make_game(store)
    for steps in range(40):
        row = await store.get(game_id)
        assert row is not None
        writer = asyncio.create_task(store.update(row, now=6.0, new_moves=[(0, f"bid {steps}")],
                                                  first_ply=row.version))
        for _ in range(steps):
            await asyncio.sleep(0)
        writer.cancel()
        await asyncio.wait({writer})
        fresh = await store.get(game_id)
        assert fresh is not None
        assert len(await store.moves(game_id)) == fresh.version  # each version added one move, or none
        await store.update(fresh, now=7.0, new_moves=[(0, "after")], first_ply=fresh.version)  # the next write begins


async def test_a_burst_of_writes_waits_in_the_writer_queue_instead_of_being_refused(tmp_path: Path) -> None:
    """Issue 24: a writer that holds the lock past the 1 s busy limit (a slow disk, a stalled loop) and 200
    writes queued behind it: every write goes through, in turn, and none is refused as busy."""
    db = await Database.open(tmp_path / "burst.sqlite3")
    store = GameStore(db)
    try:
        held = asyncio.Event()

        async def slow_writer() -> None:
            async with db.transaction():
                held.set()
                await asyncio.sleep(1.5)

        slow = asyncio.create_task(slow_writer())
        await held.wait()
        made = await asyncio.gather(*(make_game(store) for _ in range(200)))
        await slow
        assert len(set(made)) == 200
    finally:
        await db.close()
