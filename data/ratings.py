"""Ratings and their history: one row per player per game per board, and one history row per rated game.

A board is (game, scope, season). Its order is ``rank_score`` (mu - 3 sigma, stored with the rating so an
index gives the order), then games played, then user id. ``rank_bucket`` (floor of ten times the score) groups
close scores without reordering them, and ``rating_buckets`` counts the players counted on each board
(``COUNTED_FROM`` games or more) per bucket. So the top of a board is an index walk stopped by ``LIMIT``, and
a board's size or a player's place is a sum over a few hundred bucket rows plus a count inside one bucket:
a board of 100,000 players costs about what one of 1,000 does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, Row, Tx

_COLUMNS = "user_id, game, scope, season, mu, sigma, games, wins, losses, draws"
_ORDER = "rank_bucket DESC, rank_score DESC, games DESC, user_id"
"""The board order, as the index ``ratings_rank`` holds it (the bucket first: it follows the score)."""
COUNTED_FROM = 5
"""Games from which a player is counted on a board's size and places (host/ratings/service.py ``MIN_GAMES``); the
bucket counts, and their backfill in migration 007, are kept for this number."""
_HISTORY = "game_id, user_id, game, scope, season, place, result, mu_before, sigma_before, mu, sigma, at"


@dataclass(frozen=True)
class Rating:
    """One player's rating on one board."""

    user_id: int
    game: str
    scope: str
    season: int
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player on one board."""

    game_id: int
    user_id: int
    game: str
    scope: str
    season: int
    place: int
    result: str
    """``win``, ``loss`` or ``draw``."""
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    at: float


def rank_score(mu: float, sigma: float) -> float:
    """The board's order key, the conservative estimate; computed once here so every row agrees."""
    return mu - 3 * sigma


def rank_bucket(score: float) -> int:
    """Never decreases as the score grows, so the buckets keep the board's order (migration 007 computes it the
    same way: ``floor(score * 10)``)."""
    return math.floor(score * 10)


def _ahead(a: Rating, b: Rating) -> bool:
    """Whether ``a`` stands above ``b`` on their board."""
    return (-rank_score(a.mu, a.sigma), -a.games, a.user_id) < (-rank_score(b.mu, b.sigma), -b.games, b.user_id)


def _rating(r: Row) -> Rating:
    return Rating(r["user_id"], r["game"], r["scope"], r["season"], r["mu"], r["sigma"], r["games"], r["wins"],
                  r["losses"], r["draws"])


def _change(r: Row) -> RatingChange:
    return RatingChange(r["game_id"], r["user_id"], r["game"], r["scope"], r["season"], r["place"], r["result"],
                        r["mu_before"], r["sigma_before"], r["mu"], r["sigma"], r["at"])


# ----- writing, inside the transaction that finishes a game ----------------------------------------


async def is_rated(tx: Tx, game_id: int) -> bool:
    """Whether the game already has history rows: a game is never counted twice."""
    return await tx.fetchone("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (game_id,)) is not None


async def rating_of(tx: Tx, user_id: int, game: str, scope: str, season: int) -> tuple[float, float] | None:
    """(mu, sigma), or None for a player new to the board."""
    found = await tx.fetchone("SELECT mu, sigma FROM ratings WHERE user_id = ? AND game = ? AND scope = ?"
                              " AND season = ?", (user_id, game, scope, season))
    return (float(found[0]), float(found[1])) if found else None


async def add_changes(tx: Tx, changes: Sequence[RatingChange]) -> None:
    """Count a game on each player's board line, move them between buckets, keep it in the history.

    Rows are locked in one order every transaction shares: the players' lines by key, then the buckets by key,
    each bucket once with its net change. Two games finishing at once on one board, their players moving between
    the same buckets in opposite directions, deadlocked on PostgreSQL (issue 24's bench: a move refused "busy")."""
    moved: dict[tuple[str, str, int, int], int] = {}
    for c in sorted(changes, key=lambda c: (c.game, c.scope, c.season, c.user_id)):
        old = await tx.fetchone("SELECT games, rank_bucket FROM ratings WHERE user_id = ? AND game = ? AND scope = ?"
                                " AND season = ?", (c.user_id, c.game, c.scope, c.season))
        score = rank_score(c.mu, c.sigma)
        await tx.execute(
            f"INSERT INTO ratings ({_COLUMNS}, rank_score, rank_bucket) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id, game, scope, season) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " rank_score = excluded.rank_score, rank_bucket = excluded.rank_bucket, games = ratings.games + 1,"
            " wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses,"
            " draws = ratings.draws + excluded.draws",
            (c.user_id, c.game, c.scope, c.season, c.mu, c.sigma, int(c.result == "win"), int(c.result == "loss"),
             int(c.result == "draw"), score, rank_bucket(score)))
        games = int(old["games"]) if old else 0
        if games >= COUNTED_FROM:
            key = (c.game, c.scope, c.season, int(old["rank_bucket"]))
            moved[key] = moved.get(key, 0) - 1
        if games + 1 >= COUNTED_FROM:
            key = (c.game, c.scope, c.season, rank_bucket(score))
            moved[key] = moved.get(key, 0) + 1
        await tx.execute(
            f"INSERT INTO rating_history ({_HISTORY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (c.game_id, c.user_id, c.game, c.scope, c.season, c.place, c.result, c.mu_before, c.sigma_before, c.mu,
             c.sigma, c.at))
    for (game, scope, season, bucket), players in sorted(moved.items()):
        if players:
            await _count(tx, game, scope, season, bucket, players)


