"""The outbox: everything the bot owes players after a commit, written as jobs in that same transaction.

Board posts, a new game's thread, notices, reminders, secret-choice DMs, challenge expiries and the closing of an
ended game's live messages are
rows of the durable ``jobs`` table (data/jobs.py), enqueued by ``GameSession.write`` together with the
change that causes them. The cog that made the change delivers at once and marks the job done; the
job runner (host/worker.py), with the Discord-side senders cogs register through ``register``, delivers
whatever is still pending after ``GRACE`` seconds, and at start-up everything a dead process left behind.
Keys are deterministic (``post:<game>:<ply>``), so the in-process result and the dispatcher name the
same job, and a Discord ``nonce`` derived from the key makes a repeated send return the first message
instead of posting twice.
"""

from __future__ import annotations

import hashlib
import logging
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from data.db import Database, Tx
from data.jobs import Job, JobQueue, enqueue
from host.worker import Backoff, Handler, Worker

log = logging.getLogger(__name__)
__all__ = ["Job", "Outbox", "Owed"]
KINDS = ("thread", "post", "notice", "remind", "choice_dm", "challenge_expire", "digest", "match_next", "retire")
"""Job kinds this outbox owns (AI turns and other scheduled work use the same table with their own kinds)."""
GRACE = 60.0
"""Seconds the process that made a change has to deliver it itself before the dispatcher steps in."""
KEEP_DONE = 7 * 86400.0
"""Seconds a finished job is kept: its key still stops a repeated enqueue (a replayed tick) for a week."""
HAND_OVER = 2.0
"""Seconds before the dispatcher retries what the process could not deliver itself (Discord refused it)."""
LEASE = 120.0
BACKOFF = Backoff(first=5.0, cap=3 * 3600.0)
GIVE_UP = 12
"""Failures after which an owed message is given up (the 11 waits between them add up to 2.8 hours): logged at
ERROR with its key, and kept."""
LANE = "outbox"
PURGE_EVERY = 3600.0
CRASH_ENV = "ZGAMES_CRASH_AT"
"""Test-only: the named point (``start``, ``move``, ``end``) at which the process SIGKILLs itself."""


@dataclass(frozen=True)
class Owed:
    """One thing owed: ``kind`` picks the dispatcher's handler, ``key`` makes it unique (the dedupe key)."""

    kind: str
    key: str
    game_id: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    due_in: float | None = None
    """Seconds until the dispatcher may take it: ``GRACE`` unless scheduled (a challenge's expiry)."""


def thread_key(game_id: int) -> str:
    return f"thread:{game_id}"


def post_key(game_id: int, ply: int) -> str:
    return f"post:{game_id}:{ply}"


def choice_key(game_id: int, ply: int, user_id: int) -> str:
    return f"dm:{game_id}:{ply}:{user_id}"


def retire_key(game_id: int) -> str:
    return f"retire:{game_id}"


def retired(game_id: int) -> Owed:
    """Owed by the write that ends a game (finished or aborted): what stays live of it is closed (a secret-choice menu,
    a draw offer, an aborted game's last board), right after its final board or, after a crash, by the dispatcher."""
    return Owed("retire", retire_key(game_id), game_id)


def nonce(key: str | None) -> str | None:
    """A Discord message nonce (at most 25 characters) for a job key: the same key, the same nonce.
    None without a key: a shared nonce would make Discord swallow every later, different message."""
    return hashlib.sha256(key.encode()).hexdigest()[:25] if key else None


async def write(conn: Tx, owed: Sequence[Owed], now: float) -> None:
    """Enqueue inside the caller's transaction; an existing job with the same key is kept."""
    for item in owed:
        due = GRACE if item.due_in is None else item.due_in
        await enqueue(conn, kind=item.kind, due_at=now + due, now=now, game_id=item.game_id,
                      payload=item.payload, dedupe=item.key)


def register(worker: Worker, kind: str, handler: Handler, outbox: Outbox) -> None:
    """A Discord-side sender for one outbox kind, with the outbox's policy: one lane, in order (a thread before
    its posts), ``catch_up`` at start-up (the process that would have sent it is gone)."""
    worker.register(kind, handler, lease=LEASE, backoff=BACKOFF, give_up=GIVE_UP, lane=LANE, catch_up=True)
    if "outbox-purge" not in worker.periodic:
        worker.every("outbox-purge", PURGE_EVERY, lambda: outbox.purge(worker.now()))


def crash_point(name: str) -> None:
    """Test hook: die like a SIGKILL at ``name`` when ``ZGAMES_CRASH_AT`` says so (never set in production)."""
    if os.environ.get(CRASH_ENV) == name:
        log.warning("crash point %s reached: killing the process (test hook)", name)
        os.kill(os.getpid(), signal.SIGKILL)


class Outbox:
    """Claim, finish and retry the outbox's jobs."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.jobs = JobQueue(db)

    async def owe(self, owed: Sequence[Owed], now: float) -> None:
        """Owe messages that no game change carries (a hint's notice): kept even if this process dies now."""
        async with self.db.transaction() as tx:
            await write(tx, owed, now)

    async def done(self, key: str | None, now: float) -> None:
        """The owed thing was delivered by the process that made it."""
        if key is not None:
            await self.jobs.done_key(key, now)

    async def hand_over(self, key: str | None, now: float) -> None:
        """Delivering it here failed: the dispatcher takes over soon, with its retries and back-off."""
        if key is not None:
            await self.jobs.reschedule_key(key, now + HAND_OVER)

    async def claim(self, now: float, owner: str, *, keys: Sequence[str] | None = None, lease: float = 120.0,
                    limit: int = 8) -> list[Job]:
        """Due jobs (or, with ``keys``, exactly those, due or not) leased to ``owner``."""
        if keys is not None:
            return await self.jobs.claim_keys(keys, now, owner, lease=lease)
        return await self.jobs.claim(now, owner, kinds=KINDS, limit=limit, lease=lease)

    async def purge(self, now: float, keep: float = KEEP_DONE) -> int:
        """Drop finished jobs older than ``keep`` seconds (their keys only guard against late repeats)."""
        return await self.jobs.purge_done(KINDS, now - keep)

    async def pending(self) -> list[Job]:
        return [j for j in await self.jobs.pending() if j.kind in KINDS]

    async def finish(self, job_id: int, now: float) -> None:
        """The dispatcher delivered a claimed job (or gave up on it): it is not sent again."""
        await self.jobs.done(job_id, now)

    async def retry(self, job_id: int, at: float, error: str) -> None:
        """Delivering a claimed job failed: it is due again at ``at``, its lease released."""
        await self.jobs.retry(job_id, at, error)
