"""The one durable job runner: every kind of job in the ``jobs`` table is claimed, run and retried here.

Each part of the bot registers a handler per job kind (the outbox's Discord senders, AI turns, tournament
steps, ladder results) with its lease and retry policy, and periodic work (the correspondence tick, the
tournament sweep, purges) with its interval. One loop claims due jobs of the registered kinds lane by
lane (a lane is a concurrency limit shared by its kinds: the AI lane has one slot per search process,
the others run their jobs one at a time and in order), renews the lease of a job while it runs, and
after the handler returns marks it done. A handler that raises ``NotYet`` is retried shortly without
counting a failure; any other error is a failure, retried on the kind's back-off curve until its
give-up count, when the job is logged at ERROR with its key and kept (``given_up_at``) for inspection.
``free_leases`` is the one place a restarted process takes back what its predecessor held.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from data.db import Busy, Database
from data.jobs import Job, JobQueue

log = logging.getLogger(__name__)
Handler = Callable[[Job], Awaitable[None]]
Periodic = Callable[[], Awaitable[object]]
POLL = 1.0
"""Longest sleep between looks at the table when nothing woke the worker (an idle look is one read)."""
RECORD_WAITS = (0.2, 0.5)
"""Pauses before trying again to record a job's outcome that the database refused as busy: a job left leased
waits out its lease (the outbox's is 120 s) although its work is done, so a busy moment must not end there."""
START_GRACE = 60.0
"""At start-up, jobs of kinds that ask for it (``catch_up``) due within this many seconds fall due at once: the
process that would have delivered them itself is gone."""


class NotYet(Exception):
    """The job cannot run yet (what it waits for has not happened): retry after ``after`` seconds; not a failure."""

    def __init__(self, reason: str = "not yet", after: float = 2.0) -> None:
        super().__init__(reason)
        self.after = after


@dataclass(frozen=True)
class Backoff:
    """The wait before retry ``n`` (1 after the first failure): ``first`` doubling each time, at most ``cap``."""

    first: float = 5.0
    cap: float = 600.0

    def delay(self, failures: int) -> float:
        return min(self.cap, self.first * 2.0 ** min(max(failures - 1, 0), 40))


@dataclass(frozen=True)
class Policy:
    """How one kind of job is run: its lease, back-off, the failures after which it gives up, and its lane."""

    lease: float = 60.0
    backoff: Backoff = field(default_factory=Backoff)
    give_up: int | None = 12
    """Failures after which the job is given up; None: retried for ever (kept off nothing)."""
    lane: str = "default"
    catch_up: bool = False


@dataclass
class _Lane:
    slots: int = 1
    batch: int = 8
    kinds: list[str] = field(default_factory=list)
    running: set[asyncio.Task[None]] = field(default_factory=set)


@dataclass
class _Every:
    seconds: float
    fn: Periodic
    next_at: float = 0.0
    task: asyncio.Task[None] | None = None


class Worker:
    """Registered handlers over one database; ``run`` is the bot's only job loop."""

    def __init__(self, db: Database, now: Callable[[], float], *, name: str = "worker",
                 scope: str | None = None) -> None:
        """``scope``: this process's name when other processes share the database (shards): a restart then frees
        only the leases its predecessor of that name held. None: the one process that runs everything."""
        self.queue = JobQueue(db)
        self.now = now
        self.scope = scope
        self.owner = f"{scope + ':' if scope else ''}{name}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.handlers: dict[str, tuple[Handler, Policy]] = {}
        self.lanes: dict[str, _Lane] = {}
        self.periodic: dict[str, _Every] = {}
        self.wakeup = asyncio.Event()
        self.closed = False

    # ----- registration ---------------------------------------------------------------------

    def lane(self, name: str, slots: int = 1, batch: int = 8) -> None:
        """A lane's concurrency: ``slots`` jobs at once, each slot claiming up to ``batch`` jobs it runs in order."""
        lane = self.lanes.setdefault(name, _Lane())
        lane.slots, lane.batch = max(1, slots), max(1, batch)

    def register(self, kind: str, handler: Handler, *, lease: float = 60.0, backoff: Backoff | None = None,
                 give_up: int | None = 12, lane: str | None = None, catch_up: bool = False) -> None:
        """Run ``handler`` for jobs of ``kind`` (a second registration replaces the first: a reloaded cog)."""
        policy = Policy(lease, backoff or Backoff(), give_up, lane or kind, catch_up)
        old = self.handlers.get(kind)
        if old is not None:
            self.lanes[old[1].lane].kinds.remove(kind)
        self.handlers[kind] = (handler, policy)
        self.lanes.setdefault(policy.lane, _Lane()).kinds.append(kind)

    def every(self, name: str, seconds: float, fn: Periodic) -> None:
        """Run ``fn`` every ``seconds`` from the loop's first pass on (the state it acts on is in the database)."""
        self.periodic[name] = _Every(seconds, fn)

    def policy(self, kind: str) -> Policy:
        return self.handlers[kind][1]

    def wake(self) -> None:
        """Something fell due (a job was enqueued, a board was shown): look now rather than at the next poll."""
        self.wakeup.set()

    # ----- running --------------------------------------------------------------------------

    async def free_leases(self) -> int:
        """At start-up, the one place: leases held by this process's dead predecessor are freed, and jobs of
        ``catch_up`` kinds it would have delivered itself within ``START_GRACE`` fall due now."""
        prefix = f"{self.scope}:" if self.scope else None
        eager = [k for k, (_, p) in self.handlers.items() if p.catch_up]
        rest = [k for k, (_, p) in self.handlers.items() if not p.catch_up]
        now = self.now()
        freed = await self.queue.hasten(eager, now, START_GRACE, owner_prefix=prefix) if eager else 0
        return freed + (await self.queue.hasten(rest, now, 0.0, owner_prefix=prefix) if rest else 0)

    async def run(self) -> None:
        """Forever, until ``close``: free the predecessor's leases, then claim and run due jobs as they come."""
        started = False
        try:
            while not self.closed:
                self.wakeup.clear()
                sleep = POLL
                try:
                    if not started:  # inside the guard: a busy database at start-up must not end the worker
                        if freed := await self.free_leases():
                            log.info("%d job(s) left by the last run will be done now", freed)
                        started = True
                    sleep = min(sleep, await self._pass())
                except Exception:  # the database is busy or gone for a moment: the next pass retries
                    log.warning("job worker pass failed", exc_info=True)
                try:
                    await asyncio.wait_for(self.wakeup.wait(), max(sleep, 0.01))
                except TimeoutError:
                    pass
        finally:  # a job cut short is claimed again once its lease runs out (or a restart frees it)
            for task in self._under_way():
                task.cancel()

    async def _pass(self) -> float:
        """Start what is due; returns how long the loop may sleep before something else falls due."""
        sleep = POLL
        now, ticks = self.now(), asyncio.get_running_loop().time()  # periodic work keeps real time, not game time
        for name, every in self.periodic.items():
            if every.task is None and ticks >= every.next_at:
                every.next_at = ticks + every.seconds
                every.task = self._spawn(self._periodic(name, every), f"zgames-{name}")
        for name, lane in self.lanes.items():
            free = lane.slots - len(lane.running)
            if free <= 0 or not lane.kinds:
                continue
            ready = await self.queue.ready_at(lane.kinds)
            if ready is None:
                continue
            if ready > now:
                sleep = min(sleep, ready - now)
                continue
            for _ in range(free):
                task = self._spawn(self._slot(lane), f"zgames-jobs-{name}")
                lane.running.add(task)
                task.add_done_callback(lane.running.discard)
        return sleep

    def _spawn(self, coro: Awaitable[None], name: str) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        task.set_name(name)
        task.add_done_callback(lambda _: self.wakeup.set())
        return task

    async def _periodic(self, name: str, every: _Every) -> None:
        try:
            await every.fn()
        except Exception:  # the next run retries from the database
            log.exception("periodic %s failed", name)
        finally:
            every.task = None

    async def _slot(self, lane: _Lane) -> None:
        """Claim a batch of the lane's due jobs and run them in order, until none is due."""
        try:
            while not self.closed:
                claimed = await self.queue.claim(self.now(), self.owner, kinds=lane.kinds, limit=lane.batch,
                                                 lease=max(self.policy(k).lease for k in lane.kinds))
                if not claimed:
                    return
                for job in claimed:
                    await self.run_job(job)
        except Exception:  # claiming or recording an outcome failed (a busy database): the next pass tries again,
            log.warning("a pass over the lane's jobs failed", exc_info=True)  # a job left leased waits for its lease

    async def run_due(self, limit: int = 8) -> int:
        """One batch of due jobs of every registered kind, run here and now in order; returns how many were claimed
        (tests, and a catch-up that wants the work done before going on)."""
        claimed = await self.queue.claim(self.now(), self.owner, kinds=list(self.handlers), limit=limit,
                                         lease=max((p.lease for _, p in self.handlers.values()), default=60.0))
        for job in claimed:
            await self.run_job(job)
        return len(claimed)

    async def drain(self, rounds: int = 200) -> None:
        """Run jobs until none is due (tests and catch-up)."""
        for _ in range(rounds):
            if not await self.run_due():
                return
        raise RuntimeError("the jobs did not settle")

    async def run_keys(self, keys: Sequence[str]) -> None:
        """Run these jobs now, due or not (what a command owes right after its reply), unless someone holds them."""
        for job in await self.queue.claim_keys(keys, self.now(), self.owner):
            await self.run_job(job)

    async def run_job(self, job: Job) -> None:
        """One claimed job, start to end: done, retried, or given up, by its kind's policy."""
        claim = (self.owner, job.attempts)  # the outcome lands only while this claim holds the job
        entry = self.handlers.get(job.kind)
        if entry is None:  # claimed by keys, or the registration went away: leave it for whoever handles it
            await self._record(lambda: self.queue.retry(job.id, self.now() + 60.0, f"no handler for {job.kind}",
                                                        failed=False, claim=claim))
            return
        handler, policy = entry
        keeper = asyncio.ensure_future(self._keep_lease(job, policy.lease))
        try:  # the lease is renewed until the outcome is recorded, tries again included
            try:
                await handler(job)
            except NotYet as wait:
                after, why = wait.after, str(wait)
                await self._record(lambda: self.queue.retry(job.id, self.now() + after, why, failed=False,
                                                            claim=claim))
                return
            except Exception as error:
                await self._failed(job, claim, policy, error)
                return
            await self._record(lambda: self.queue.done(job.id, self.now(), claim=claim))
        finally:
            keeper.cancel()

    @staticmethod
    async def _record(write: Callable[[], Awaitable[bool]]) -> None:
        """A job's outcome, tried again after each of ``RECORD_WAITS`` while the database is busy. Refused when the
        lease ran out and a later claim (another worker's, or this one's) holds the job now: that run records it."""
        for pause in [*RECORD_WAITS, None]:
            try:
                if not await write():
                    log.info("a job's lease went to a later claim before its outcome was recorded")
                return
            except Busy:
                if pause is None:
                    raise
                log.info("the database was busy recording a job's outcome; trying again in %.1f s", pause)
                await asyncio.sleep(pause)

    async def _failed(self, job: Job, claim: tuple[str, int], policy: Policy, error: Exception) -> None:
        failures = job.failures + 1
        if policy.give_up is not None and failures >= policy.give_up:
            log.error("giving up %s job %s (id %d) after %d failures; kept for inspection: %r", job.kind,
                      job.dedupe, job.id, failures, error, exc_info=error)
            await self._record(lambda: self.queue.give_up(job.id, self.now(), repr(error), claim=claim))
            return
        log.warning("%s job %s failed (failure %d), retrying: %r", job.kind, job.dedupe, failures, error,
                    exc_info=not _expected(error))
        due = self.now() + policy.backoff.delay(failures)
        await self._record(lambda: self.queue.retry(job.id, due, repr(error), claim=claim))

    async def _keep_lease(self, job: Job, lease: float) -> None:
        """Renew the lease while the handler runs (an AI search), so a short lease only bounds a crash's wait."""
        while True:
            await asyncio.sleep(max(lease / 3.0, 0.05))
            try:
                await self.queue.extend(job.id, self.owner, self.now() + lease)
            except Exception:  # a busy moment: the next renewal tries again well within the lease
                log.info("could not renew the lease of job %s", job.id, exc_info=True)

    def close(self) -> None:
        """Stop claiming; ``run`` then ends after cancelling what is under way (claimed again after its lease)."""
        self.closed = True
        self.wakeup.set()

    def _under_way(self) -> set[asyncio.Task[None]]:
        tasks = {t for lane in self.lanes.values() for t in lane.running}
        return tasks | {e.task for e in self.periodic.values() if e.task is not None}

    async def stop(self) -> None:
        """Stop claiming, cancel the jobs and periodic runs under way and wait for them, so none outlives the
        database (after ``run`` has ended)."""
        self.close()
        tasks = self._under_way()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)


def _expected(error: Exception) -> bool:
    """Errors worth a line, not a traceback: Discord refusing or rate limiting (by name: host imports no discord)."""
    return any(c.__name__ == "HTTPException" for c in type(error).__mro__)
