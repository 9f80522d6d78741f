"""The PostgreSQL backend on a real server: placeholders, concurrent moves from two processes' pools,
locks that make a write busy instead of hanging, and migrations that two processes may run at once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import asyncpg
import pytest

from data.db import SQLITE_MIGRATIONS, Busy, Database, StaleVersion, migration_files
from data.postgres import POSTGRES_MIGRATIONS, PostgresDatabase, SchemaTooNew, lock_id, migrate, numbered, rowcount
from data.store import GameStore, Seat
from tests.pg import PgServer


@pytest.fixture
async def url(pg_server: PgServer) -> AsyncIterator[str]:
    async with pg_server.fresh_database() as found:
        yield found


def test_placeholders_are_numbered_outside_literals_names_and_comments() -> None:
    sql = "SELECT '?', \"a?\", 'it''s ?' FROM t WHERE a = ? AND b IN (?, ?) -- ?\n/* ? */ AND c = ?"
    assert numbered(sql) == ("SELECT '?', \"a?\", 'it''s ?' FROM t WHERE a = $1 AND b IN ($2, $3) -- ?\n"
                             "/* ? */ AND c = $4")
    assert numbered("SELECT 1") == "SELECT 1"


def test_status_tags_give_row_counts_and_lock_keys_are_stable_64_bit() -> None:
    assert [rowcount(s) for s in ("UPDATE 3", "INSERT 0 1", "DELETE 0", "CREATE TABLE")] == [3, 1, 0, 0]
    assert lock_id("challenges-of-5") == lock_id("challenges-of-5") != lock_id("challenges-of-6")
    assert -2**63 <= lock_id("x") < 2**63


def test_every_sqlite_migration_has_a_postgres_twin_with_the_same_number() -> None:
    sqlite = [n for n, _ in migration_files(SQLITE_MIGRATIONS)]
    assert sqlite and [n for n, _ in migration_files(POSTGRES_MIGRATIONS)] == sqlite


async def make_game(store: GameStore) -> int:
    return await store.create(guild_id=1, channel_id=2**62, game="dicenim", players=2, options={"stones": 9},
                              settings={}, seed="s", creator_id=2**60, seats=[Seat(0, 10, True), Seat(1, 11, True)],
                              now=5.0)


async def test_two_processes_moving_in_one_game_at_once_apply_exactly_one_move(url: str) -> None:
    """Two pools stand for two bot processes. The first holds its transaction open after its version-checked
    UPDATE; the second's UPDATE waits for that row, then finds the version moved and writes nothing."""
    first_db, second_db = await Database.open(url), await Database.open(url)
    try:
        first, second = GameStore(first_db), GameStore(second_db)
        game_id = await make_game(first)
        mine, theirs = await first.get(game_id), await second.get(game_id)
        assert mine is not None and theirs is not None and mine.channel_id == 2**62
        inside = asyncio.Event()

        async def hold(_: object) -> None:
            inside.set()
            await asyncio.sleep(0.3)  # the other process's UPDATE arrives while this one is uncommitted

        async def other() -> int:
            await inside.wait()
            return await second.update(theirs, now=7.0, new_moves=[(1, "take 2")])

        results = await asyncio.gather(first.update(mine, now=6.0, new_moves=[(0, "take 1")], also=hold), other(),
                                       return_exceptions=True)
        assert results[0] == 1 and isinstance(results[1], StaleVersion)
        fresh = await second.get(game_id)
        assert fresh is not None and fresh.version == 1 and fresh.updated_at == 6.0
        assert [(m.seat, m.text) for m in await second.moves(game_id)] == [(0, "take 1")]
    finally:
        await first_db.close()
        await second_db.close()


async def test_moves_go_in_with_their_version_check_in_one_statement_and_never_without_it(url: str) -> None:
    """On PostgreSQL the version-checked UPDATE and the moves it appends are one statement: every move lands,
    numbered from ``first_ply``, with the write's time; a stale version writes none of them."""
    db = await Database.open(url)
    try:
        store = GameStore(db)
        game_id = await make_game(store)
        row = await store.get(game_id)
        assert row is not None
        stale = await store.get(game_id)
        assert await store.update(row, now=6.5, new_moves=[(0, "take 1"), (-1, "roll 3"), (1, "take 2 'x'")]) == 1
        with pytest.raises(StaleVersion):
            await store.update(stale, now=7.0, new_moves=[(0, "take 3")], first_ply=3)
        moves = await store.moves(game_id)
        assert [(m.ply, m.seat, m.text, m.at) for m in moves] == [
            (0, 0, "take 1", 6.5), (1, -1, "roll 3", 6.5), (2, 1, "take 2 'x'", 6.5)]
        assert await store.update(row, now=8.0, new_moves=[(0, "take 3")], first_ply=3) == 2
        assert [m.ply for m in await store.moves(game_id)] == [0, 1, 2, 3]
    finally:
        await db.close()


async def test_a_row_held_by_another_writer_makes_a_write_busy_within_2_seconds(url: str) -> None:
    db = await Database.open(url)
    other = await asyncpg.connect(url)
    try:
        game_id = await make_game(GameStore(db))
        await other.execute("BEGIN")
        await other.execute("UPDATE games SET version = version WHERE id = $1", game_id)
        started = time.monotonic()
        with pytest.raises(Busy):
            async with db.transaction() as tx:
                await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (9.0, game_id))
        assert time.monotonic() - started < 2.0
        await other.execute("ROLLBACK")
        async with db.transaction() as tx:  # free again, and the connection went back to the pool
            assert await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", (9.0, game_id)) == 1
        assert (await db.fetchone("SELECT updated_at FROM games WHERE id = ?", (game_id,)))[0] == 9.0
    finally:
        await other.close()
        await db.close()


