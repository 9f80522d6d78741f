"""The ladder's rows: one ladder per server and game, its players in order, and the games played on it.

Reads of committed data go through the ``Database``; every change runs inside the caller's transaction
(``Tx``), after ``lock`` and ``load``, and ends with ``bump``: the version check that refuses a change
computed from a ladder someone else changed meanwhile (``StaleVersion``), as games do.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, Row, StaleVersion, Tx


@dataclass(frozen=True)
class LadderRow:
    id: int
    guild_id: int
    game: str
    reach: int
    inactive_days: int
    clock: str
    rated: bool
    version: int
    created_at: float


@dataclass(frozen=True)
class Rung:
    """One player's place (1 = top) and the facts the ladder image shows."""

    user_id: int
    place: int
    joined_at: float
    last_active: float
    games: int
    joined_version: int = 0
    """The ladder version this player's join produced: a player who leaves and joins again gets a higher one."""


@dataclass(frozen=True)
class LadderGame:
    game_id: int
    ladder_id: int
    challenger: int
    defender: int
    created_at: float
    result: str | None
    applied_at: float | None
    status: str = ""
    """The game's own status (``challenge``, ``active``, ``finished`` ...), when read with it."""
    ladder_version: int = 0
    """The ladder version its challenge produced: players who joined later (a higher ``joined_version``) are
    not the members it was played between."""

    def members(self, rungs: Iterable[Rung]) -> set[int]:
        """Which of its two players are still the members it was challenged between (on the ladder, and not
        gone and back since): a game missing one of them moves nothing."""
        since = {r.user_id: r.joined_version for r in rungs}
        return {u for u in (self.challenger, self.defender) if u in since and since[u] <= self.ladder_version}


def in_play(games: Iterable[LadderGame], rungs: Sequence[Rung]) -> dict[int, int]:
    """How many ladder games in play (started, not over) each player has, a game counting only for its
    ``members``: one who left and joined again while it was in play does not have it on the new line, the rule
    that makes its result void (docs/tournaments.md, "void")."""
    counts: dict[int, int] = {}
    for game in games:
        if game.status == "active":
            for user in game.members(rungs):
                counts[user] = counts.get(user, 0) + 1
    return counts


def _ladder(row: Row) -> LadderRow:
    return LadderRow(row["id"], row["guild_id"], row["game"], row["reach"], row["inactive_days"], row["clock"],
                     bool(row["rated"]), row["version"], row["created_at"])


def _rung(row: Row) -> Rung:
    return Rung(row["user_id"], row["place"], row["joined_at"], row["last_active"], row["games"],
                row["joined_version"])


def _game(row: Row) -> LadderGame:
    return LadderGame(row["game_id"], row["ladder_id"], row["challenger"], row["defender"], row["created_at"],
                      row["result"], row["applied_at"], row["status"], row["ladder_version"])


LIVE = "g.status IN ('challenge', 'active')"
"""A ladder game not yet over; an aborted or declined challenge simply drops out."""
GAME_COLUMNS = ("SELECT lg.game_id, lg.ladder_id, lg.challenger, lg.defender, lg.created_at, lg.result,"
                " lg.applied_at, g.status, lg.ladder_version FROM ladder_games lg JOIN games g ON g.id = lg.game_id")


class LadderStore:
    """Committed reads for listings and the image; the writes take the caller's transaction."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def find(self, guild_id: int, game: str) -> LadderRow | None:
        row = await self.db.fetchone("SELECT * FROM ladders WHERE guild_id = ? AND game = ?", (guild_id, game))
        return _ladder(row) if row else None

    async def rungs(self, ladder_id: int) -> list[Rung]:
        rows = await self.db.fetchall("SELECT * FROM ladder_players WHERE ladder_id = ? ORDER BY place",
                                      (ladder_id,))
        return [_rung(r) for r in rows]

    async def live_games(self, ladder_id: int) -> list[LadderGame]:
        """Ladder games still waiting or in play, oldest first."""
        rows = await self.db.fetchall(f"{GAME_COLUMNS} WHERE lg.ladder_id = ? AND lg.applied_at IS NULL AND {LIVE}"
                                      " ORDER BY lg.game_id", (ladder_id,))
        return [_game(r) for r in rows]


# ----- inside a transaction ------------------------------------------------------------------

async def ensure(tx: Tx, guild_id: int, game: str, now: float) -> tuple[LadderRow, bool]:
    """The server's ladder of ``game``, created with the default settings if missing; True when new."""
    created = await tx.execute("INSERT INTO ladders (guild_id, game, created_at) VALUES (?, ?, ?)"
                               " ON CONFLICT (guild_id, game) DO NOTHING", (guild_id, game, now))
    row = await tx.fetchone("SELECT * FROM ladders WHERE guild_id = ? AND game = ?", (guild_id, game))
    assert row is not None
    return _ladder(row), created == 1


