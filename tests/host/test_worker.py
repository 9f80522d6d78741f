"""The one job runner (host/worker.py) on real databases (SQLite and PostgreSQL): claim and run, the back-off
curve, giving up loudly and keeping the job, "not yet" without a failure, leases freed at start-up, lanes'
concurrency, lease renewal, and two workers never running the same job."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from data.db import Database
from data.jobs import Job, JobQueue
from host import outbox
from host.worker import Backoff, NotYet, Worker
from tests.conftest import FakeClock


async def add(db: Database, clock: FakeClock | None, *keys: str, kind: str = "k") -> None:
    now = clock() if clock is not None else time.time()
    for key in keys:
        await JobQueue(db).add(kind=kind, due_at=now, now=now, dedupe=key)


async def test_a_registered_kind_is_claimed_run_in_order_and_marked_done(db: Database, clock: FakeClock) -> None:
    seen: list[str | None] = []

    async def handler(job: Job) -> None:
        seen.append(job.dedupe)

    worker = Worker(db, clock)
    worker.register("k", handler)
    await add(db, clock, "a", "b", "c")
    await add(db, clock, "other", kind="not-mine")
    assert await worker.run_due() == 3
    assert seen == ["a", "b", "c"]
    assert [j.dedupe for j in await worker.queue.pending()] == ["other"], "an unregistered kind is left alone"
    assert await worker.run_due() == 0


def test_the_backoff_curve_doubles_up_to_its_cap() -> None:
    curve = Backoff(first=5.0, cap=3 * 3600.0)
    assert [curve.delay(n) for n in range(1, 6)] == [5.0, 10.0, 20.0, 40.0, 80.0]
    assert curve.delay(12) == 10240.0 and curve.delay(13) == 3 * 3600.0 and curve.delay(10_000) == 3 * 3600.0
    waited = sum(outbox.BACKOFF.delay(n) for n in range(1, outbox.GIVE_UP))
    assert 2.5 * 3600 < waited < 3 * 3600, "the outbox retries for nearly three hours before it gives up"


async def test_a_failure_is_retried_on_the_curve_and_counted(db: Database, clock: FakeClock) -> None:
    async def broken(job: Job) -> None:
        raise RuntimeError("Discord said 500")

    worker = Worker(db, clock)
    worker.register("k", broken, backoff=Backoff(first=5.0, cap=15.0), give_up=None)
    await add(db, clock, "a")
    waits = []
    for _ in range(4):
        start = clock()
        assert await worker.run_due() == 1
        [job] = await worker.queue.pending()
        waits.append(job.due_at - start)
        assert await worker.run_due() == 0, "not due before its back-off"
        clock.advance(job.due_at - start)
    assert waits == [5.0, 10.0, 15.0, 15.0]
    [job] = await worker.queue.pending()
    assert job.failures == 4 and job.attempts == 4


async def test_a_job_that_gives_up_is_logged_at_error_with_its_key_and_kept(
        db: Database, clock: FakeClock, caplog: pytest.LogCaptureFixture) -> None:
    async def broken(job: Job) -> None:
        raise RuntimeError("never works")

    worker = Worker(db, clock)
    worker.register("post", broken, backoff=Backoff(first=1.0, cap=1.0), give_up=3)
    await add(db, clock, "post:7:3", kind="post")
    with caplog.at_level(logging.WARNING, logger="host.worker"):
        for _ in range(3):
            await worker.run_due()
            clock.advance(1.0)
    assert await worker.run_due() == 0 and await worker.queue.pending() == []
    [kept] = await worker.queue.given_up()
    assert kept.dedupe == "post:7:3" and kept.failures == 3
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "post" in errors[0].getMessage() and "post:7:3" in errors[0].getMessage()
    clock.advance(30 * 86400)
    assert await worker.queue.purge_done(["post"], clock()) == 0, "kept for inspection, not purged"
    await JobQueue(db).add(kind="post", due_at=clock(), now=clock(), dedupe="post:7:3")
    assert await worker.queue.pending() == [], "its key still holds: the same job is not owed again"


async def test_not_yet_retries_shortly_without_counting_a_failure(db: Database, clock: FakeClock) -> None:
    runs = 0

    async def waits(job: Job) -> None:
        nonlocal runs
        runs += 1
        if runs < 4:
            raise NotYet("no thread yet", after=2.0)

    worker = Worker(db, clock)
    worker.register("k", waits, give_up=1)  # one failure would give it up
    await add(db, clock, "a")
    for _ in range(3):
        assert await worker.run_due() == 1
        [job] = await worker.queue.pending()
        assert job.due_at == clock() + 2.0 and job.failures == 0
        clock.advance(2.0)
    assert await worker.run_due() == 1
    assert runs == 4 and await worker.queue.pending() == [] and await worker.queue.given_up() == []


async def _nothing(job: Job) -> None:
    """A handler with nothing to do."""


async def test_a_restart_frees_its_predecessors_leases_at_start_up(db: Database, clock: FakeClock) -> None:
    await add(db, clock, "mine", "theirs")
    queue = JobQueue(db)
    [held] = await queue.claim(clock(), "shards-0:jobs:100:dead", limit=1, lease=600.0)
    [other] = await queue.claim(clock(), "shards-1:jobs:200:live", limit=1, lease=600.0)
    restarted = Worker(db, clock, scope="shards-0")
    restarted.register("k", _nothing)
    assert await restarted.run_due() == 0, "both still leased"
    await restarted.free_leases()
    assert await restarted.run_due() == 1
    assert [j.dedupe for j in await queue.pending()] == [other.dedupe], "another process's lease is kept"
    assert held.dedupe == "mine"
    alone = Worker(db, clock)  # one process for everything: every lease is its dead predecessor's
    alone.register("k", _nothing)
    await alone.free_leases()
    assert await alone.run_due() == 1 and await queue.pending() == []


async def test_catch_up_kinds_owed_soon_fall_due_at_start_up_and_others_keep_their_time(
        db: Database, clock: FakeClock) -> None:
    queue = JobQueue(db)
    await queue.add(kind="post", due_at=clock() + 30, now=clock(), dedupe="post:1:1")
    await queue.add(kind="k", due_at=clock() + 30, now=clock(), dedupe="later")
    worker = Worker(db, clock)
    outbox.register(worker, "post", _nothing, outbox.Outbox(db))
    worker.register("k", _nothing)
    await worker.free_leases()
    assert await worker.run_due() == 1
    assert [j.dedupe for j in await queue.pending()] == ["later"]


@pytest.fixture
async def running() -> AsyncIterator[list[Worker]]:
    """Workers whose ``run`` loops are started by the test; stopped (and their jobs cancelled) at the end."""
    workers: list[Worker] = []
    yield workers
    for worker in workers:
        await worker.stop()


async def wait_for(check: Callable[[], Awaitable[bool]], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def test_the_loop_runs_a_lane_with_its_slots_and_periodic_work(db: Database,
                                                                     running: list[Worker]) -> None:
    busy, most, ticks = 0, 0, 0

    async def search(job: Job) -> None:
        nonlocal busy, most
        busy += 1
        most = max(most, busy)
        await asyncio.sleep(0.1)
        busy -= 1

    async def tick() -> None:
        nonlocal ticks
        ticks += 1

    worker = Worker(db, time.time)
    worker.lane("ai", slots=2, batch=1)
    worker.register("think", search, lane="ai")
    worker.every("tick", 3600.0, tick)
    running.append(worker)
    task = asyncio.create_task(worker.run())
    await add(db, None, *[f"t{i}" for i in range(6)], kind="think")
    worker.wake()

    async def all_done() -> bool:
        return await worker.queue.pending() == []

    await wait_for(all_done)
    worker.close()
    await asyncio.wait_for(task, 10)
    assert most == 2, "the lane's two slots, no more"
    assert ticks == 1, "periodic work runs at the first pass, then every hour"


async def test_a_running_jobs_lease_is_renewed_so_nobody_else_takes_it(db: Database) -> None:
    runs: list[str] = []

    async def slow(job: Job) -> None:
        runs.append(job.dedupe or "")
        await asyncio.sleep(1.0)

    first, second = Worker(db, time.time), Worker(db, time.time)
    for worker in (first, second):
        worker.register("k", slow, lease=0.3)
    await add(db, None, "long")
    started = asyncio.create_task(first.run_due())
    await asyncio.sleep(0.6)  # twice the lease: without renewal the second worker would take it
    assert await second.run_due() == 0
    assert await started == 1 and runs == ["long"]


async def test_two_workers_on_two_connections_never_run_the_same_job(shared: str) -> None:
    one, two = await Database.open(shared), await Database.open(shared)
    try:
        ran: list[str] = []

        async def record(job: Job) -> None:
            ran.append(job.dedupe or "")
            await asyncio.sleep(0.005)

        workers = [Worker(one, time.time), Worker(two, time.time)]
        for worker in workers:
            worker.register("k", record)
        keys = [f"j{i}" for i in range(40)]
        await add(one, None, *keys)
        await asyncio.gather(*(w.drain() for w in workers))
        assert sorted(ran) == sorted(keys), "each job exactly once"
        assert await JobQueue(one).pending() == []
    finally:
        await one.close()
        await two.close()


async def test_a_jobs_outcome_refused_as_busy_is_recorded_a_moment_later(shared: str) -> None:
    """Another connection holds the job's row (or SQLite's write lock) past ``WRITE_WAIT`` just as the job ends:
    its "done" is tried again shortly instead of leaving the job leased, to wait out its lease (the outbox's
    120 s) and run a second time, as the PostgreSQL bench's stalled first boards did."""
    db, other = await Database.open(shared), await Database.open(shared)
    try:
        ran: list[str] = []
        holding, release = asyncio.Event(), asyncio.Event()

        holders: list[asyncio.Task[None]] = []

        async def post(job: Job) -> None:
            ran.append(job.dedupe or "")
            holders.append(asyncio.create_task(hold_row()))
            await holding.wait()  # the handler's work is done; the row is held as it records "done"
            asyncio.get_running_loop().call_later(1.2, release.set)  # past WRITE_WAIT: the first try is refused

        async def hold_row() -> None:
            async with other.transaction() as tx:
                await tx.execute("UPDATE jobs SET due_at = due_at WHERE dedupe = ?", ("p",))
                holding.set()
                await release.wait()

        worker = Worker(db, time.time)
        worker.register("k", post)
        await add(db, None, "p")
        assert await worker.run_due() == 1
        await asyncio.gather(*holders)
        assert ran == ["p"] and await worker.queue.pending() == [], "done, not left leased"
    finally:
        await other.close()
        await db.close()


async def test_a_run_that_lost_its_lease_leaves_the_outcome_to_the_new_claim(db: Database, clock: FakeClock) -> None:
    """The handler outlived its lease unrenewed (a stalled process) and the job was claimed again, here by the same
    worker: the stalled run's "done" must not end the job while the new claim still runs it."""
    queue = JobQueue(db)
    worker = Worker(db, clock)
    taken: list[Job] = []

    async def slow(job: Job) -> None:
        clock.advance(600.0)  # far past any lease, as if the process had stalled
        taken.extend(await queue.claim(clock(), worker.owner, lease=60.0))

    worker.register("k", slow)
    await add(db, clock, "p")
    assert await worker.run_due() == 1
    assert [j.dedupe for j in taken] == ["p"]
    assert await queue.claim(clock() + 1.0, "c") == [], "still the new claim's: the stalled outcome released nothing"
    assert await queue.done(taken[0].id, clock(), claim=(worker.owner, taken[0].attempts))
    assert await queue.pending() == []
