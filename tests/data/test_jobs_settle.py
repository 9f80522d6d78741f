"""Jobs shared by several processes: ``settle`` marks work done with the work itself; a restarted process
takes over only the leases its predecessor held."""

from __future__ import annotations

import pytest

from data.db import Database
from data.jobs import JobQueue, settle

NOW = 1_800_000_000.0


async def test_settle_lets_exactly_one_transaction_do_the_work(db: Database) -> None:
    queue = JobQueue(db)
    await queue.add(kind="match_next", due_at=NOW + 60, now=NOW, dedupe="match-next:1")
    async with db.transaction() as tx:
        assert await settle(tx, kind="match_next", key="match-next:1", now=NOW)
    async with db.transaction() as tx:
        assert not await settle(tx, kind="match_next", key="match-next:1", now=NOW + 1)
    assert await queue.pending() == []
    async with db.transaction() as tx:  # never enqueued (work from before the job existed): recorded as done
        assert await settle(tx, kind="match_next", key="match-next:2", now=NOW)
        assert not await settle(tx, kind="match_next", key="match-next:2", now=NOW)
    assert await queue.pending() == []


async def test_settled_work_rolls_back_with_its_transaction(db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with db.transaction() as tx:
            assert await settle(tx, kind="match_next", key="match-next:3", now=NOW)
            raise RuntimeError("the work failed")
    async with db.transaction() as tx:
        assert await settle(tx, kind="match_next", key="match-next:3", now=NOW), "nobody did it: still to do"


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
