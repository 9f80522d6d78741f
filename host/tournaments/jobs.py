"""The tournament worker: runs every event job (pair a round, start its games, record a result, settle,
resign a withdrawn player's games, post) and hands what is to be shown to the Discord side.

Each handler is idempotent against its own repetition: pairing checks the event's current round, a game
is linked to its pairing only while the pairing has none, a result is recorded only once, and writes are
version-checked (a concurrent change makes the job run again on the new state). So a crash between any
two steps, or two workers, never pairs a round twice or starts a game twice; a restart finds the jobs
still owed and carries on.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from data import tournaments as repo
from data.db import StaleVersion
from data.jobs import Job, JobQueue
from data.store import Seat
from data.tournaments import EventRow, Pairing, Snapshot
from host import outbox
from host.play import dice
from host.ratings.standings import NameOf
from host.results import HostError, Report
from host.tournaments import plan
from host.tournaments.pairing.dutch import NoLegalPairing
from host.tournaments.pairing.model import placing_points
from host.tournaments.service import GAMES, KINDS, PAIR, POST, RESULT, SETTLE, START, WITHDRAW, Tournaments
from host.worker import Backoff, NotYet, Worker

log = logging.getLogger(__name__)
LEASE = 60.0
LANE = "events"
SWEEP_EVERY = 300.0
"""Seconds between recovery sweeps (games that ended without a result job, e.g. aborted by the clock)."""
BACKOFF = Backoff(first=4.0, cap=600.0)
GIVE_UP = 30
"""Failures after which an event job is given up (about four hours): logged with its key and kept."""


@dataclass(frozen=True)
class Post:
    """Something for Discord: ``what`` is signup, pairings, standings, podium, notice, games or reports."""

    event: EventRow
    what: str
    key: str
    """The job's dedupe key: a message nonce from it makes a repeated send post once."""
    text: str = ""
    images: tuple[bytes, ...] = ()
    """The standings as PNG pages."""
    edit: int | None = None
    """The message to edit in place (the sign-up message, the standings message); None: send a new one."""
    open: bool = False
    """The sign-up still takes entrants: show the Join and Leave buttons."""
    thread_keys: tuple[str, ...] = ()
    """``games``: the outbox jobs that open the new games' threads and post their first boards; ``podium``: the
    event's board posts still owed, sent before the podium so it never comes before the last board."""
    reports: tuple[Report, ...] = field(default_factory=tuple)
    """``reports``: boards to post (a withdrawn player's games, resigned)."""
    ways: tuple[str, ...] = ()
    """``decision``: what the organiser may allow (``rematch``, ``second_bye``, both joined by +), one button each."""
    round: int = 0
    """``decision``: the round waiting to be paired."""


Deliver = Callable[[Post], Awaitable[int | None]]
"""Shows a post; returns the message id it sent or edited (None when nothing was sent)."""