async def _count(tx: Tx, game: str, scope: str, season: int, bucket: int, players: int) -> None:
    await tx.execute("INSERT INTO rating_buckets (game, scope, season, bucket, players) VALUES (?, ?, ?, ?, ?)"
                     " ON CONFLICT (game, scope, season, bucket) DO UPDATE"
                     " SET players = rating_buckets.players + excluded.players", (game, scope, season, bucket, players))


# ----- reading, for the commands ------------------------------------------------------------------


class RatingStore:
    """Boards and a player's record, read through the (game, scope, season, rank_score, games, user_id) index."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def _board(game: str, scope: str, season: int, min_games: int,
               exclude: Sequence[int]) -> tuple[str, list[Any]]:
        sql = " FROM ratings WHERE game = ? AND scope = ? AND season = ? AND games >= ?"
        params: list[Any] = [game, scope, season, min_games]
        if exclude:
            sql += " AND user_id NOT IN ({})".format(", ".join("?" for _ in exclude))
            params += list(exclude)
        return sql, params

    async def top(self, game: str, scope: str, season: int, *, min_games: int, limit: int,
                  exclude: Sequence[int] = ()) -> list[Rating]:
        """The first ``limit`` players with ``min_games`` games or more, best first, leaving out ``exclude``."""
        where, params = self._board(game, scope, season, min_games, exclude)
        rows = await self.db.fetchall(f"SELECT {_COLUMNS}{where} ORDER BY {_ORDER} LIMIT ?", (*params, limit))
        return [_rating(r) for r in rows]

    async def _excluded(self, game: str, scope: str, season: int, min_games: int,
                        exclude: Sequence[int]) -> list[Rating]:
        """The lines of the excluded players that would count on the board (a few primary-key reads)."""
        found = [await self.get(user, game, scope, season) for user in exclude]
        return [r for r in found if r is not None and r.games >= min_games]

    async def count(self, game: str, scope: str, season: int, *, min_games: int,
                    exclude: Sequence[int] = ()) -> int:
        """How many players qualify for the board."""
        if min_games != COUNTED_FROM:  # no bucket counts for this threshold: count the rows
            where, params = self._board(game, scope, season, min_games, exclude)
            row = await self.db.fetchone(f"SELECT COUNT(*){where}", params)
            return int(row[0]) if row else 0
        row = await self.db.fetchone("SELECT SUM(players) FROM rating_buckets WHERE game = ? AND scope = ?"
                                     " AND season = ?", (game, scope, season))
        total = int(row[0]) if row and row[0] is not None else 0
        return total - len(await self._excluded(game, scope, season, min_games, exclude))

    async def place(self, rating: Rating, *, min_games: int, exclude: Sequence[int] = ()) -> int | None:
        """The player's place on the board (1 = first), or None when they do not qualify for it."""
        if rating.games < min_games or rating.user_id in exclude:
            return None
        score, bucket = rank_score(rating.mu, rating.sigma), rank_bucket(rank_score(rating.mu, rating.sigma))
        closer = " AND (rank_score > ? OR games > ? OR (games = ? AND user_id < ?))"
        if min_games != COUNTED_FROM:
            where, params = self._board(rating.game, rating.scope, rating.season, min_games, exclude)
            row = await self.db.fetchone(f"SELECT COUNT(*){where} AND rank_score >= ?{closer}",
                                         (*params, score, score, rating.games, rating.games, rating.user_id))
            return 1 + (int(row[0]) if row else 0)
        board = (rating.game, rating.scope, rating.season)
        above = await self.db.fetchone("SELECT SUM(players) FROM rating_buckets WHERE game = ? AND scope = ?"
                                       " AND season = ? AND bucket > ?", (*board, bucket))
        inside = await self.db.fetchone(
            "SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ? AND season = ? AND rank_bucket = ?"
            f" AND rank_score >= ? AND games >= ?{closer}",
            (*board, bucket, score, min_games, score, rating.games, rating.games, rating.user_id))
        ahead = (int(above[0]) if above and above[0] is not None else 0) + (int(inside[0]) if inside else 0)
        skipped = [r for r in await self._excluded(*board, min_games, exclude) if _ahead(r, rating)]
        return 1 + ahead - len(skipped)

    async def get(self, user_id: int, game: str, scope: str, season: int) -> Rating | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM ratings WHERE user_id = ? AND game = ? AND scope = ?"
                                     " AND season = ?", (user_id, game, scope, season))
        return _rating(row) if row else None

    async def of_user(self, user_id: int, scope: str, season: int) -> list[Rating]:
        """The player's line in every game on one board, most played first."""
        rows = await self.db.fetchall(f"SELECT {_COLUMNS} FROM ratings WHERE user_id = ? AND scope = ?"
                                      " AND season = ? ORDER BY games DESC, game", (user_id, scope, season))
        return [_rating(r) for r in rows]

    async def best_win(self, user_id: int, game: str, scope: str, season: int) -> RatingChange | None:
        """The history row of the highest-rated opponent (rated before that game) the player placed above."""
        row = await self.db.fetchone(
            "SELECT " + ", ".join(f"opp.{c.strip()}" for c in _HISTORY.split(",")) +
            " FROM rating_history me JOIN rating_history opp"
            " ON opp.game_id = me.game_id AND opp.scope = me.scope AND opp.season = me.season"
            " AND opp.place > me.place WHERE me.user_id = ? AND me.game = ? AND me.scope = ? AND me.season = ?"
            " ORDER BY opp.mu_before - 3 * opp.sigma_before DESC LIMIT 1", (user_id, game, scope, season))
        return _change(row) if row else None

    async def history(self, user_id: int, game: str, scope: str, season: int, limit: int) -> list[RatingChange]:
        """The player's last ``limit`` rated games of one game on one board, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {_HISTORY} FROM rating_history WHERE user_id = ? AND game = ? AND scope = ? AND season = ?"
            " ORDER BY at DESC, game_id DESC LIMIT ?", (user_id, game, scope, season, limit))
        return [_change(r) for r in reversed(rows)]

    async def latest(self, user_id: int, scope: str, season: int, limit: int) -> list[RatingChange]:
        """The player's last ``limit`` rated games on one board, in every game, newest first."""
        rows = await self.db.fetchall(
            f"SELECT {_HISTORY} FROM rating_history WHERE user_id = ? AND scope = ? AND season = ?"
            " ORDER BY at DESC, game_id DESC LIMIT ?", (user_id, scope, season, limit))
        return [_change(r) for r in rows]


