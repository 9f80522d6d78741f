"""Durable jobs: what the bot owes (AI turns, posts after a commit, scheduled steps), claimed with a lease.

One mechanism for all deferred work. A job is enqueued inside the transaction that causes it, so the
change and the debt land together. ``claim`` hands due jobs to one worker at a time: the lease keeps
other workers (or processes) off it, and when the worker dies the lease runs out and the job is
claimed again. Handlers must therefore be idempotent (check the game version, a message nonce ...).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, Row, Tx

DEFAULT_LEASE = 60.0
"""Seconds a claimed job stays invisible to other workers; long enough for an AI search and a post."""


@dataclass(frozen=True)
class Job:
    id: int
    kind: str
    game_id: int | None
    payload: dict[str, Any]
    due_at: float
    attempts: int
    """Claims so far, this one included."""
    dedupe: str | None = None
    failures: int = 0
    """Runs that failed (a "not yet" does not count): what the back-off and the give-up count read."""


def _job(row: Row, *, claimed: bool = False) -> Job:
    """``claimed``: the row was read just before this claim counted one more attempt."""
    return Job(row["id"], row["kind"], row["game_id"], json.loads(row["payload"]), row["due_at"],
               row["attempts"] + int(claimed), row["dedupe"], row["failures"])


async def enqueue(conn: Tx, *, kind: str, due_at: float, now: float, game_id: int | None = None,
                  payload: dict[str, Any] | None = None, dedupe: str | None = None) -> None:
    """Add a job inside the caller's transaction; a job with the same ``dedupe`` key already there wins."""
    await conn.execute(
        "INSERT INTO jobs (kind, game_id, dedupe, payload, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING",
        (kind, game_id, dedupe, json.dumps(payload or {}), due_at, now))


async def done_key(conn: Tx, dedupe: str, now: float) -> None:
    """Inside the caller's transaction: the job with this dedupe key is done (its work was done unclaimed)."""
    await conn.execute("UPDATE jobs SET done_at = ?, lease_owner = NULL, lease_until = NULL"
                       " WHERE dedupe = ? AND done_at IS NULL", (now, dedupe))


async def hurry(conn: Tx, game_id: int, kinds: Sequence[str], now: float) -> int:
    """Inside the caller's transaction: a game's pending jobs of ``kinds`` are due now; returns how many."""
    if not kinds:
        return 0
    marks = ", ".join("?" for _ in kinds)
    return await conn.execute(f"UPDATE jobs SET due_at = ? WHERE game_id = ? AND done_at IS NULL"
                              f" AND due_at > ? AND kind IN ({marks})", (now, game_id, now, *kinds))


def skip_locked(conn: Tx) -> str:
    """On PostgreSQL, concurrent claimers pass over rows another transaction is claiming instead of waiting
    (SQLite's writers never overlap)."""
    return " FOR UPDATE SKIP LOCKED" if conn.dialect == "postgres" else ""


def _held(sql: str, params: tuple[Any, ...], claim: tuple[str, int] | None) -> tuple[str, tuple[Any, ...]]:
    """An outcome's update, limited to one claim when it is named: (the worker, the attempt it claimed). The attempt
    tells a worker's stalled run from its own later claim of the same job."""
    if claim is None:
        return sql, params
    return sql + " AND lease_owner = ? AND attempts = ? AND done_at IS NULL", (*params, *claim)


