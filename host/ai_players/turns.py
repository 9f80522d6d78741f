"""AI players hosted like people: their turns are durable jobs, their searches run in a process pool.

When a write makes it an AI seat's turn (or puts a draw offer before an AI), ``enqueue`` adds a job
in that same transaction, keyed on game, ply and seat so it exists once. The job runner
(host/worker.py) claims due jobs with a short lease that it renews while the search runs; a crash lets
the lease lapse (or the restarted bot frees it) and the job is claimed again. The move goes through
``Turns.play`` with the ply it was searched for, so a second attempt, a stale job or a racing human can
never make the AI move twice.

A job waits ``GRACE`` seconds, or until the report of what made it due has been posted
(``hurry``), so the AI's board never appears in the thread before the move it answers.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import uuid
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from data import jobs
from data.db import Tx
from data.jobs import Job, JobQueue
from data.store import GameRow
from engines import CHANCE, Game
from host.ai_players import worker as ai_worker
from host.outbox import Outbox, Owed
from host.play import bots, dice
from host.play.boards import Boards
from host.play.captions import mention
from host.play.session import Change, GameSession
from host.play.turns import Turns
from host.results import HostError, Report
from host.worker import Backoff, NotYet, Worker

log = logging.getLogger(__name__)
TURN, DRAW = bots.TURN_JOB, bots.DRAW_JOB
KINDS = bots.JOB_KINDS
TURN_SECONDS: dict[str, float] = {"hard": 6.0, "medium": 2.0, "easy": 0.5}
"""The bot's wall-time cap of one AI turn per level (``AI_TURN_SECONDS``): the level's fixed work, cut short
by the clock when a loaded machine would make a player wait longer (issue 27)."""
LEASE = 10.0
"""Seconds a claimed AI job stays ours without renewal: how long a restart waits for a crashed search."""
GRACE = 5.0
"""Fallback wait before an AI job is due, when nobody posts the report that precedes it."""
LANE = "ai"
BACKOFF = Backoff(first=10.0, cap=600.0)
GIVE_UP = 30
"""Failed searches (not "not yet"s) after which an AI turn is given up: about four hours of retries; the game's
clock (or a player's /resign) then decides it."""
NOT_YET_LIMIT = 30
"""Attempts (a second apart) to wait for a game's thread before the AI moves anyway (posting in the channel)."""


@dataclass(frozen=True)
class Done:
    """What a finished job has to show: a report (a move, an agreed draw) or a line of text in the thread."""

    row: GameRow
    report: Report | None = None
    text: str | None = None


@dataclass(frozen=True)
class Hint:
    row: GameRow
    move: str
    label: str
    notice: str | None
    """For the thread when other people play this game: a hint was used (never which)."""
    notice_key: str | None = None
    """The owed notice's outbox key: the cog sends it at once, the dispatcher if this process dies first."""


def parse_turn_seconds(text: str) -> dict[str, float]:
    """``AI_TURN_SECONDS``: empty for the defaults, ``off`` for none (fixed work only), or ``hard=6,easy=0.5``
    (levels left out keep their default); a clear ``ValueError`` otherwise."""
    text = text.strip()
    if not text:
        return dict(TURN_SECONDS)
    if text.lower() == "off":
        return {}
    caps = dict(TURN_SECONDS)
    for part in text.split(","):
        level, _, value = part.partition("=")
        level = level.strip().lower()
        try:
            seconds = float(value)
        except ValueError:
            seconds = -1.0
        if level not in TURN_SECONDS or not 0.05 <= seconds <= 600:
            raise ValueError(f"AI_TURN_SECONDS must read like hard=6,medium=2,easy=0.5 (levels easy, medium, hard;"
                             f" 0.05 to 600 seconds) or off, not {text[:40]!r}")
        caps[level] = seconds
    return caps


def ai_seed(seed: str, purpose: str) -> int:
    """The search seed: from the game's secret seed, so a replay of the same game searches alike."""
    return dice.rng_for(seed, f"ai:{purpose}").getrandbits(62)


async def _nowhere(done: Done) -> None:
    """Until the Discord side registers its sender, a finished AI job shows nothing (the move is stored)."""


class AiPlayers:
    """The AI seats' side of the host: job hook, job handlers, hints."""

    def __init__(self, session: GameSession, turns: Turns, boards: Boards, outbox: Outbox, now: Callable[[], float],
                 *, workers: int = 1, think_delay: float = 0.0, pool: Executor | None = None,
                 turn_seconds: Mapping[str, float] | None = None) -> None:
        """``pool``: an executor to use instead of the process pool (tests pass a thread pool). ``turn_seconds``:
        the wall-time cap of one AI turn per level (``TURN_SECONDS``; None or a missing level: fixed work only)."""
        self.session = session
        self.turn_seconds = dict(turn_seconds or {})
        self.turns = turns
        self.boards = boards
        self.outbox = outbox
        self.now = now
        self.queue = JobQueue(session.db)
        self.workers = max(1, workers)
        self.think_delay = think_delay
        self.owner = f"ai:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.wake = asyncio.Event()
        """Set when an AI job falls due; ``register`` makes it the worker's own wake-up."""
        self._pool: Executor | None = pool
        self.closed = False
        self.deliver: Callable[[Done], Awaitable[None]] = _nowhere
        self.thinking: Callable[[GameRow], AbstractAsyncContextManager[Any]] = lambda row: nullcontext()
        """Wraps each search: the Discord side shows the typing indicator in the game's thread meanwhile."""

    # ----- enqueueing (a host ChangeHook) -------------------------------------------------

    async def enqueue(self, conn: Tx, change: Change) -> None:
        """Inside the write that makes it an AI's turn, or that offers it a draw: the job lands with the write."""
        row, game, now = change.row, change.game, change.now
        if change.changes.get("status", row.status) != "active" or game.outcome() is not None:
            return
        users = {s.seat: s.user_id for s in change.seats}
        ply = len(game.history)
        enqueued = False
        for seat in sorted(game.to_move() - {CHANCE}):
            if bots.is_ai(users.get(seat)):
                await jobs.enqueue(conn, kind=TURN, due_at=now + GRACE, now=now, game_id=row.id,
                                   payload={"seat": seat, "ply": ply}, dedupe=f"ai-turn:{row.id}:{ply}:{seat}")
                enqueued = True
        offers = change.changes.get("draw_offers") or []
        asked = sorted({u for s in game.active_seats() if s not in offers and bots.is_ai(u := users.get(s))})
        for user in asked if offers else []:
            await jobs.enqueue(conn, kind=DRAW, due_at=now + GRACE / 2, now=now, game_id=row.id,
                               payload={"user": user, "ply": ply},
                               dedupe=f"ai-draw:{row.id}:{row.version}:{user}")
            enqueued = True
        if enqueued:  # a game without AI jobs wakes nobody: a worker pass is a read per lane
            self.wake.set()

    async def hurry(self, game_id: int) -> None:
        """The report before the AI's turn is on screen: its jobs need not wait any longer."""
        if await self.queue.hurry(game_id, KINDS, self.now()):
            self.wake.set()

    # ----- the job handlers (run by host/worker.py) ------------------------------------------

    def register(self, worker: Worker, deliver: Callable[[Done], Awaitable[None]]) -> None:
        """AI turns and draw answers run on ``worker``, one per search process at a time; ``deliver`` shows what
        the AI did (the Discord side)."""
        self.deliver = deliver
        self.wake = worker.wakeup  # an enqueued turn or a shown board wakes the one job loop
        worker.lane(LANE, slots=self.workers, batch=1)
        for kind in KINDS:
            worker.register(kind, self.handle, lease=LEASE, backoff=BACKOFF, give_up=GIVE_UP, lane=LANE)

    async def handle(self, job: Job) -> None:
        """One AI job: search and move (or answer a draw offer), then show it; a stored move that could not be
        shown is not retried (``/board`` shows it, and a second attempt re-posts it only after a crash)."""
        done = await (self._turn(job) if job.kind == TURN else self._draw(job))
        if done is not None:
            try:
                await self.deliver(done)
            except Exception:  # the move is stored; /board shows it
                log.warning("could not deliver AI job %s", job.id, exc_info=True)

    async def _turn(self, job: Job) -> Done | None:
        seat, ply = int(job.payload["seat"]), int(job.payload["ply"])
        row, game = await self.session.engine_copy(int(job.game_id or 0))
        user = row.user_at(seat)
        level = bots.level_of(user)
        if row.status != "active" or level is None or user is None:
            return None
        if len(game.history) > ply:  # an earlier attempt moved; if it died before posting, post now
            if job.attempts > 1 and game.history[ply][0] == seat:
                return Done(row, report=await self.boards.report_since(row.id, ply))
            return None
        if seat not in game.to_move():
            return None
        if row.thread_id is None and row.channel_id is not None and job.attempts < NOT_YET_LIMIT:
            raise NotYet("waiting for the game's thread", after=1.0)
        async with self.thinking(row):
            move = await self.think(game, seat, level, ai_seed(row.seed, f"ply{ply}:{seat}"))
        try:
            report = await self.turns.play(row.id, user, move, expected_ply=ply)
        except HostError:
            row, game = await self.session.engine_copy(row.id)
            if row.status == "active" and len(game.history) == ply and seat in game.to_move():
                raise  # a write at the same instant that left the turn ours (a draw offer): search again
            return None
        return Done(row, report=report)

    async def _draw(self, job: Job) -> Done | None:
        user, ply = int(job.payload["user"]), int(job.payload["ply"])
        row, game = await self.session.engine_copy(int(job.game_id or 0))
        level = bots.level_of(user)
        seats = [s for s in row.seats_of(user) if s not in game.eliminated]
        if (row.status != "active" or level is None or not row.draw_offers or len(game.history) != ply
                or not seats or set(seats) <= set(row.draw_offers)):
            return None
        accepts = await self._in_pool(ai_worker.accepts_draw, game.to_dict(), seats[0], level,
                                      ai_seed(row.seed, f"draw{ply}:{seats[0]}"), self.think_delay)
        try:
            if accepts:
                result = await self.turns.offer_draw(row.id, user, accept_only=True)
                return Done(row, report=result) if isinstance(result, Report) else Done(row, text=result)
            return Done(row, text=await self.turns.decline_draw(row.id, user))
        except HostError:  # someone moved meanwhile: the offer is gone
            return None

    # ----- the process pool ---------------------------------------------------------------

    def use_executor(self, pool: Executor) -> None:
        """Search in ``pool`` from now on instead of the process pool (tests: a thread pool sees their scaled work,
        which a spawned process would not)."""
        self._pool = pool

    @property
    def pool(self) -> Executor:
        """Made on first use; spawned (not forked) so no child inherits the event loop or database threads."""
        if self.closed:
            raise RuntimeError("the AI players are shut down")
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def _in_pool(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): a fresh pool for the retry
            self._pool = None
            raise

    async def think(self, game: Game, seat: int, level: str, seed: int) -> str:
        move: str = await self._in_pool(ai_worker.choose, game.to_dict(), seat, level, seed, self.think_delay,
                                        self.turn_seconds.get(level))
        return move

    async def judge(self, state: dict[str, Any], seat: int, played: str, seed: int,
                    level: str = bots.HINT_LEVEL) -> dict[str, Any] | None:
        """One ply of a game review in the pool (``host/ai_worker.judge``): ``state`` is the game's dict before the
        ply. One short call at a time, so AI turns waiting for the pool go between a review's plies."""
        judged: dict[str, Any] | None = await self._in_pool(ai_worker.judge, state, seat, played, seed, level)
        return judged

    def close(self) -> None:
        """Stop claiming jobs and let the pool go; a search under way is abandoned (its job is claimed again)."""
        self.closed = True
        self.wake.set()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    # ----- hints --------------------------------------------------------------------------

    async def hint(self, game_id: int, user: int) -> Hint:
        """The hard level's move for the user's own position; refused in rated games and off turn."""
        row, game = await self.session.engine_copy(game_id)
        if row.status != "active":
            raise HostError(f"Game #{row.id} is not in progress.")
        seats = row.seats_of(user)
        if not seats:
            raise HostError("You are not playing in this game.")
        if row.settings.get("rated", True):
            raise HostError(f"Hints are for unrated games only: this game counts for the leaderboards. For a game with"
                            f" hints, start one with `/{row.game} new ai: easy` (a practice game, unrated unless you"
                            f" set `rated: True`), or add `rated: False` against anyone.")
        movers = [s for s in seats if s in game.to_move()]
        if not movers:
            raise HostError("It is not your turn: a hint is for the move you are about to make.")
        seat, ply = movers[0], len(game.history)
        move = await self.think(game, seat, bots.HINT_LEVEL, ai_seed(row.seed, f"hint{ply}:{seat}"))
        people = {u for s in row.seats if (u := s.user_id) is not None and u != user and not bots.is_ai(u)}
        if not people:
            return Hint(row, move, game.describe(seat, move), None)
        notice = f"💡 {mention(user)} used a hint."
        key = f"notice:{row.id}:hint:{ply}:{user}"  # a second hint for the same move is told once
        await self.outbox.owe([Owed("notice", key, row.id, {"text": notice, "quiet": True})], self.now())
        return Hint(row, move, game.describe(seat, move), notice, key)
