"""Jobs shared by several processes: a restarted process takes over only the leases its predecessor held."""

from __future__ import annotations

import asyncio

from data.db import Database
from data.jobs import JobQueue

NOW = 1_800_000_000.0


async def test_a_restart_takes_over_only_its_own_predecessors_leases(db: Database) -> None:
    queue = JobQueue(db)
    for key in ("a", "b", "c"):
        await queue.add(kind="post", due_at=NOW, now=NOW, dedupe=key)
    [a] = await queue.claim(NOW, "shards-0:100", limit=1)
    [b] = await queue.claim(NOW, "shards-0-1:200", limit=1)
    assert await queue.hasten(["post"], NOW + 1, 60, owner_prefix="shards-0:") == 1
    taken = await queue.claim(NOW + 1, "shards-0:101")
    assert sorted(j.dedupe or "" for j in taken) == [a.dedupe, "c"], "its own, and what nobody held"
    assert b.dedupe not in [j.dedupe for j in taken], "shards-0-1 is another process"
    assert await queue.hasten(["post"], NOW + 2, 60) == 3, "without a prefix (one process): every lease"


async def test_a_restart_passes_over_a_job_another_transaction_holds_on_postgres(pg_url: str) -> None:
    """Start-up's hasten never waits for a row a live process holds (a move's "board shown" finishing or hurrying
    it): waiting there, in no set order, met the moves' own locks (a lock wait refused as busy, or a deadlock)."""
    db = await Database.open(pg_url)
    other = await Database.open(pg_url)
    try:
        queue = JobQueue(db)
        for key in ("held", "free"):
            await queue.add(kind="post", due_at=NOW + 30, now=NOW, dedupe=key)
        async with other.transaction() as tx:
            await tx.execute("UPDATE jobs SET due_at = due_at WHERE dedupe = ?", ("held",))
            freed = await asyncio.wait_for(queue.hasten(["post"], NOW, 60), 5)
        assert freed == 1, "the free job only; the held one is its holder's"
        assert [j.dedupe for j in await queue.claim(NOW, "next")] == ["free"]
    finally:
        await other.close()
        await db.close()
