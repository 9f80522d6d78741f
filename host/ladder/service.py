"""The correspondence ladder of a server and game, without Discord: join, leave, challenge, settings, show.

The order itself is moved by the pure rules in ``host/ladder/rules.py``; this service stores it
(``data/ladder.py``), and every change is one transaction that locks the ladder and ends with its
version check. A challenge is a normal game created through ``Lobby.challenge`` with the ladder's clock,
tied to the ladder in the same transaction. When it ends, the finish hook ``record_finish`` enqueues
a durable job in the finishing transaction; the job runner applies it exactly once (the game's ladder row
is settled in the same transaction as the new order, so a job run again after a crash does nothing).
A daily job per ladder drops idle players, and schedules the next one in its own transaction.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from data import jobs
from data import ladder as rows
from data.db import Tx
from data.jobs import Job, JobQueue
from data.ladder import LadderRow, LadderStore, Rung
from data.store import GameRow
from engines import Game
from host import outbox
from host.correspondence import clocks
from host.ladder import rules
from host.outbox import Owed
from host.play.captions import mention
from host.ratings.seasons import GuildPermissions, may_start_season
from host.results import HostError, Lobby
from host.worker import Backoff, Worker
from render.standings import StandingsRow, StandingsTable, page_count, render_standings

if TYPE_CHECKING:
    from host.play.lobby import Lobby as Seating
    from host.play.session import GameSession

log = logging.getLogger(__name__)
RESULT, SWEEP = "ladder_result", "ladder_sweep"
KINDS = (RESULT, SWEEP)
DAY = rules.DAY
SWEEP_EVERY = DAY
"""Seconds between inactivity sweeps of a ladder."""
DEFAULT_REACH, MAX_REACH = 3, 10
DEFAULT_IDLE_DAYS, MAX_IDLE_DAYS = 30, 365
DEFAULT_CLOCK, DEFAULT_RATED = "3d", True
"""A new ladder's clock and rating (the ``ladders`` table's column defaults, as are the two above)."""
CLOCKS = ("1d", "2d", "3d", "7d", "14d")
"""Ladder games are correspondence games: days per move only."""
LEASE = 60.0
BACKOFF = Backoff(first=60.0, cap=3600.0)
GIVE_UP = 30
"""Failures after which a ladder job is given up (about a day of retries): logged with its key and kept."""
PURGE_EVERY = 3600.0
NOTICE_DELAY = 3.0
"""Seconds the ladder's line in the game thread waits, so it follows the final board."""
NameOf = Callable[[int], Awaitable[str]]


def result_key(game_id: int) -> str:
    return f"ladder-result:{game_id}"


async def record_finish(tx: Tx, row: GameRow, game: Game, now: float) -> None:
    """A host ``FinishHook``: a ladder game that ends owes the ladder its result, in the same transaction."""
    found = await rows.game_of(tx, row.id)
    outcome = game.outcome()
    if found is None or found.applied_at is not None or outcome is None:
        return
    winners = [] if outcome.is_draw else sorted({u for s in outcome.winners if (u := row.user_at(s)) is not None})
    await jobs.enqueue(tx, kind=RESULT, due_at=now, now=now, game_id=row.id, payload={"winners": winners},
                       dedupe=result_key(row.id))


async def _first_sweep(tx: Tx, ladder: LadderRow, now: float, every: float) -> None:
    due = now + every
    await jobs.enqueue(tx, kind=SWEEP, due_at=due, now=now, payload={"ladder": ladder.id},
                       dedupe=f"ladder-sweep:{ladder.id}:{int(due // every)}")


@dataclass(frozen=True)
class LadderPicture:
    """What ``/ladder show`` sends: a line of text and the ladder image."""

    text: str
    image: bytes
    filename: str