async def put_many(db: Database, ratings: Sequence[Rating]) -> None:
    """Write board lines as they are (an import, a benchmark's board, a test's), over any line already there: one
    transaction, the lines by key, then the bucket counts again."""
    async with db.transaction(heavy=True) as tx:  # the recount reads every rating
        await _lock_boards(tx, "ratings, rating_buckets")
        await tx.executemany(
            f"INSERT INTO ratings ({_COLUMNS}, rank_score, rank_bucket) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id, game, scope, season) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
            " games = excluded.games, wins = excluded.wins, losses = excluded.losses, draws = excluded.draws,"
            " rank_score = excluded.rank_score, rank_bucket = excluded.rank_bucket",
            [(r.user_id, r.game, r.scope, r.season, r.mu, r.sigma, r.games, r.wins, r.losses, r.draws,
              rank_score(r.mu, r.sigma), rank_bucket(rank_score(r.mu, r.sigma)))
             for r in sorted(ratings, key=lambda r: (r.game, r.scope, r.season, r.user_id))])
        await recount_in(tx)


async def recount(db: Database) -> None:
    """Count every board's bucket rows again from the ratings (after ratings were changed by hand)."""
    async with db.transaction(heavy=True) as tx:
        await recount_in(tx)


async def _lock_boards(tx: Tx, tables: str) -> None:
    """On PostgreSQL, wait here for every transaction writing these tables, and hold off new writers until this one
    ends (SQLite's writers are one at a time already). Locking the rows, even sorted by key, is not enough: a
    finishing game writes one board's buckets, then another's (``add_changes`` per board), in an order no sort
    of all rows shares, and it may insert a bucket row a recount has not locked. The table lock takes no row
    lock a game could hold, and the recount's count then sees every game that wrote before it: a game that
    writes after it waits, then moves its players from the recounted buckets."""
    if tx.dialect == "postgres":
        await tx.execute(f"LOCK TABLE {tables} IN SHARE ROW EXCLUSIVE MODE")


async def recount_in(tx: Tx) -> None:
    """Every bucket row again, written by key, inside a transaction the caller holds (``recount`` has its own)."""
    await _lock_boards(tx, "rating_buckets")
    await tx.execute("DELETE FROM rating_buckets")
    await tx.execute("INSERT INTO rating_buckets (game, scope, season, bucket, players) SELECT game, scope, season,"
                     " rank_bucket, COUNT(*) FROM ratings WHERE games >= ? GROUP BY game, scope, season, rank_bucket"
                     " ORDER BY game, scope, season, rank_bucket", (COUNTED_FROM,))
