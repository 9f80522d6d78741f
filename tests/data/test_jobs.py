"""Durable jobs: enqueued with the change that causes them, claimed by one worker, re-claimed after a lease runs out."""

from __future__ import annotations

import asyncio

from data.db import Database
from data.jobs import JobQueue, enqueue


async def test_a_job_rolls_back_with_its_transaction(db: Database) -> None:
    queue = JobQueue(db)
    try:
        async with db.transaction() as conn:
            await enqueue(conn, kind="post", due_at=0.0, now=0.0, payload={"x": 1})
            raise RuntimeError("the change failed")
    except RuntimeError:
        pass
    assert await queue.pending() == []


async def test_dedupe_keeps_one_job(db: Database) -> None:
    queue = JobQueue(db)
    await queue.add(kind="ai", due_at=0.0, now=0.0, dedupe="ai:1:5", payload={"ply": 5})
    await queue.add(kind="ai", due_at=0.0, now=0.0, dedupe="ai:1:5", payload={"ply": 6})
    jobs = await queue.pending(kind="ai")
    assert [j.payload for j in jobs] == [{"ply": 5}]


async def test_claim_is_exclusive_until_the_lease_runs_out(db: Database) -> None:
    queue = JobQueue(db)
    await queue.add(kind="post", due_at=10.0, now=0.0)
    assert await queue.claim(5.0, "a") == []  # not due yet
    first, second = await asyncio.gather(queue.claim(10.0, "a", lease=30.0), queue.claim(10.0, "b", lease=30.0))
    assert len(first) + len(second) == 1
    assert await queue.claim(20.0, "c") == []  # still leased
    again = await queue.claim(41.0, "c")  # the first worker died: its lease ran out
    assert len(again) == 1 and again[0].attempts == 2
    await queue.done(again[0].id, 42.0)
    assert await queue.claim(100.0, "d") == [] and await queue.pending() == []


async def test_a_claim_whose_lease_ran_out_cannot_end_the_new_claims_run(db: Database) -> None:
    """Worker a's lease ran out and b claimed the job: a's done, retry or give-up changes nothing; b's lands. The
    same holds for a's own later claim of the job: the attempt tells a stalled run from the new one."""
    queue = JobQueue(db)
    await queue.add(kind="post", due_at=0.0, now=0.0)
    [job] = await queue.claim(1.0, "a", lease=10.0)
    [again] = await queue.claim(12.0, "b", lease=10.0)
    assert not await queue.done(job.id, 13.0, claim=("a", job.attempts))
    assert not await queue.retry(job.id, 99.0, "late", claim=("a", job.attempts))
    assert not await queue.give_up(job.id, 13.0, "late", claim=("a", job.attempts))
    assert await queue.claim(14.0, "c") == []  # still b's: a's late outcome released nothing
    [pending] = await queue.pending()
    assert pending.failures == 0 and await queue.given_up() == []
    assert await queue.retry(again.id, 30.0, "Discord said 500", claim=("b", again.attempts))
    assert not await queue.done(again.id, 31.0, claim=("b", again.attempts))  # b gave it back: no longer its own
    [third] = await queue.claim(30.0, "a", lease=10.0)
    [fourth] = await queue.claim(41.0, "a", lease=10.0)  # a stalled past its lease and claimed the job again
    assert not await queue.done(third.id, 42.0, claim=("a", third.attempts))
    assert await queue.done(fourth.id, 42.0, claim=("a", fourth.attempts)) and await queue.pending() == []


async def test_retry_and_kind_filter(db: Database) -> None:
    queue = JobQueue(db)
    await queue.add(kind="post", due_at=0.0, now=0.0)
    await queue.add(kind="ai", due_at=0.0, now=0.0)
    [post] = await queue.claim(1.0, "w", kinds=["post"])
    assert post.kind == "post"
    await queue.retry(post.id, 50.0, "429 rate limited")
    assert await queue.next_due() == 0.0  # the ai job is still due
    [ai] = await queue.claim(1.0, "w", kinds=["ai"])
    await queue.done(ai.id, 2.0)
    assert await queue.next_due() == 50.0
    assert [j.id for j in await queue.claim(50.0, "w")] == [post.id]