def settings_text(ladder: LadderRow | None) -> str:
    """A ladder's settings in words; ``None``: those a new ladder starts with."""
    reach, idle, clock, rated = ((ladder.reach, ladder.inactive_days, ladder.clock, ladder.rated) if ladder else
                                 (DEFAULT_REACH, DEFAULT_IDLE_DAYS, DEFAULT_CLOCK, DEFAULT_RATED))
    return (f"challenges reach {reach} places up; {idle} idle days drop a player; games have "
            f"{clocks.parse(clock).describe()} and are {'rated' if rated else 'unrated'}")


def idle_text(seconds: float) -> str:
    days = int(max(0.0, seconds) // DAY)
    return "today" if days == 0 else "yesterday" if days == 1 else f"{days} days ago"


class Ladders:
    """The ladders of every server, over the lobby (which creates their games) and the session."""

    def __init__(self, session: GameSession, lobby: Seating, now: Callable[[], float], *,
                 sweep_every: float = SWEEP_EVERY) -> None:
        self.session = session
        self.lobby = lobby
        self.now = now
        self.db = session.db
        self.store = LadderStore(session.db)
        self.queue = JobQueue(session.db)
        self.sweep_every = sweep_every
        self._worker: Worker | None = None

    # ----- reading ---------------------------------------------------------------------------

    def title(self, game: str) -> str:
        return f"{self.session.game_class(game).title} ladder"

    async def _ladder(self, guild_id: int | None, game: str) -> LadderRow:
        if guild_id is None:
            raise HostError("Ladders belong to a server: use this command in one.")
        found = await self.store.find(guild_id, game)
        if found is None:
            raise HostError(f"This server has no {self.title(game)} yet: `/ladder join` starts it.")
        return found

    async def show(self, guild_id: int | None, game: str, viewer: int, name_of: NameOf, page: int = 1
                   ) -> LadderPicture:
        """The ladder as an image (32 players a page), and a line saying where the viewer stands."""
        self.session.game_class(game)
        if guild_id is None:
            raise HostError("Ladders belong to a server: use this command in one.")
        ladder = await self.store.find(guild_id, game)
        rungs = await self.store.rungs(ladder.id) if ladder else []
        live = await self.store.live_games(ladder.id) if ladder else []
        playing = rows.in_play(live, rungs)
        now = self.now()
        names = await asyncio.gather(*(name_of(r.user_id) for r in rungs))
        lines = [StandingsRow(r.place, name, (r.games, idle_text(now - r.last_active)),
                              playing=playing.get(r.user_id, 0), highlight=r.user_id == viewer)
                 for r, name in zip(rungs, names, strict=True)]
        reach = ladder.reach if ladder else DEFAULT_REACH
        idle = ladder.inactive_days if ladder else DEFAULT_IDLE_DAYS
        clock = clocks.parse(ladder.clock if ladder else DEFAULT_CLOCK).describe()
        table = StandingsTable(
            self.title(game), ("Games", "Last active"), lines,
            subtitle=f"Challenge up to {reach} places above you · {clock}",
            notes=(f"Beat a player above you and you take their place; they and everyone between move down one. "
                   f"A draw or a loss changes nothing. {idle} days without ladder play (a game finished or in play, or "
                   "a challenge made) drops you.",),
            empty="Nobody on this ladder yet: /ladder join")
        pages = page_count(table)
        page = min(max(1, page), pages)
        image = await asyncio.to_thread(render_standings, table, page)
        text = self._standing_text(game, rungs, viewer, reach)
        if pages > 1:
            text += f" Page {page} of {pages}" + (f"; next: `/ladder show page:{page + 1}`." if page < pages else ".")
        return LadderPicture(text, image, f"ladder-{game}-{page}.png")

    def _standing_text(self, game: str, rungs: list[Rung], viewer: int, reach: int) -> str:
        order = [r.user_id for r in rungs]
        head = f"**{self.title(game)}**: {len(order)} player{'s' if len(order) != 1 else ''}."
        if viewer not in order:
            return f"{head} You are not on it: `/ladder join`."
        place = order.index(viewer) + 1
        targets = rules.challengeable(order, viewer, reach)
        if not targets:
            return f"{head} You are #{place}" + (": the top." if place == 1 else ".")
        places = sorted(order.index(t) + 1 for t in targets)
        span = f"#{places[0]}" if len(places) == 1 else f"#{places[0]}-#{places[-1]}"
        return f"{head} You are #{place}; you may challenge {span}."

    # ----- changes -----------------------------------------------------------------------------

    async def join(self, guild_id: int | None, game: str, user: int) -> str:
        title = self.title(game)
        if guild_id is None:
            raise HostError("Ladders belong to a server: use this command in one.")
        now = self.now()
        async with self.db.transaction() as tx:
            ladder, created = await rows.ensure(tx, guild_id, game, now)
            if created:
                await _first_sweep(tx, ladder, now, self.sweep_every)
            ladder, rungs = await self._load(tx, ladder.id)
            order = [r.user_id for r in rungs]
            if user in order:
                raise HostError(f"You are already on the {title}, at #{order.index(user) + 1}.")
            new = rules.join(order, user)
            await rows.set_order(tx, ladder.id, new, joined=user, now=now, version=ladder.version + 1)
            await rows.bump(tx, ladder)
        above = f" Challenge up to {ladder.reach} places above you with `/ladder challenge`." if len(new) > 1 else ""
        return f"{mention(user)} joined the **{title}** at #{len(new)}.{above}"

    async def leave(self, guild_id: int | None, game: str, user: int) -> str:
        ladder = await self._ladder(guild_id, game)
        async with self.db.transaction() as tx:
            ladder, rungs = await self._load(tx, ladder.id)
            order = [r.user_id for r in rungs]
            if user not in order:
                raise HostError(f"You are not on the {self.title(game)}.")
            await rows.set_order(tx, ladder.id, rules.leave(order, user))
            await rows.bump(tx, ladder)
        return (f"{mention(user)} left the **{self.title(game)}**. Ladder games still in play are played out,"
                " but no longer move the ladder; joining again starts at the bottom.")

    async def challenge(self, guild_id: int | None, channel_id: int | None, game: str, user: int,
                        target: int) -> Lobby:
        """A normal game against a player up to ``reach`` places above, with the ladder's clock."""
        ladder = await self._ladder(guild_id, game)
        self._check_challenge(ladder, [r.user_id for r in await self.store.rungs(ladder.id)], user, target)

        async def tie(tx: Tx, game_id: int) -> None:  # checked again under the lock: the order may have moved
            current, rungs = await self._load(tx, ladder.id)
            self._check_challenge(current, [r.user_id for r in rungs], user, target)
            if (open_game := await rows.live_between(tx, current.id, user, target)) is not None:
                raise HostError(f"You already have a ladder game with {mention(target)} (#{open_game.game_id}):"
                                " finish it first.")
            now = self.now()
            await rows.add_game(tx, current.id, game_id, user, target, now, version=current.version + 1)
            await rows.touch(tx, current.id, [user], now)
            await rows.bump(tx, current)

        return await self.lobby.challenge(game=game, creator=user, opponents=[target],
                                         settings={"rated": ladder.rated, "clock": ladder.clock},
                                         guild_id=guild_id, channel_id=channel_id, also=tie)

    def _check_challenge(self, ladder: LadderRow, order: list[int], user: int, target: int) -> None:
        title = self.title(ladder.game)
        if user == target:
            raise HostError("You cannot challenge yourself.")
        if user not in order:
            raise HostError(f"You are not on the {title}: `/ladder join` first.")
        if target not in order:
            raise HostError(f"{mention(target)} is not on the {title}.")
        mine, theirs = order.index(user) + 1, order.index(target) + 1
        if theirs > mine:
            raise HostError(f"{mention(target)} is below you (#{theirs}; you are #{mine}): on a ladder you"
                            " challenge players above you.")
        if not rules.can_challenge(order, user, target, ladder.reach):
            lowest = max(1, mine - ladder.reach)
            raise HostError(f"{mention(target)} is #{theirs}, {mine - theirs} places above you (#{mine}); you may"
                            f" challenge up to {ladder.reach} places above: #{lowest}-#{mine - 1}.")

    async def settings(self, guild_id: int | None, game: str, permissions: bool | GuildPermissions | None, *,
                       reach: int | None = None, inactive_days: int | None = None, clock: str | None = None,
                       rated: bool | None = None) -> str:
        """Show the ladder's settings (anyone: reads only, so a server without the ladder gets none), or change
        them (Manage Server only; the first change creates the ladder)."""
        if guild_id is None:
            raise HostError("Ladders belong to a server: use this command in one.")
        title = self.title(game)
        changes: dict[str, Any] = {k: v for k, v in (("reach", reach), ("inactive_days", inactive_days),
                                                     ("clock", clock), ("rated", rated)) if v is not None}
        if not changes:
            found = await self.store.find(guild_id, game)
            if found is None:
                return f"This server has no **{title}** yet: `/ladder join` starts it with {settings_text(None)}."
            return f"**{title}** settings now: {settings_text(found)}."
        if not may_start_season(permissions):
            raise HostError("Only members with the Manage Server permission can change a ladder's settings.")
        if reach is not None and not 1 <= reach <= MAX_REACH:
            raise HostError(f"The reach must be between 1 and {MAX_REACH} places.")
        if inactive_days is not None and not 1 <= inactive_days <= MAX_IDLE_DAYS:
            raise HostError(f"The inactivity limit must be between 1 and {MAX_IDLE_DAYS} days.")
        if clock is not None and clock not in CLOCKS:
            raise HostError(f"Ladder games use days per move: one of {', '.join(CLOCKS)}.")
        now = self.now()
        async with self.db.transaction() as tx:
            ladder, created = await rows.ensure(tx, guild_id, game, now)
            if created:
                await _first_sweep(tx, ladder, now, self.sweep_every)
            ladder, _ = await self._load(tx, ladder.id)
            await rows.bump(tx, ladder, **changes)
            ladder = LadderRow(**{**ladder.__dict__, **changes})
        return f"**{title}** settings changed: {settings_text(ladder)}."

    async def _load(self, tx: Tx, ladder_id: int) -> tuple[LadderRow, list[Rung]]:
        loaded = await rows.load(tx, ladder_id)
        if loaded is None:
            raise HostError("That ladder is gone.")
        return loaded

    # ----- jobs: results and inactivity ----------------------------------------------------------

    def register(self, worker: Worker) -> None:
        """Ladder results and sweeps on the job runner, in order; finished ladder jobs purged hourly."""
        self._worker = worker
        for kind in KINDS:
            worker.register(kind, self.run, lease=LEASE, backoff=BACKOFF, give_up=GIVE_UP, lane="ladder")
        worker.every("ladder-purge", PURGE_EVERY, lambda: self.purge(self.now()))

    @property
    def worker(self) -> Worker:
        """The job runner these jobs are registered on (one of their own until ``register``: tests)."""
        if self._worker is None:
            self.register(Worker(self.db, lambda: self.now(), name="ladder"))
        assert self._worker is not None
        return self._worker

    async def run_due(self) -> int:
        """Claim and run the ladder jobs that are due now (tests); returns how many were claimed."""
        return await self.worker.run_due()

    async def purge(self, now: float, keep: float = 7 * DAY) -> int:
        """Forget ladder jobs finished more than ``keep`` seconds ago (a result is applied once by its game's
        row, not by the job's key, so old keys guard nothing)."""
        return await self.queue.purge_done(KINDS, now - keep)

    async def run(self, job: Job) -> None:
        """The handler of both kinds: each is idempotent (a result once per game row, a sweep keyed by its day)."""
        if job.kind == RESULT:
            assert job.game_id is not None
            await self.apply_result(job.game_id, [int(u) for u in job.payload.get("winners", [])])
        elif job.kind == SWEEP:
            await self.sweep(int(job.payload["ladder"]), job.due_at)

    async def apply_result(self, game_id: int, winners: list[int]) -> str | None:
        """Move the ladder for a finished game, once; the line for the game's thread (None: done before)."""
        now = self.now()
        async with self.db.transaction() as tx:
            found = await rows.game_of(tx, game_id)
            if found is None or found.applied_at is not None:
                return None
            ladder, rungs = await self._load(tx, found.ladder_id)
            result = self._result(found, winners, rungs)
            if not await rows.settle(tx, game_id, result, now):
                return None  # another run settled it while we waited for the lock
            order = [r.user_id for r in rungs]
            pair = (found.challenger, found.defender)
            if result in ("challenger", "defender"):
                winner = found.challenger if result == "challenger" else found.defender
                loser = pair[1] if winner == pair[0] else pair[0]
                new = list(rules.apply_result(order, winner, loser))
                await rows.set_order(tx, ladder.id, new)
                text = self._moved_text(ladder, order, new, winner, loser)
            elif result == "draw":
                text = f"🪜 {self.title(ladder.game)}: a draw changes nothing."
            else:
                text = f"🪜 {self.title(ladder.game)}: a player left the ladder, so this game does not move it."
            await rows.touch(tx, ladder.id, [u for u in pair if u in found.members(rungs)], now, played=True)
            await rows.bump(tx, ladder)
            await outbox.write(tx, [Owed("notice", f"notice:{game_id}:ladder", game_id, {"text": text},
                                         due_in=NOTICE_DELAY)], now)
        return text

    @staticmethod
    def _result(found: rows.LadderGame, winners: list[int], rungs: list[Rung]) -> str:
        if len(found.members(rungs)) < 2:  # one left at some time during the game, even if back since
            return "void"
        if len(winners) != 1 or winners[0] not in (found.challenger, found.defender):
            return "draw"
        return "challenger" if winners[0] == found.challenger else "defender"

    def _moved_text(self, ladder: LadderRow, before: list[int], after: list[int], winner: int, loser: int) -> str:
        title = self.title(ladder.game)
        if before == after:
            return f"🪜 {title}: {mention(winner)} stays at #{after.index(winner) + 1}, above {mention(loser)}."
        return (f"🪜 {title}: {mention(winner)} climbs from #{before.index(winner) + 1} to #{after.index(winner) + 1};"
                f" {mention(loser)} is now #{after.index(loser) + 1}.")

    async def sweep(self, ladder_id: int, due_at: float) -> list[int]:
        """Drop the ladder's idle players (a game in play counts as activity) and schedule the next sweep."""
        now = self.now()
        async with self.db.transaction() as tx:
            loaded = await rows.load(tx, ladder_id)
            if loaded is None:
                return []
            ladder, rungs = loaded
            busy = await rows.playing(tx, ladder.id, rungs)
            last = {r.user_id: now if r.user_id in busy else r.last_active for r in rungs}
            kept, dropped = rules.drop_inactive([r.user_id for r in rungs], last, now, ladder.inactive_days)
            if dropped:
                await rows.set_order(tx, ladder.id, kept)
                await rows.bump(tx, ladder)
            index = max(int(due_at // self.sweep_every), int(now // self.sweep_every)) + 1
            await jobs.enqueue(tx, kind=SWEEP, due_at=index * self.sweep_every, now=now,
                               payload={"ladder": ladder.id}, dedupe=f"ladder-sweep:{ladder.id}:{index}")
        if dropped:
            log.info("ladder %s dropped %d idle player(s)", ladder_id, len(dropped))
        return list(dropped)
