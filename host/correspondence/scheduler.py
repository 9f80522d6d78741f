"""The scheduler: one ``tick`` acts on every deadline, reminder and digest that is due, and says what to send.

It keeps no state of its own: everything due is found in the database, so the first tick after a
restart catches up with whatever fell due while the bot was down, and a reminder recorded before a
crash is not sent again. The job runner (host/worker.py) runs ``run_once`` every ``TICK_SECONDS``; the
Discord side registers what sends the results.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from host.correspondence.service import Correspondence, Digest, Notice, Reminder
from host.results import HostError, Report
from host.worker import Worker

log = logging.getLogger(__name__)
RETRY_BROKEN = 3600.0
"""Seconds before a game whose handling failed is looked at again, so it cannot hog every tick."""
BATCH = 8
"""Games (or digests) handled per tick: a timeout costs 2-4 ms (about 35 SQLite calls), so a full tick stays
well under 50 ms; ``more`` says to go on at once."""
TICK_SECONDS = 5.0
"""Live clocks need a prompt flag; an idle tick costs well under a millisecond (bench/bench_scheduler.py)."""


@dataclass
class Tick:
    """What one tick decided: timeout reports for the threads, reminders, and digests to DM."""

    timeouts: list[Report] = field(default_factory=list)
    aborted: list[Notice] = field(default_factory=list)
    reminders: list[Reminder] = field(default_factory=list)
    digests: list[Digest] = field(default_factory=list)
    more: bool = False
    """The batch was full: call ``tick`` again at once (catching up after downtime)."""

    def __bool__(self) -> bool:
        return bool(self.timeouts or self.aborted or self.reminders or self.digests)


class Scheduler:
    """Polls the host's indexed ``due`` query; cheap when nothing is due, which is nearly always."""

    def __init__(self, correspondence: Correspondence, batch: int = BATCH) -> None:
        self.correspondence = correspondence
        self.store = correspondence.session.store
        self.batch = batch

    def register(self, worker: Worker, deliver: Callable[[Tick], Awaitable[None]]) -> None:
        """Tick on the job runner every ``TICK_SECONDS``; ``deliver`` sends what each tick decided."""
        worker.every("correspondence-tick", TICK_SECONDS, lambda: self.run_once(deliver))

    async def run_once(self, deliver: Callable[[Tick], Awaitable[None]]) -> Tick:
        """Tick until nothing due is left (catching up after downtime), delivering each batch; returns them all."""
        total = Tick()
        while True:
            tick = await self.tick()
            await deliver(tick)
            total.timeouts += tick.timeouts
            total.aborted += tick.aborted
            total.reminders += tick.reminders
            total.digests += tick.digests
            if not tick.more:
                return total

    async def tick(self, now: float | None = None) -> Tick:
        """Timeouts first (a reminder for a turn already lost is pointless), then reminders, then digests."""
        now = self.correspondence.now() if now is None else now
        result = Tick()
        due = await self.correspondence.due(now, limit=self.batch)  # the batch, not the whole backlog
        budget = self.batch
        for game_id in due.timeouts[:budget]:
            try:
                late = await self.correspondence.late_seats(game_id, now)
                if not late:
                    await self._repair(game_id)
                else:
                    await self._timeouts(game_id, late, now, result)
            except Exception:  # one broken game must not hold up every other game's clock
                log.exception("timeout handling of game %s failed; retrying in an hour", game_id)
                await self.store.postpone(game_id, now + RETRY_BROKEN)
        budget -= min(len(due.timeouts), budget)
        for game_id in due.reminders[:budget]:
            try:
                result.reminders.extend(await self.correspondence.remind(game_id, now))
            except HostError as error:  # the game moved meanwhile; the next tick sees its new state
                log.info("reminder for game %s skipped: %s", game_id, error)
            except Exception:
                log.exception("reminder of game %s failed; retrying in an hour", game_id)
                await self.store.postpone(game_id, now + RETRY_BROKEN)
        budget -= min(len(due.reminders), budget)
        users = await self.correspondence.due_digests(now, limit=max(budget, 0))
        for user in users[:budget]:
            try:
                found = await self.correspondence.digest(user, now)
            except Exception:  # the timeouts above are committed: their reports must still go out
                log.exception("digest for user %s failed; retrying in an hour", user)
                await self.correspondence.postpone_digest(user, now + RETRY_BROKEN)  # else still due: ticks forever
                continue
            if found is not None:
                result.digests.append(found)
        left = await self.correspondence.due(now, limit=1)  # still due after this batch? (failures stepped aside)
        result.more = bool(left.timeouts or left.reminders or await self.correspondence.due_digests(now, limit=1))
        return result

    async def _timeouts(self, game_id: int, late: list[int], now: float, result: Tick) -> None:
        """Every seat of one game that is out of time (several when they moved simultaneously), earliest deadline
        first. The game is aborted instead when nobody moved yet, or when every player still in it ran out at the
        same moment (a double forfeit: seat order must not pick a loser)."""
        while late:
            if (notice := await self._abandon(game_id, late)) is not None:
                result.aborted.append(notice)
                return
            seat = late[0]
            try:
                report = await self.correspondence.timeout(game_id, seat)
            except HostError as error:  # a move or resignation got there first
                log.info("timeout of game %s seat %s skipped: %s", game_id, seat, error)
                return
            result.timeouts.append(report)
            if report.outcome is not None:
                return
            late = await self.correspondence.late_seats(game_id, now)

    async def _repair(self, game_id: int) -> None:
        """The stored deadline disagrees with the clock state: recompute it rather than find it every tick."""
        await self.correspondence.clocks.reschedule(await self.correspondence.session.row(game_id))

    async def _abandon(self, game_id: int, late: list[int]) -> Notice | None:
        try:
            return await self.correspondence.abandon(game_id, late)
        except HostError as error:  # someone moved at that very moment: their move stands
            log.info("abandoning game %s skipped: %s", game_id, error)
            return None
