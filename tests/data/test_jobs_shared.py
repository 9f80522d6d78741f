"""Jobs shared by several processes: a restarted process takes over only the leases its predecessor held."""

from __future__ import annotations

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