async def load(tx: Tx, ladder_id: int) -> tuple[LadderRow, list[Rung]] | None:
    """The ladder and its players in order, locked for this transaction (PostgreSQL: an advisory lock)."""
    await tx.lock(f"ladder:{ladder_id}")
    row = await tx.fetchone("SELECT * FROM ladders WHERE id = ?", (ladder_id,))
    if row is None:
        return None
    rungs = await tx.fetchall("SELECT * FROM ladder_players WHERE ladder_id = ? ORDER BY place", (ladder_id,))
    return _ladder(row), [_rung(r) for r in rungs]


async def bump(tx: Tx, ladder: LadderRow, **settings: Any) -> None:
    """The version check (and any settings change) every change ends with."""
    allowed = {"reach", "inactive_days", "clock", "rated"}
    if set(settings) - allowed:
        raise ValueError(f"unknown ladder settings {sorted(set(settings) - allowed)}")
    values = [int(v) if isinstance(v, bool) else v for v in settings.values()]
    assignments = "".join(f", {name} = ?" for name in settings)
    changed = await tx.execute(f"UPDATE ladders SET version = version + 1{assignments} WHERE id = ? AND version = ?",
                               (*values, ladder.id, ladder.version))
    if changed != 1:
        raise StaleVersion(f"ladder {ladder.id} changed since version {ladder.version}")


async def set_order(tx: Tx, ladder_id: int, order: Sequence[int], *, joined: int | None = None,
                    now: float = 0.0, version: int = 0) -> None:
    """Make ``order`` the ladder (top first): players missing from it leave, ``joined`` is added, as a member
    since ``version`` (the ladder version this change produces)."""
    if joined is not None:
        await tx.execute("INSERT INTO ladder_players (ladder_id, user_id, place, joined_at, last_active,"
                         " joined_version) VALUES (?, ?, ?, ?, ?, ?)",
                         (ladder_id, joined, len(order), now, now, version))
    current = await tx.fetchall("SELECT user_id FROM ladder_players WHERE ladder_id = ?", (ladder_id,))
    gone = [r["user_id"] for r in current if r["user_id"] not in set(order)]
    await tx.executemany("DELETE FROM ladder_players WHERE ladder_id = ? AND user_id = ?",
                         [(ladder_id, user) for user in gone])
    await tx.executemany("UPDATE ladder_players SET place = ? WHERE ladder_id = ? AND user_id = ?",
                         [(place, ladder_id, user) for place, user in enumerate(order, start=1)])


async def touch(tx: Tx, ladder_id: int, users: Iterable[int], now: float, *, played: bool = False) -> None:
    """Reset the idle clock of ``users`` (and count a finished game for each when ``played``)."""
    await tx.executemany(f"UPDATE ladder_players SET last_active = ?{', games = games + 1' if played else ''}"
                         " WHERE ladder_id = ? AND user_id = ?", [(now, ladder_id, user) for user in users])


async def add_game(tx: Tx, ladder_id: int, game_id: int, challenger: int, defender: int, now: float,
                   version: int = 0) -> None:
    """Tie a game to the ladder; ``version`` is the ladder version this challenge produces (see ``members``)."""
    await tx.execute("INSERT INTO ladder_games (game_id, ladder_id, challenger, defender, created_at, ladder_version)"
                     " VALUES (?, ?, ?, ?, ?, ?)", (game_id, ladder_id, challenger, defender, now, version))


async def game_of(tx: Tx, game_id: int) -> LadderGame | None:
    row = await tx.fetchone(f"{GAME_COLUMNS} WHERE lg.game_id = ?", (game_id,))
    return _game(row) if row else None


async def settle(tx: Tx, game_id: int, result: str, now: float) -> bool:
    """Record a ladder game's effect once: False when it was recorded already (a job run a second time)."""
    changed = await tx.execute("UPDATE ladder_games SET result = ?, applied_at = ? WHERE game_id = ?"
                               " AND applied_at IS NULL", (result, now, game_id))
    return changed == 1


async def live_between(tx: Tx, ladder_id: int, first: int, second: int) -> LadderGame | None:
    """A ladder game of these two players still waiting or in play."""
    row = await tx.fetchone(f"{GAME_COLUMNS} WHERE lg.ladder_id = ? AND lg.applied_at IS NULL AND {LIVE}"
                            " AND ((lg.challenger = ? AND lg.defender = ?) OR (lg.challenger = ? AND lg.defender = ?))",
                            (ladder_id, first, second, second, first))
    return _game(row) if row else None


async def playing(tx: Tx, ladder_id: int, rungs: Sequence[Rung]) -> set[int]:
    """Players with a ladder game in play that counts for them (``in_play``): they are not idle."""
    rows = await tx.fetchall(f"{GAME_COLUMNS} WHERE lg.ladder_id = ? AND lg.applied_at IS NULL AND g.status = 'active'",
                             (ladder_id,))
    return set(in_play([_game(r) for r in rows], rungs))