class TournamentWorker:
    """The event jobs' handlers, registered on the job runner (host/worker.py), and the recovery sweep."""

    def __init__(self, tournaments: Tournaments, deliver: Deliver, name_of: NameOf | None = None, *,
                 scope: str | None = None, worker: Worker | None = None) -> None:
        """``name_of``: players' names for the standings image (the Discord side's nicknames). ``worker``: the
        bot's job runner; None makes one of its own (tests). ``scope``: for a runner of its own, this process's
        name when other processes share the database (shards)."""
        self.t = tournaments
        self.name_of = name_of
        self.deliver = deliver
        self.queue = JobQueue(tournaments.db)
        self.worker = worker or Worker(tournaments.db, tournaments.now, name="events", scope=scope)
        self.register(self.worker)

    @property
    def owner(self) -> str:
        """The name its job runner's leases carry."""
        return self.worker.owner

    # ----- on the job runner ----------------------------------------------------------------

    def register(self, worker: Worker) -> None:
        """Every event job kind in one lane, run in order; the recovery sweep every ``SWEEP_EVERY`` seconds."""
        self.t.wake = worker.wakeup  # an owed event job wakes the one job loop
        for kind in KINDS:
            worker.register(kind, self.run_job, lease=LEASE, backoff=BACKOFF, give_up=GIVE_UP, lane=LANE)
        worker.every("events-sweep", SWEEP_EVERY, self.sweep)

    async def recover(self) -> None:
        """At start-up (and in tests): a dead process's leases are freed, and anything a lost hook left is owed
        again."""
        await self.worker.free_leases()
        await self.sweep()

    async def sweep(self) -> None:
        now = self.t.now()
        for event_id, game_id, _ in await repo.unsettled_games(self.t.db):
            await self.queue.add(kind=RESULT, due_at=now, now=now, game_id=game_id, payload={"event": event_id},
                                 dedupe=f"event:{event_id}:game:{game_id}")
        for event_id in await repo.running_without_games(self.t.db):
            snap = await self.t.load(event_id)
            await self.queue.add(kind=GAMES, due_at=now, now=now, payload={"event": event_id},
                                 dedupe=f"event:{event_id}:games:v{snap.event.version}")

    async def run_due(self, limit: int = 8) -> int:
        """One batch of due jobs, in order; returns how many were claimed."""
        return await self.worker.run_due(limit)

    async def drain(self, rounds: int = 200) -> None:
        """Run jobs until none is due (tests and catch-up)."""
        await self.worker.drain(rounds)

    async def run_job(self, job: Job) -> None:
        """The handler: run the job's step and show what it produced. A concurrent change to the event runs it again
        at once on the new state (not a failure)."""
        try:
            post = await self.handle(job)
        except StaleVersion as error:
            raise NotYet(f"event changed: {error}", after=0.0) from error
        if post is not None:
            sent = await self.deliver(post)
            await self.remember(post, sent)

    async def remember(self, post: Post, sent: int | None) -> None:
        if sent is None or sent == post.edit:
            return
        if post.what == "standings":
            await self.t.set_standings_message(post.event.id, sent)
        elif post.what == "signup":
            await self.t.set_signup_message(post.event.id, sent)

    async def handle(self, job: Job) -> Post | None:
        event_id = int(job.payload["event"])
        handler = {START: self.start, PAIR: self.pair, GAMES: self.games, RESULT: self.result, SETTLE: self.settle,
                   WITHDRAW: self.withdraw, POST: self.post}[job.kind]
        return await handler(event_id, job)

    # ----- handlers -------------------------------------------------------------------------

    async def start(self, event_id: int, job: Job) -> Post | None:
        """The set start time: start with the players there, or cancel when too few came."""
        if (await self.t.load(event_id)).event.status != "open":
            return None
        try:
            await self.t.start(event_id, None)
        except HostError:
            await self.t.cancel_unstartable(event_id)
        return None

    async def pair(self, event_id: int, job: Job) -> Post | None:
        round_ = int(job.payload["round"])
        snap = await self.t.load(event_id)
        event = snap.event
        if event.status != "running" or event.current_round >= round_:
            return None  # paired already (this job ran before a crash) or the event ended
        if event.current_round != round_ - 1 or (round_ > 1 and not plan.round_decided(snap)):
            raise NotYet(f"round {round_ - 1} of event {event_id} is not decided yet")
        allow = tuple(job.payload.get("allow", ()))
        try:
            pairings = plan.pair_round(snap, round_, allow, self.t.smallest_table(event))
        except NoLegalPairing as conflict:  # FIDE has no legal pairing: the event waits for the organiser
            return Post(event, "decision", job.dedupe or "", self.t.decision_text(snap, round_, conflict),
                        ways=tuple("+".join(way) for way in conflict.options), round=round_)
        now = self.t.now()
        async with self.t.db.transaction() as tx:
            await repo.bump(tx, event, now, current_round=round_)
            await repo.add_pairings(tx, event_id, pairings)
            await self.t.owe(tx, GAMES, event_id, f"games:{round_}", now)
            await self.t.owe(tx, POST, event_id, f"pairings:{round_}", now, what="pairings", round=round_)
            await self.t.owe(tx, SETTLE, event_id, f"settle:round:{round_}", now)
            if any(p.points is not None for p in pairings):
                await self.t.owe(tx, POST, event_id, f"standings:round:{round_}", now, what="standings")
        return None

    async def games(self, event_id: int, job: Job) -> Post | None:
        """Start every game the event owes (a fresh round, a knockout replay), each exactly once."""
        snap = await self.t.load(event_id)
        if snap.event.status != "running":
            return None
        keys = []
        for pairing in snap.pairings:
            if pairing.bye or pairing.points is not None:
                continue
            game_id = pairing.game_id if pairing.game_id is not None else await self.create_game(snap.event, pairing)
            if game_id is None:
                raise StaleVersion("another worker started this pairing's game")
            row = await self.t.session.row(game_id)
            if row.status == "challenge":
                try:
                    await self.t.lobby.start(row, shuffle=False)
                except HostError:  # the start-up recovery started it at this very moment
                    log.info("game %s of event %s was started elsewhere", game_id, event_id)
                keys.append(outbox.thread_key(game_id))
        return Post(snap.event, "games", job.dedupe or "", thread_keys=tuple(keys)) if keys else None

    async def create_game(self, event: EventRow, pairing: Pairing) -> int | None:
        """A normal game for the pairing, linked in the same transaction (None: it already had one)."""
        settings = {"rated": event.rated, "clock": event.clock, "match": 1, "event": event.id,
                    "event_round": pairing.round, "event_name": event.name or f"Event #{event.id}"}
        seats = [Seat(i, user, True) for i, user in enumerate(pairing.seats)]

        async def link(tx: Any, game_id: int) -> None:
            if not await repo.link_game(tx, pairing.id, game_id):
                raise StaleVersion(f"pairing {pairing.id} already has a game")

        options = self.t.session.game_class(event.game).check_options(len(seats), event.options)
        try:
            return await self.t.session.store.create(
                guild_id=event.guild_id, channel_id=event.channel_id, game=event.game, players=len(seats),
                options=options, settings=settings, seed=dice.new_seed(), creator_id=event.organiser_id,
                seats=seats, now=self.t.now(), also=link)
        except StaleVersion:
            return None

    async def result(self, event_id: int, job: Job) -> Post | None:
        """A game of the event ended: its points go on the pairing, then the event settles."""
        game_id = int(job.game_id or 0)
        snap = await self.t.load(event_id)
        pairing = next((p for p in snap.pairings if p.game_id == game_id), None)
        if pairing is None or pairing.points is not None or snap.event.status != "running":
            return None
        row = await self.t.session.row(game_id)
        if row.status == "finished" and row.result is not None:
            points, forfeit = placing_points(row.result["ranks"], snap.event.table_size), False
        elif row.status == "aborted":  # nobody moved before the clock ran out: the players to move lose
            game = await self.t.session.cached_engine(row)
            movers = game.to_move() or frozenset(range(row.players))
            ranks = [2 if seat in movers else 1 for seat in range(row.players)]
            if len(set(ranks)) == 1:
                ranks = [1] * row.players
                points = tuple(0.0 for _ in ranks)
            else:
                points = placing_points(ranks, snap.event.table_size)
            forfeit = True
        else:
            return None
        now = self.t.now()
        async with self.t.db.transaction() as tx:
            await repo.bump(tx, snap.event, now)
            await repo.set_points(tx, pairing.id, points, forfeit)
            await self.t.owe(tx, SETTLE, event_id, f"settle:game:{game_id}", now)
            await self.t.owe(tx, POST, event_id, f"standings:game:{game_id}", now, what="standings")
        return None

    async def settle(self, event_id: int, job: Job) -> Post | None:
        """After a change: a knockout replay owed, the next round owed, or the end of the event."""
        snap = await self.t.load(event_id)
        event = snap.event
        if event.status != "running" or event.current_round == 0:
            return None
        now = self.t.now()
        if event.format == plan.KNOCKOUT and (owed := plan.replays(snap)):
            async with self.t.db.transaction() as tx:
                await repo.bump(tx, event, now)
                await repo.add_pairings(tx, event_id, owed)
                await self.t.owe(tx, GAMES, event_id, f"games:v{event.version + 1}", now)
                await self.t.owe(tx, POST, event_id, f"replays:v{event.version + 1}", now, what="pairings",
                                 round=event.current_round)
            return None
        if not plan.round_decided(snap):
            return None
        async with self.t.db.transaction() as tx:
            if plan.finished_after_round(snap, self.t.smallest_table(event)):
                await repo.bump(tx, event, now, status="finished")
                await self.t.owe(tx, POST, event_id, "standings:final", now, what="standings")
                await self.t.owe(tx, POST, event_id, "podium", now, what="podium")
                await self.t.owe(tx, POST, event_id, "signup:finished", now, what="signup")
            else:
                nxt = event.current_round + 1  # its key makes the pairing job exist once
                await self.t.owe(tx, PAIR, event_id, f"round:{nxt}", now, round=nxt)
        return None

    async def withdraw(self, event_id: int, job: Job) -> Post | None:
        """A withdrawn or removed player's games in progress are resigned (losses, like any resignation)."""
        user = int(job.payload["user"])
        snap = await self.t.load(event_id)
        reports = []
        for pairing in snap.pairings:
            if pairing.game_id is None or pairing.points is not None or user not in pairing.seats:
                continue
            row = await self.t.session.row(pairing.game_id)
            if row.status != "active":
                continue
            try:
                reports.append(await self.t.turns.resign(row.id, user))
            except HostError as error:  # already resigned, or the game ended at this moment
                log.info("no resignation for %s in game %s: %s", user, row.id, error)
        return Post(snap.event, "reports", job.dedupe or "", reports=tuple(reports)) if reports else None

    async def post(self, event_id: int, job: Job) -> Post | None:
        """Built when sent, from the event as it is now: a late post never shows an old state as new."""
        what, key = str(job.payload["what"]), job.dedupe or ""
        snap = await self.t.load(event_id)
        event = snap.event
        if what == "signup":
            if event.message_id is None:
                return None
            return Post(event, what, key, self.t.signup_text(snap), edit=event.message_id,
                        open=event.status == "open")
        if what == "pairings":
            round_ = int(job.payload["round"])
            threads = await self.threads(snap, round_)
            return Post(event, what, key, self.t.pairings_text(snap, round_, threads.get))
        if what == "standings":
            if await self.newer_standings(event_id, job.id):
                return None  # a burst of results: the last of their updates shows them all
            view = await self.t.standings(event_id, name_of=self.name_of, explain=False)
            return Post(event, what, key, view.text, tuple(view.images), edit=event.standings_message_id)
        if what == "podium":  # the last boards first: the cog sends these owed posts before the podium
            return Post(event, what, key, self.t.podium_text(snap), thread_keys=await self.boards_owed(snap))
        return Post(event, "notice", key, str(job.payload.get("text", ""))[:2000])

    async def newer_standings(self, event_id: int, job_id: int) -> bool:
        pending = await self.queue.pending(kind=POST)
        return any(j.id > job_id and j.payload.get("event") == event_id and j.payload.get("what") == "standings"
                   for j in pending)

    async def boards_owed(self, snap: Snapshot) -> tuple[str, ...]:
        """The outbox keys of the event's game posts not yet delivered (a last board still on its way)."""
        games = {p.game_id for p in snap.pairings if p.game_id is not None}
        owed = await self.t.outbox.pending()
        return tuple(j.dedupe for j in owed if j.game_id in games and j.dedupe and j.kind in ("thread", "post"))

    async def threads(self, snap: Snapshot, round_: int) -> dict[int, int | None]:
        found: dict[int, int | None] = {}
        for pairing in snap.pairings:
            if pairing.round == round_ and pairing.game_id is not None:
                found[pairing.game_id] = (await self.t.session.row(pairing.game_id)).thread_id
        return found
