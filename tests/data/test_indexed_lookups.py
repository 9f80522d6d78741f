"""Migration 007: settings that start-up and rematches look up are real, indexed columns, and the queries that
run at start-up, per scheduler tick and per ``/leaderboard`` read an index instead of scanning a table."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from dataclasses import fields
from pathlib import Path
from typing import Any

import asyncpg

import engines
from data import bulk
from data import ratings as stored_ratings
from data.bulk import WholeGame
from data.db import SQLITE_MIGRATIONS, Database, migration_files
from data.postgres import POSTGRES_MIGRATIONS, PostgresDatabase, migrate, numbered
from data.ratings import Rating, RatingStore
from data.store import GameRow, GameStore, Seat
from host.app import Host
from host.ratings import service as ratings
from host.ratings.service import GLOBAL
from tests.conftest import FakeClock, text_renderer
from tests.engines.toy import DiceNim
from tests.pg import PgServer

ALICE, BOB = 101, 202


def old_rows() -> list[tuple[str, tuple[object, ...]]]:
    """What a database as migration 006 left it holds: games whose match settings are only JSON, and ratings
    without the board columns. Portable SQL, written to either backend."""
    game = ("INSERT INTO games (id, game, players, settings, status, seed, creator_id, created_at, updated_at)"
            " VALUES (?, 'dicenim', 2, ?, ?, 's', 1, 0, 0)")
    games: list[tuple[int, str, dict[str, object]]] = [
        (1, "finished", {"match": 3}),
        (2, "finished", {"match": 3, "match_of": 1, "match_game": 2}),  # the match's latest game
        (3, "challenge", {"match": 1, "rematch_of": 2}),
        (4, "finished", {"rated": True}),
        (5, "finished", {"match": 5}),  # a new match whose second game was never created (a crash)
    ]
    rating = ("INSERT INTO ratings (user_id, game, scope, season, mu, sigma, games) VALUES (?, 'zrtz', 'global', 0,"
              " ?, ?, ?)")
    return ([(game, (game_id, json.dumps(settings), status)) for game_id, status, settings in games]
            + [(rating, (7, 30.0, 2.5, 0)), (rating, (8, 26.0, 2.0, 6)), (rating, (9, 30.0, 3.0, 6)),
               (rating, (10, 20.0, 4.0, 6))])


async def test_migration_007_copies_settings_into_columns_and_marks_unfinished_matches(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for number, file in migration_files(SQLITE_MIGRATIONS):
        if number <= 6:
            conn.executescript(file.read_text())
    conn.execute("PRAGMA user_version = 6")
    for sql, params in old_rows():
        conn.execute(sql, params)
    conn.commit()
    conn.close()
    db = await Database.open(path)
    try:
        await check_migrated(db)
    finally:
        await db.close()


async def test_migration_007_does_the_same_on_postgresql(pg_server: PgServer, tmp_path: Path) -> None:
    """The PostgreSQL twin of 007 (its own SQL: ``settings::jsonb``) on a database that 001-006 built."""
    upto_006 = tmp_path / "upto006"
    upto_006.mkdir()
    for number, file in migration_files(POSTGRES_MIGRATIONS):
        if number <= 6:
            (upto_006 / file.name).write_text(file.read_text())
    async with pg_server.fresh_database(migrated=False) as url:
        assert await migrate(url, upto_006) == 6
        conn = await asyncpg.connect(url)
        try:
            for sql, params in old_rows():
                await conn.execute(numbered(sql), *params)
        finally:
            await conn.close()
        db = await Database.open(url)
        try:
            assert (await db.fetchone("SELECT MAX(version) FROM schema_version"))[0] > 6
            await check_migrated(db)
        finally:
            await db.close()


async def check_migrated(db: Database) -> None:
    store = GameStore(db)
    rows = {row.id: row for row in await store.get_many([1, 2, 3, 4, 5])}
    assert (rows[2].match_of, rows[2].match_len, rows[1].match_of) == (1, 3, None)
    assert (rows[3].rematch_of, rows[3].match_len, rows[4].match_len) == (2, 1, 1)
    assert [row.id for row in await store.pending_matches()] == [2, 5]
    assert [row.id for row in await store.match_games(1)] == [1, 2]
    assert (await db.fetchone("SELECT rank_score FROM ratings WHERE user_id = 7"))[0] == 30.0 - 3 * 2.5
    board = RatingStore(db)
    found = await board.top("zrtz", GLOBAL, 0, min_games=0, limit=5)
    assert [(r.user_id, r.mu) for r in found] == [(7, 30.0), (9, 30.0), (8, 26.0), (10, 20.0)]
    assert await board.count("zrtz", GLOBAL, 0, min_games=5) == 3  # the bucket counts were backfilled
    places = [await board.place(r, min_games=5) for r in found]
    assert places == [None, 1, 2, 3]


async def test_the_store_keeps_the_columns_in_step_with_settings(db: Database) -> None:
    store = GameStore(db)
    first = await store.create(guild_id=None, channel_id=None, game="dicenim", players=2, options={},
                               settings={"match": 3}, seed="s", creator_id=ALICE,
                               seats=[Seat(0, ALICE, True), Seat(1, BOB, True)], now=1.0)
    row = await store.get(first)
    assert row is not None and (row.match_len, row.match_pending) == (3, False)
    await store.update(row, now=2.0, status="finished", result={"ranks": [1, 2]})
    assert row.match_pending and [r.id for r in await store.pending_matches()] == [first]
    assert await store.settle_match(first) and not await store.settle_match(first), "settled exactly once"
    assert await store.pending_matches() == []
    again, new = await store.create_rematch(rematch_of=first, guild_id=None, channel_id=None, game="dicenim",
                                            players=2, options={}, settings={"match": 1}, seed="t",
                                            creator_id=BOB, seats=[Seat(0, BOB, True), Seat(1, ALICE, False)],
                                            now=3.0)
    assert new and (await store.get(again)).rematch_of == first  # type: ignore[union-attr]
    same, new = await store.create_rematch(rematch_of=first, guild_id=None, channel_id=None, game="dicenim",
                                           players=2, options={}, settings={"match": 1}, seed="u",
                                           creator_id=ALICE, seats=[Seat(0, ALICE, True), Seat(1, BOB, False)],
                                           now=4.0)
    assert (same, new) == (again, False)


async def test_a_decided_match_leaves_no_pending_work_for_start_up(host: Host) -> None:
    lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3})
    first = (await host.lobby.accept(lobby.row.id, BOB)).row.id
    second = (await host.turns.resign(first, BOB)).next_game
    assert second is not None and await host.store.pending_matches() == []  # the next game settled the first
    final = await host.turns.resign(second.row.id, BOB)
    assert final.next_game is None and "wins the match" in final.caption
    assert await host.store.pending_matches() == [], "a decided match is settled, so start-up never reads it"
    assert await host.recover() == []


FULL_SCAN = re.compile(r"\bSCAN (\w+)\b(?! USING (COVERING )?INDEX games_match_pending)")
"""A plan step that reads a whole table (or a whole index other than the partial one of pending matches)."""


async def sqlite_plans(db: Database, statements: list[str]) -> list[str]:
    """``EXPLAIN QUERY PLAN`` of each traced SELECT, as one line per statement."""
    plans = []
    for sql in dict.fromkeys(s for s in statements if s.lstrip().upper().startswith("SELECT")):
        steps = await db.fetchall("EXPLAIN QUERY PLAN " + sql)
        plans.append(sql + "\n  " + " | ".join(str(step[3]) for step in steps))
    return plans


async def test_start_up_ticks_and_boards_read_indexes_only(tmp_path: Path) -> None:
    """Every query ``recover()``, a scheduler tick's ``due`` and ``/leaderboard`` run is planned on an index
    (SQLite's plans, read through its trace hook; the PostgreSQL twin is the next test)."""
    db = await Database.open(tmp_path / "plans.sqlite3")
    try:
        host = Host(db, games={**engines.GAMES, DiceNim.name: DiceNim}, renderer=text_renderer, now=FakeClock())
        await seed_for_plans(db, host)
        traced: list[str] = []
        db.conn.set_trace_callback(traced.append)  # type: ignore[attr-defined]  # the writer, on this thread
        await db.reader.set_trace_callback(traced.append)  # type: ignore[attr-defined]
        await read_as_start_up_ticks_and_boards_do(db, host)
        db.conn.set_trace_callback(None)  # type: ignore[attr-defined]
        await db.reader.set_trace_callback(None)  # type: ignore[attr-defined]
        plans = await sqlite_plans(db, traced)
        assert len(plans) >= 8
        assert [plan for plan in plans if FULL_SCAN.search(plan.split("\n")[1])] == []
    finally:
        await db.close()


def full_reads(node: dict[str, Any], partial: set[str]) -> list[str]:
    """Plan nodes (PostgreSQL, JSON) that read a whole table, or a whole index that is not a partial one."""
    found = []
    kind, index = node["Node Type"], node.get("Index Name")
    if kind == "Seq Scan":
        found.append(f"Seq Scan on {node['Relation Name']}")
    elif kind in ("Index Scan", "Index Only Scan", "Bitmap Index Scan") and "Index Cond" not in node \
            and index not in partial:
        found.append(f"{kind} of all of {index}")
    for child in node.get("Plans", []):
        found.extend(full_reads(child, partial))
    return found


def node_types(node: dict[str, Any]) -> set[str]:
    return {node["Node Type"]} | {t for child in node.get("Plans", []) for t in node_types(child)}


async def test_start_up_ticks_and_boards_read_indexes_only_on_postgresql(pg_url: str) -> None:
    """The same queries, logged by asyncpg and planned by PostgreSQL with sequential scans switched off: a
    query no index can serve still shows a Seq Scan then (tables this small would be scanned anyway, so the
    planner's free choice would prove nothing). An index read end to end without an Index Cond counts as a
    full read too, except on the partial indexes, which hold only the rows start-up wants. A board page reads
    the rank index in order and stops at its LIMIT, with no sort of the whole board."""
    db = await PostgresDatabase.connect(pg_url, pool_size=2)  # two connections, both logged
    try:
        host = Host(db, games={**engines.GAMES, DiceNim.name: DiceNim}, renderer=text_renderer, now=FakeClock())
        await seed_for_plans(db, host)
        logged: list[tuple[str, tuple[Any, ...]]] = []
        held = [await db.pool.acquire() for _ in range(2)]
        for conn in held:
            conn.add_query_logger(lambda query: logged.append((query.query, tuple(query.args))))
        for conn in held:
            await db.pool.release(conn)
        await read_as_start_up_ticks_and_boards_do(db, host)
        await asyncio.sleep(0)  # the loggers are called soon after each query
        selects = {(sql, args): None for sql, args in logged  # not the pool's own reset script (several commands)
                   if sql.lstrip().upper().startswith("SELECT") and ";" not in sql}
        assert len(selects) >= 8
        async with db.pool.acquire() as conn:
            await conn.execute("SET enable_seqscan = off")
            partial = {r["indexname"] for r in await conn.fetch("SELECT indexname FROM pg_indexes"
                                                                " WHERE indexdef LIKE '% WHERE %'")}
            assert "games_match_pending" in partial
            bad, pages = [], []
            for sql, args in selects:
                plan = json.loads(await conn.fetchval("EXPLAIN (FORMAT JSON) " + sql, *args))[0]["Plan"]
                bad.extend(f"{sql}\n  {step}" for step in full_reads(plan, partial))
                if "ORDER BY rank_bucket" in sql:  # a board page: read in the index's order, no sort of the board
                    pages.append("Limit" in node_types(plan) and "Sort" not in node_types(plan))
            await conn.execute("RESET enable_seqscan")
        assert bad == []
        assert len(pages) >= 2 and all(pages), "a board page stops at its LIMIT in the index's order"
    finally:
        await db.close()


async def seed_for_plans(db: Database, host: Host) -> None:
    for _ in range(3):  # a few games in every state start-up looks at
        lobby = await host.lobby.challenge(game="dicenim", creator=ALICE, opponents=[BOB], settings={"match": 3},
                                     channel_id=5)
        await host.turns.resign((await host.lobby.accept(lobby.row.id, BOB)).row.id, ALICE)
    await stored_ratings.put_many(db, [Rating(u, "zrtz", GLOBAL, 0, 25.0 + u % 7, 3.0, 6 + u % 5, 3, 3, 0)
                                       for u in range(1, 300)])


async def read_as_start_up_ticks_and_boards_do(db: Database, host: Host) -> None:
    await host.recover()
    await host.correspondence.due(host.now(), limit=8)
    await ratings.leaderboard(db, "zrtz", GLOBAL, user_id=250, bots_too=False)
    await ratings.leaderboard(db, "zrtz", GLOBAL, user_id=3)
    await ratings.profile(db, 3, GLOBAL)
    await host.store.find_by_thread(77)


async def test_game_row_declares_every_column_of_games(db: Database) -> None:
    """A migration that adds a column to ``games`` must add it to ``GameRow`` too (issue 13)."""
    game = await GameStore(db).create(guild_id=None, channel_id=None, game="dicenim", players=2, options={},
                                      settings={}, seed="s", creator_id=ALICE, seats=[Seat(0, ALICE, True)], now=1.0)
    row = await db.fetchone("SELECT * FROM games WHERE id = ?", (game,))
    assert set(row.keys()) == {f.name for f in fields(GameRow)} - {"seats"}


async def test_due_hands_out_a_batch_earliest_first_not_the_backlog(host: Host) -> None:
    now = host.now()
    backlog = [WholeGame("dicenim", 2, "active", (ALICE, BOB), deadline=now - 100 + i, remind_at=now - 50 - i)
               for i in range(30)]
    ids = await bulk.load_games(host.db, backlog)
    due = await host.correspondence.due(now, limit=4)
    assert due.timeouts == ids[:4], "the deadlines that passed first"
    assert due.reminders == ids[::-1][:4], "the reminders due first"
    assert len((await host.correspondence.due(now)).timeouts) == 30
