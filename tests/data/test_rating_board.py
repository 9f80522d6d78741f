"""Board places and sizes come from bucket counts (data/ratings.py); they must equal a plain sort of the board."""

from __future__ import annotations

import random

from data import bulk
from data import ratings as stored
from data.bulk import WholeGame
from data.db import Database, Row, Tx
from data.ratings import COUNTED_FROM, Rating, RatingChange, RatingStore
from host.play import bots

BOTS = tuple(bots.AI_USERS.values())


def expected(board: list[Rating], exclude: tuple[int, ...] = ()) -> list[int]:
    """User ids of the counted players, best first, by the rule itself."""
    counted = [r for r in board if r.games >= COUNTED_FROM and r.user_id not in exclude]
    counted.sort(key=lambda r: (-(r.mu - 3 * r.sigma), -r.games, r.user_id))
    return [r.user_id for r in counted]


def random_board(rng: random.Random, players: int) -> list[Rating]:
    """Scores on a coarse grid, so many ties, with a few on exact bucket edges; the AI levels play too."""
    users = [*range(1, players + 1), *BOTS]
    return [Rating(u, "zrtz", "global", 0, rng.choice([25.0, 27.5, 30.0, 20.3, 23.1]) + rng.randrange(-3, 4) * 0.1,
                   rng.choice([1.0, 2.0, 0.1, 8.333]), rng.randrange(0, 9), 0, 0, 0) for u in users]


async def test_places_and_sizes_equal_a_plain_sort(db: Database) -> None:
    rng = random.Random(3)
    board = random_board(rng, 400)
    await stored.put_many(db, board)
    store = RatingStore(db)
    for exclude in ((), BOTS):
        order = expected(board, exclude)
        assert await store.count("zrtz", "global", 0, min_games=COUNTED_FROM, exclude=exclude) == len(order)
        top = await store.top("zrtz", "global", 0, min_games=COUNTED_FROM, limit=30, exclude=exclude)
        assert [r.user_id for r in top] == order[:30]
        for rating in board:
            place = await store.place(rating, min_games=COUNTED_FROM, exclude=exclude)
            assert place == (order.index(rating.user_id) + 1 if rating.user_id in order else None), rating
    slow = await store.place(board[0], min_games=1)  # another threshold: counted row by row, same rule
    everyone = [r for r in board if r.games >= 1]
    everyone.sort(key=lambda r: (-(r.mu - 3 * r.sigma), -r.games, r.user_id))
    assert slow == ([r.user_id for r in everyone].index(board[0].user_id) + 1 if board[0].games >= 1 else None)


async def test_rated_games_move_players_between_buckets(db: Database) -> None:
    """Each rated game updates the counts in its transaction: they always equal a recount of the board."""
    rng = random.Random(5)
    lines: dict[int, Rating] = {}
    games = await bulk.load_games(db, [WholeGame("zaic", 2, "finished", (1, 2)) for _ in range(300)])
    async with db.transaction() as tx:
        for n in games:
            user = rng.randrange(1, 25)
            old = lines.get(user)
            mu, sigma = rng.uniform(15, 35), rng.uniform(0.5, 8.0)
            await stored.add_changes(tx, [RatingChange(n, user, "zaic", "7", 2, 1, "win", old.mu if old else 25.0,
                                                       old.sigma if old else 8.3, mu, sigma, float(n))])
            lines[user] = Rating(user, "zaic", "7", 2, mu, sigma, (old.games if old else 0) + 1, 0, 0, 0)
    store = RatingStore(db)
    order = expected(list(lines.values()))
    assert await store.count("zaic", "7", 2, min_games=COUNTED_FROM) == len(order) > 0
    for user, line in lines.items():
        found = await store.get(user, "zaic", "7", 2)
        assert found is not None and found.games == line.games
        assert await store.place(found, min_games=COUNTED_FROM) == (order.index(user) + 1 if user in order else None)


class Recording:
    """A transaction that notes the rows each write statement touches, in order."""

    def __init__(self, tx: Tx) -> None:
        self.tx = tx
        self.writes: list[tuple[str, tuple[object, ...]]] = []

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> Row | None:
        return await self.tx.fetchone(sql, params)

    async def execute(self, sql: str, params: tuple[object, ...] = ()) -> int:
        table = sql.split(" INTO ", 1)[1].split(" ", 1)[0] if " INTO " in sql else sql
        self.writes.append((table, tuple(params)))
        return await self.tx.execute(sql, params)


async def test_a_games_rows_are_locked_players_first_then_buckets_in_key_order(db: Database) -> None:
    """Two games finishing at once, their players moving between the same buckets in opposite directions,
    deadlocked on PostgreSQL when each moved its players one by one (-1 here, +1 there). Now every transaction
    locks the players' lines by key and then each bucket once, by key, with its net change."""
    def line(user: int, score: float) -> Rating:
        return Rating(user, "zaic", "global", 0, score + 3.0, 1.0, COUNTED_FROM, 0, 0, 0)

    await stored.put_many(db, [line(1, 10.0), line(2, 20.0)])
    games = await bulk.load_games(db, [WholeGame("zaic", 2, "finished", (1, 2))])
    moves = [RatingChange(games[0], 2, "zaic", "global", 0, 1, "win", 23.0, 1.0, 33.0, 1.0, 1.0),  # bucket 200 -> 300
             RatingChange(games[0], 1, "zaic", "global", 0, 2, "loss", 13.0, 1.0, 23.0, 1.0, 1.0)]  # 100 -> 200
    async with db.transaction() as tx:
        recording = Recording(tx)
        await stored.add_changes(recording, moves)  # type: ignore[arg-type]
    tables = [table for table, _ in recording.writes]
    assert tables == ["ratings", "rating_history", "ratings", "rating_history", "rating_buckets", "rating_buckets"]
    assert [params[0] for table, params in recording.writes if table == "ratings"] == [1, 2], "players by id"
    buckets = [(params[3], params[4]) for table, params in recording.writes if table == "rating_buckets"]
    assert buckets == [(100, -1), (300, 1)], "bucket 200 lost one and gained one: not touched"
    store = RatingStore(db)
    assert await store.count("zaic", "global", 0, min_games=COUNTED_FROM) == 2
    assert [r.user_id for r in await store.top("zaic", "global", 0, min_games=COUNTED_FROM, limit=5)] == [2, 1]