class JobQueue:
    """Claim, finish and retry jobs over one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, *, kind: str, due_at: float, now: float, game_id: int | None = None,
                  payload: dict[str, Any] | None = None, dedupe: str | None = None) -> None:
        """Enqueue in a transaction of its own (when no game change goes with it)."""
        async with self.db.transaction() as conn:
            await enqueue(conn, kind=kind, due_at=due_at, now=now, game_id=game_id, payload=payload, dedupe=dedupe)

    async def claim(self, now: float, owner: str, *, kinds: Sequence[str] | None = None, limit: int = 8,
                    lease: float = DEFAULT_LEASE) -> list[Job]:
        """Due jobs nobody holds, leased to ``owner`` in one transaction so no two workers get the same job."""
        kind_filter = ""
        params: list[Any] = [now, now]
        if kinds:
            kind_filter = f" AND kind IN ({', '.join('?' for _ in kinds)})"
            params += list(kinds)
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                    "SELECT * FROM jobs WHERE done_at IS NULL AND due_at <= ?"
                    " AND (lease_until IS NULL OR lease_until <= ?)" + kind_filter + " ORDER BY due_at, id LIMIT ?"
                    + skip_locked(conn),
                    (*params, limit))
            if rows:
                await conn.executemany(
                    "UPDATE jobs SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                    [(owner, now + lease, r["id"]) for r in rows])
        return [_job(r, claimed=True) for r in rows]

    async def done(self, job_id: int, now: float, *, claim: tuple[str, int] | None = None) -> bool:
        """The job is done. With ``claim`` (worker, attempt), only while that claim still holds the lease: a run
        whose lease ran out and went to another claim must not end the other's run. False when nothing changed."""
        sql, params = _held("UPDATE jobs SET done_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?",
                            (now, job_id), claim)
        async with self.db.transaction() as conn:
            return await conn.execute(sql, params) == 1

    async def extend(self, job_id: int, owner: str, until: float) -> bool:
        """Keep a long job (an AI search) leased while its worker is alive; False when the lease was lost."""
        async with self.db.transaction() as conn:
            changed = await conn.execute("UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ?"
                                        " AND done_at IS NULL", (until, job_id, owner))
        return changed == 1

    async def hurry(self, game_id: int, kinds: Sequence[str], now: float) -> int:
        """Make a game's pending jobs of ``kinds`` due now (what they waited for has happened); returns how many."""
        async with self.db.transaction() as conn:
            return await hurry(conn, game_id, kinds, now)

    async def retry(self, job_id: int, at: float, error: str, *, failed: bool = True,
                    claim: tuple[str, int] | None = None) -> bool:
        """Give the job back, due again at ``at`` (a failed send: Discord down, a rate limit). ``failed``: the run
        counts as a failure (False for "not yet": what it waits for has not happened). ``claim`` as for ``done``."""
        sql, params = _held("UPDATE jobs SET due_at = ?, lease_owner = NULL, lease_until = NULL, last_error = ?,"
                            " failures = failures + ? WHERE id = ?", (at, error[:500], int(failed), job_id), claim)
        async with self.db.transaction() as conn:
            return await conn.execute(sql, params) == 1

    async def give_up(self, job_id: int, now: float, error: str, *, claim: tuple[str, int] | None = None) -> bool:
        """Stop retrying the job but keep it (``given_up_at``) for whoever looks into why; purges pass it over.
        ``claim`` as for ``done``."""
        sql, params = _held("UPDATE jobs SET done_at = ?, given_up_at = ?, lease_owner = NULL, lease_until = NULL,"
                            " last_error = ?, failures = failures + 1 WHERE id = ?", (now, now, error[:500], job_id),
                            claim)
        async with self.db.transaction() as conn:
            return await conn.execute(sql, params) == 1

    async def given_up(self, *, kind: str | None = None) -> list[Job]:
        """Jobs that gave up, newest first (for inspection and tests)."""
        sql, params = "SELECT * FROM jobs WHERE given_up_at IS NOT NULL", ()
        if kind is not None:
            sql, params = sql + " AND kind = ?", (kind,)
        return [_job(r) for r in await self.db.fetchall(sql + " ORDER BY given_up_at DESC, id", params)]

    async def ready_at(self, kinds: Sequence[str]) -> float | None:
        """When the first pending job of ``kinds`` can be claimed (due, and any lease run out); None: none pending.
        One read, so an idle worker looks without opening a write transaction."""
        if not kinds:
            return None
        marks = ", ".join("?" for _ in kinds)
        row = await self.db.fetchone(
            "SELECT MIN(CASE WHEN lease_until IS NOT NULL AND lease_until > due_at THEN lease_until ELSE due_at END)"
            f" AS ready FROM jobs WHERE done_at IS NULL AND kind IN ({marks})", tuple(kinds))
        return row["ready"] if row and row["ready"] is not None else None

    async def pending(self, *, kind: str | None = None, game_id: int | None = None) -> list[Job]:
        """Jobs not yet done, oldest first (for recovery views and tests)."""
        sql = "SELECT * FROM jobs WHERE done_at IS NULL"
        params: list[Any] = []
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if game_id is not None:
            sql += " AND game_id = ?"
            params.append(game_id)
        return [_job(r) for r in await self.db.fetchall(sql + " ORDER BY due_at, id", tuple(params))]

    async def next_due(self) -> float | None:
        """When the earliest pending job falls due, so a worker can sleep until then."""
        row = await self.db.fetchone("SELECT MIN(due_at) AS due FROM jobs WHERE done_at IS NULL")
        return row["due"] if row and row["due"] is not None else None

    async def done_key(self, dedupe: str, now: float) -> None:
        """Mark the job with this dedupe key done (its work was done without claiming it)."""
        async with self.db.transaction() as conn:
            await done_key(conn, dedupe, now)

    async def claim_keys(self, keys: Sequence[str], now: float, owner: str, *,
                         lease: float = DEFAULT_LEASE) -> list[Job]:
        """Claim the named jobs at once, due or not, unless done or leased by someone else."""
        if not keys:
            return []
        marks = ", ".join("?" for _ in keys)
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(
                    f"SELECT * FROM jobs WHERE dedupe IN ({marks}) AND done_at IS NULL"
                    " AND (lease_until IS NULL OR lease_until <= ?) ORDER BY id" + skip_locked(conn), (*keys, now))
            await conn.executemany(
                "UPDATE jobs SET lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                [(owner, now + lease, r["id"]) for r in rows])
        return [_job(r, claimed=True) for r in rows]

    async def hasten(self, kinds: Sequence[str], now: float, within: float, *, owner_prefix: str | None = None) -> int:
        """Pending jobs of these kinds due within ``within`` seconds fall due now, and their leases are freed
        (a restarted process takes over); jobs scheduled further ahead keep their time.

        ``owner_prefix``: only jobs leased by an owner of that name (this process's dead predecessor), for
        when other live processes share the database: their jobs and leases are theirs.

        On PostgreSQL rows another transaction holds are passed over (``SKIP LOCKED``): that transaction is a live
        process finishing, hurrying or claiming the job. One statement over every owed job otherwise waited for
        them in no set order while the first moves' "board shown" locked a game's jobs in another: a lock wait
        past ``WRITE_WAIT`` (a move refused "busy") or a deadlock, at a shard's restart (issue 24's bench)."""
        marks = ", ".join("?" for _ in kinds)
        mine, params = "", [now, now, now + within, *kinds]
        if owner_prefix is not None:
            mine = " AND lease_owner LIKE ?"
            params.append(owner_prefix.replace("%", "").replace("_", "") + "%")
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                f"UPDATE jobs SET due_at = CASE WHEN due_at < ? THEN due_at ELSE ? END, lease_owner = NULL,"
                f" lease_until = NULL WHERE id IN (SELECT id FROM jobs WHERE done_at IS NULL AND due_at <= ?"
                f" AND kind IN ({marks}){mine}{skip_locked(conn)})", params)
        return changed

    async def reschedule_key(self, dedupe: str, at: float) -> None:
        """Make the pending job with this key due at ``at`` (sooner or later than planned)."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE jobs SET due_at = ? WHERE dedupe = ? AND done_at IS NULL", (at, dedupe))

    async def purge_done(self, kinds: Sequence[str], before: float) -> int:
        """Forget jobs of these kinds finished before ``before``: the table holds what is owed, not a history
        (jobs that gave up stay for inspection)."""
        marks = ", ".join("?" for _ in kinds)
        async with self.db.transaction(heavy=True) as conn:  # may delete many rows
            changed = await conn.execute(f"DELETE FROM jobs WHERE done_at < ? AND given_up_at IS NULL"
                                         f" AND kind IN ({marks})", (before, *kinds))
        return changed