async def test_a_single_write_is_one_round_trip_and_busy_on_the_same_terms_as_a_transaction(url: str) -> None:
    """``Database.write`` sends its statement alone (no ``BEGIN``/``COMMIT``: the server's own transaction makes
    it atomic), and a row held by another writer makes it ``Busy`` within the lock timeout, as a transaction."""
    db = await PostgresDatabase.connect(url, pool_size=1)
    other = await asyncpg.connect(url)
    try:
        game_id = await make_game(GameStore(db))
        pid = (await db.fetchall("SELECT pg_backend_pid()"))[0][0]
        rows = await db.write("UPDATE games SET updated_at = ? WHERE id = ? RETURNING id", (7.0, game_id))
        assert [r["id"] for r in rows] == [game_id]
        await asyncio.sleep(0.05)
        stats = await other.fetchrow("SELECT query, xact_start FROM pg_stat_activity WHERE pid = $1", pid)
        assert stats["query"] == "UPDATE games SET updated_at = $1 WHERE id = $2 RETURNING id", "no COMMIT after it"
        assert stats["xact_start"] is None, "no transaction left open"
        with pytest.raises(asyncpg.UniqueViolationError):  # a failing part undoes the whole statement
            await db.write("WITH moved AS (UPDATE games SET updated_at = ? WHERE id = ?)"
                           " INSERT INTO seats (game_id, seat, user_id, team, accepted) VALUES (?, 0, 1, 0, 1)",
                           (8.0, game_id, game_id))
        await other.execute("BEGIN")
        await other.execute("UPDATE games SET version = version WHERE id = $1", game_id)
        started = time.monotonic()
        with pytest.raises(Busy):
            await db.write("UPDATE games SET updated_at = ? WHERE id = ?", (9.0, game_id))
        assert time.monotonic() - started < 2.0
        await other.execute("ROLLBACK")
        assert (await db.fetchone("SELECT updated_at FROM games WHERE id = ?", (game_id,)))[0] == 7.0
        await db.write("UPDATE games SET updated_at = ? WHERE id = ?", (9.0, game_id))  # the connection is back
        assert (await db.fetchone("SELECT updated_at FROM games WHERE id = ?", (game_id,)))[0] == 9.0
    finally:
        await other.close()
        await db.close()


async def test_lock_serializes_transactions_on_a_key_and_waits_past_the_timeout_are_busy(url: str) -> None:
    db = await Database.open(url)
    try:
        order: list[str] = []
        locked = asyncio.Event()

        async def first(hold: float) -> None:
            async with db.transaction() as tx:
                await tx.lock("key")
                locked.set()
                await asyncio.sleep(hold)
                order.append("first")

        async def second() -> None:
            await locked.wait()
            async with db.transaction() as tx:
                await tx.lock("key")
                order.append("second")

        await asyncio.gather(first(0.3), second())
        assert order == ["first", "second"]
        locked.clear()
        holder = asyncio.create_task(first(2.5))
        await locked.wait()
        async with db.transaction() as tx:
            await tx.lock("another key")  # other keys are free
        started = time.monotonic()
        with pytest.raises(Busy):
            await second()
        assert time.monotonic() - started < 2.0
        await holder
    finally:
        await db.close()


async def test_a_released_connection_sends_no_reset_and_keeps_no_lock_or_setting(url: str) -> None:
    """The pool skips asyncpg's reset statement on release (a round trip per read and per transaction): the
    server's last statement on the connection is our own, and nothing the bot does leaves state behind."""
    db = await PostgresDatabase.connect(url, pool_size=1)
    watcher = await asyncpg.connect(url)
    try:
        pid = (await db.fetchall("SELECT pg_backend_pid()"))[0][0]
        await db.fetchall("SELECT 'the last statement'")
        await asyncio.sleep(0.05)
        last = await watcher.fetchval("SELECT query FROM pg_stat_activity WHERE pid = $1", pid)
        assert last == "SELECT 'the last statement'"
        async with db.transaction() as tx:
            await tx.lock("held in a transaction")
            assert int((await tx.fetchone("SELECT pg_backend_pid()"))[0]) == pid  # the one pooled connection
        assert await watcher.fetchval("SELECT pg_try_advisory_lock($1)", lock_id("held in a transaction"))
        timeout = await db.fetchall("SELECT current_setting('lock_timeout')")
        assert timeout[0][0] != "0"  # the pool's server_settings stay on the connection
    finally:
        await watcher.close()
        await db.close()


async def test_processes_starting_at_once_all_migrate_and_each_migration_applies_once(pg_server: PgServer) -> None:
    async with pg_server.fresh_database(migrated=False) as empty:
        started = await asyncio.gather(*(PostgresDatabase.connect(empty, pool_size=2) for _ in range(3)))
        try:
            rows = await started[0].fetchall("SELECT version FROM schema_version ORDER BY version")
            numbers = [n for n, _ in migration_files(POSTGRES_MIGRATIONS)]
            assert [r["version"] for r in rows] == numbers
            game_id = await make_game(GameStore(started[2]))
            assert (await started[1].fetchone("SELECT creator_id FROM games WHERE id = ?", (game_id,)))[0] == 2**60
            assert await migrate(empty) == numbers[-1]  # a later start applies nothing
        finally:
            for db in started:
                await db.close()


async def test_a_schema_newer_than_this_bot_is_refused_with_a_clear_message(url: str) -> None:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (999, '999_future.sql', 0)")
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew, match="newer version"):
        await Database.open(url)
