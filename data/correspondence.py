"""Correspondence bookkeeping beside the games: reminders sent, notification preferences, vacations.

The clock state itself lives on the game row (``GameRow.clock``, data/store.py); these tables say who was
reminded of which turn, how a player wants to hear about their turns, and when they are away.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from data.db import Database, Tx


@dataclass(frozen=True)
class Away:
    """One vacation: ``user_id`` is away from ``starts`` to ``ends``."""

    user_id: int
    starts: float
    ends: float


async def take_digest(conn: Tx, user_id: int, due_at: float, following: float) -> bool:
    """Inside a transaction: move the digest due at ``due_at`` to ``following``; False when a concurrent tick
    (another process) took it first. The digest it owes is written in the same transaction."""
    return await conn.execute("UPDATE notify_prefs SET next_digest = ? WHERE user_id = ? AND next_digest = ?",
                              (following, user_id, due_at)) == 1


async def record_reminder(conn: Tx, game_id: int, seat: int, turn_start: float, now: float) -> bool:
    """Inside a transaction: note that ``seat`` was reminded of the turn that began at ``turn_start``.
    False when it was noted already (a concurrent tick): only the first one sends it."""
    return await conn.execute("INSERT INTO reminders (game_id, seat, turn_start, sent_at) VALUES (?, ?, ?, ?)"
                              " ON CONFLICT DO NOTHING", (game_id, seat, turn_start, now)) == 1


async def lock_vacations(conn: Tx, user_id: int) -> None:
    """Inside a transaction: serialize it with every other vacation request of the user until it ends, so the
    allowance read next and the vacation inserted after it cannot interleave with a second request's."""
    await conn.lock(f"vacations-of-{user_id}")


async def vacation_end(conn: Tx, user_id: int, now: float) -> float | None:
    """When the user's running (or planned) vacation ends, or None."""
    found = await conn.fetchone("SELECT MAX(ends) AS ends FROM vacations WHERE user_id = ? AND ends > ?",
                                (user_id, now))
    return float(found["ends"]) if found and found["ends"] is not None else None


async def vacation_days(conn: Tx, user_id: int, year: int) -> int:
    """Vacation days the user took in ``year``."""
    used = await conn.fetchone("SELECT COALESCE(SUM(days), 0) AS used FROM vacations WHERE user_id = ?"
                               " AND year = ?", (user_id, year))
    return int(used["used"]) if used else 0


async def insert_vacation(conn: Tx, user_id: int, year: int, starts: float, ends: float, days: int) -> None:
    await conn.execute("INSERT INTO vacations (user_id, year, starts, ends, days) VALUES (?, ?, ?, ?, ?)",
                       (user_id, year, starts, ends, days))


class CorrespondenceStore:
    """Reminders, notification preferences and vacations."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def reminded(self, game_id: int) -> list[tuple[int, float]]:
        """(seat, turn start) of every reminder sent in the game."""
        rows = await self.db.fetchall("SELECT seat, turn_start FROM reminders WHERE game_id = ?", (game_id,))
        return [(int(r["seat"]), float(r["turn_start"])) for r in rows]

    async def notify_mode(self, user_id: int) -> str | None:
        """The user's chosen mode, or None when they never chose."""
        found = await self.db.fetchone("SELECT mode FROM notify_prefs WHERE user_id = ?", (user_id,))
        return str(found["mode"]) if found else None

    async def set_notify(self, user_id: int, mode: str, next_digest: float | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("INSERT INTO notify_prefs (user_id, mode, next_digest) VALUES (?, ?, ?)"
                               " ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode,"
                               " next_digest = excluded.next_digest", (user_id, mode, next_digest))

    async def due_digests(self, now: float, limit: int | None = None) -> list[int]:
        """Users whose digest is due, earliest first (index ``notify_prefs_digest``)."""
        sql = "SELECT user_id FROM notify_prefs WHERE next_digest <= ? ORDER BY next_digest, user_id"
        rows = await self.db.fetchall(sql + " LIMIT ?", (now, limit)) if limit is not None \
            else await self.db.fetchall(sql, (now,))
        return [int(r["user_id"]) for r in rows]

    async def next_digest(self, user_id: int) -> float | None:
        found = await self.db.fetchone("SELECT next_digest FROM notify_prefs WHERE user_id = ?", (user_id,))
        return float(found["next_digest"]) if found and found["next_digest"] is not None else None

    async def postpone_digest(self, user_id: int, until: float) -> None:
        """Push a user's due digest to ``until`` (building it keeps failing): the scheduler looks again then."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE notify_prefs SET next_digest = ? WHERE user_id = ? AND next_digest < ?",
                               (until, user_id, until))

    async def move_digest(self, user_id: int, due_at: float, following: float) -> bool:
        """Move the digest due at ``due_at`` to ``following``; False when a concurrent tick took it first."""
        async with self.db.transaction() as conn:
            return await conn.execute("UPDATE notify_prefs SET next_digest = ? WHERE user_id = ? AND next_digest = ?",
                                      (following, user_id, due_at)) == 1

    async def vacations(self, users: Iterable[int], since: float) -> list[Away]:
        """Vacations of these users still running at ``since`` or later."""
        wanted = sorted(set(users))
        found: list[Away] = []
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            rows = await self.db.fetchall(f"SELECT user_id, starts, ends FROM vacations WHERE user_id IN ({marks})"
                                          " AND ends > ?", (*chunk, since))
            found += [Away(int(r["user_id"]), float(r["starts"]), float(r["ends"])) for r in rows]
        return found

    async def add_vacation(self, user_id: int, year: int, starts: float, ends: float, days: int) -> None:
        """A vacation as given, unchecked (fixtures); ``/vacation`` checks it first (``Correspondence.vacation``)."""
        async with self.db.transaction() as conn:
            await insert_vacation(conn, user_id, year, starts, ends, days)
