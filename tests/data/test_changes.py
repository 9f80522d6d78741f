"""Committed game changes heard over PostgreSQL's LISTEN/NOTIFY (data/changes.py, migration 014), by a real
listener on a real server: a commit is heard, a rollback never, and a killed connection comes back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import asyncpg

from data.changes import listen, parse
from data.db import Database
from data.store import GameStore, Seat


async def make_game(store: GameStore) -> int:
    return await store.create(guild_id=1, channel_id=2, game="dicenim", players=2, options={"stones": 9},
                              settings={}, seed="s", creator_id=10, seats=[Seat(0, 10, True), Seat(1, 11, True)],
                              now=5.0)


async def until(check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_the_payload_is_game_and_version_and_anything_else_is_ignored() -> None:
    assert parse("12:7") == (12, 7)
    assert [parse(p) for p in ("", "12", "12:", ":7", "a:b", "12:7:1", "-1:2")] == [None] * 7


async def test_sqlite_has_nothing_to_listen_to(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "one.sqlite3")
    try:
        assert listen(db, lambda _g, _v: None) is None
    finally:
        await db.close()


async def test_another_process_commit_is_heard_and_a_rolled_back_write_never(pg_url: str) -> None:
    """Two pools stand for two processes: the listener of the first hears the second's commits only."""
    mine, theirs = await Database.open(pg_url), await Database.open(pg_url)
    heard: list[tuple[int, int]] = []
    listener = listen(mine, lambda game, version: heard.append((game, version)))
    assert listener is not None
    try:
        await listener.wait_connected(5.0)
        store = GameStore(theirs)
        game_id = await make_game(store)
        row = await store.get(game_id)
        assert row is not None

        async def fail(_tx: object) -> None:
            raise RuntimeError("rolled back")

        try:
            await store.update(row, now=6.0, new_moves=[(0, "take 1")], also=fail)
        except RuntimeError:
            pass
        assert (await store.get(game_id)).version == 0  # type: ignore[union-attr]
        await store.update(row, now=7.0, new_moves=[(0, "take 2")])
        async with theirs.transaction() as tx:  # a bare write outside the store is announced too
            await tx.execute("UPDATE games SET version = version + 1, status = ? WHERE id = ?", ("aborted", game_id))
        async with theirs.transaction() as tx:  # a write that keeps the version is not a game change
            await tx.execute("UPDATE games SET remind_at = ? WHERE id = ?", (9.0, game_id))
        await until(lambda: len(heard) >= 2)
        await asyncio.sleep(0.3)  # anything more would have arrived by now
        assert heard == [(game_id, 1), (game_id, 2)]
    finally:
        await listener.close()
        await mine.close()
        await theirs.close()


async def test_the_listener_connects_again_after_its_connection_is_killed(pg_url: str) -> None:
    db = await Database.open(pg_url)
    admin = await asyncpg.connect(pg_url)
    heard: list[tuple[int, int]] = []
    connects: list[int] = []
    listener = listen(db, lambda game, version: heard.append((game, version)), lambda: connects.append(1),
                      retry=0.5)
    assert listener is not None
    try:
        await listener.wait_connected(5.0)
        store = GameStore(db)
        game_id = await make_game(store)
        row = await store.get(game_id)
        assert row is not None
        killed = listener.pid
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", killed)
        await until(lambda: listener.connections == 2 and listener.connected)  # down too briefly to poll
        assert listener.connections == 2 and len(connects) == 2 and listener.pid != killed
        await store.update(row, now=6.0, new_moves=[(0, "take 1")])
        await until(lambda: heard == [(game_id, 1)])
    finally:
        await listener.close()
        await admin.close()
        await db.close()
    assert not listener.connected
