"""Writes of many rating rows at once (data/ratings.py ``put_many``, ``recount``) beside each other and beside a
finishing game: on PostgreSQL they took row locks in storage order, so two of them, or one and a game, could wait
on each other and one was refused "busy" (a deadlock) or failed on a duplicate bucket row."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from data import bulk
from data import ratings as stored
from data.bulk import WholeGame
from data.db import Database
from data.ratings import COUNTED_FROM, Rating, RatingChange, RatingStore

GUILD = "123"  # a guild's board: its key sorts before "global", the board a finishing game rates first
LIMIT = 20.0
"""Seconds before a test gives up: a lock wait that never ends fails the test rather than hanging it."""


def line(user: int, scope: str, mu: float) -> Rating:
    return Rating(user, "zaic", scope, 0, mu, 1.0, COUNTED_FROM + user % 3, 1, 1, 0)


async def buckets(db: Database) -> list[tuple[str, int, int]]:
    rows = await db.fetchall("SELECT scope, bucket, players FROM rating_buckets ORDER BY scope, bucket")
    return [(r[0], int(r[1]), int(r[2])) for r in rows]


def counted(board: list[Rating]) -> list[tuple[str, int, int]]:
    """The bucket rows a board should have, by the rule itself."""
    count: dict[tuple[str, int], int] = {}
    for r in board:
        if r.games >= COUNTED_FROM:
            key = (r.scope, stored.rank_bucket(stored.rank_score(r.mu, r.sigma)))
            count[key] = count.get(key, 0) + 1
    return [(scope, bucket, players) for (scope, bucket), players in sorted(count.items())]


async def someone_waits(db: Database) -> None:
    """Until another transaction waits for a lock this test holds (SQLite: for the process's write queue)."""
    if db.dialect != "postgres":
        await asyncio.sleep(0.05)
        return
    deadline = time.monotonic() + LIMIT
    while not (await db.fetchall("SELECT 1 FROM pg_locks WHERE NOT granted")):
        assert time.monotonic() < deadline, "the second writer never started waiting"
        await asyncio.sleep(0.005)


async def test_two_imports_of_the_same_lines_in_opposite_orders_both_finish(db: Database) -> None:
    """Old code: on PostgreSQL one of the two deadlocked (busy) or met the other's rows (a duplicate key)."""
    ups = [line(u, "global", 20.0 + u % 40 * 0.25) for u in range(1, 601)]
    downs = [line(u, "global", 30.0 + u % 40 * 0.25) for u in range(600, 0, -1)]
    for _ in range(3):
        await asyncio.wait_for(asyncio.gather(stored.put_many(db, ups), stored.put_many(db, downs)), LIMIT)
        found = {r.user_id: r for r in await RatingStore(db).top("zaic", "global", 0, min_games=0, limit=1000)}
        winner = ups if found[1].mu == ups[0].mu else downs  # one import wrote every line last
        assert sorted(found.values(), key=lambda r: r.user_id) == sorted(winner, key=lambda r: r.user_id)
        assert await buckets(db) == counted(winner)


async def test_two_recounts_at_once_both_finish(db: Database) -> None:
    """Old code: the second deleted nothing (the first's new rows were not yet committed when it looked), then
    inserted rows the first had committed meanwhile: a duplicate key on PostgreSQL."""
    board = [line(u, scope, 10.0 + u) for u in range(1, 40) for scope in ("global", GUILD)]
    await stored.put_many(db, board)
    async with db.transaction() as tx:
        await stored.recount_in(tx)  # a recount held open while another one starts
        second = asyncio.create_task(stored.recount(db))
        await someone_waits(db)
    await asyncio.wait_for(second, LIMIT)
    assert await buckets(db) == counted(board)


async def test_a_recount_beside_a_game_rated_on_two_boards_finishes(db: Database) -> None:
    """A finishing game writes the global board's buckets, then the guild's (host/ratings/service.py
    ``record_result``). Old code: a recount deleted the bucket rows in storage order, the guild's here, then
    waited for the game's global row, while the game waited for the recount's guild row: a deadlock. Locking
    the guild's rows first by key (they sort first) deadlocks the same way, so the recount locks the table."""
    board = [line(u, scope, 10.0 + u) for u in range(1, 40) for scope in ("global", GUILD)]
    await stored.put_many(db, board)
    # Storage order is not key order: a bucket row written last (a game moved a player) is stored last.
    await db.write("UPDATE rating_buckets SET players = players WHERE scope = 'global'")
    games = await bulk.load_games(db, [WholeGame("zaic", 2, "finished", (1, 2))])

    def moved(scope: str, user: int) -> RatingChange:
        old = next(r for r in board if r.user_id == user and r.scope == scope)
        return RatingChange(games[0], user, "zaic", scope, 0, 1, "win", old.mu, old.sigma, old.mu + 5.0, 1.0, 1.0)

    async with db.transaction() as tx:
        await stored.add_changes(tx, [moved("global", 2)])
        recount = asyncio.create_task(stored.recount(db))
        await someone_waits(db)
        await stored.add_changes(tx, [moved(GUILD, 2)])
    await asyncio.wait_for(recount, LIMIT)
    after = [r if r.user_id != 2 else Rating(2, "zaic", r.scope, 0, r.mu + 5.0, 1.0, r.games + 1, 1, 1, 0)
             for r in board]
    assert await buckets(db) == counted(after)


async def test_lines_are_written_in_key_order(tmp_path: Path) -> None:
    """Whatever order an import is given in, its lines are written by key. On SQLite, whose rowids number the
    rows in the order they were written (PostgreSQL's test databases are emptied and reused: no such order)."""
    db = await Database.open(tmp_path / "order.sqlite3")
    try:
        given = [line(u, scope, 10.0 + u % 7) for u in (9, 3, 7, 1, 5) for scope in ("global", GUILD)]
        await stored.put_many(db, given)
        for sql in ("SELECT game, scope, season, user_id FROM ratings ORDER BY rowid",
                    "SELECT game, scope, season, bucket FROM rating_buckets ORDER BY rowid"):
            written = [tuple(r) for r in await db.fetchall(sql)]
            assert written == sorted(written) and len(written) > 2, sql
    finally:
        await db.close()
