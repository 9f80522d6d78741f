"""The lobby: challenges, seats, starts and rematches. A full table starts in the transaction that filled it.

It stands on the session, the clocks and the read model only; a match's next game (``host/play/matches.py``) and
an event's games (``host/tournaments/jobs.py``) call ``start`` from above.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from data.db import Tx
from data.store import GameRow, Seat, TooManyChallenges
from engines import CHANCE
from host import outbox
from host.correspondence import clocks
from host.correspondence.timing import Clocks
from host.outbox import Owed
from host.play import bots, dice, match_rules
from host.play.boards import Boards, choices_owed
from host.play.session import GameSession
from host.results import HostError, Report
from host.results import Lobby as Seated

log = logging.getLogger(__name__)
SETTINGS_DEFAULTS: dict[str, Any] = {"rated": True, "clock": "none", "match": 1}
MAX_OPEN_CHALLENGES = 10
"""Open challenges one user may have at once: one user must not flood a server with pings."""
CHALLENGE_TTL = 7 * 86400.0
"""Seconds until an unanswered challenge expires (a scheduled job withdraws it)."""


def full(seats: list[Seat]) -> bool:
    return all(s.accepted and s.user_id is not None for s in seats)


class Lobby:
    """Challenges until their tables are full, then the start (seats drawn, clocks started, thread owed)."""

    def __init__(self, session: GameSession, clocks: Clocks, boards: Boards, now: Callable[[], float], *,
                 max_open_challenges: int = MAX_OPEN_CHALLENGES, challenge_ttl: float = CHALLENGE_TTL) -> None:
        self.session = session
        self.clocks = clocks
        self.boards = boards
        self.now = now
        self.max_open_challenges = max_open_challenges
        self.challenge_ttl = challenge_ttl

    async def challenge(self, *, game: str, creator: int, opponents: list[int], open_seats: int = 0,
                        options: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
                        guild_id: int | None = None, channel_id: int | None = None,
                        also: Callable[[Tx, int], Awaitable[None]] | None = None) -> Seated:
        """A new game waiting for named opponents to accept and open seats to be filled. ``also(tx, id)``
        writes more in the creating transaction (a ladder ties the game to itself)."""
        cls = self.session.game_class(game)
        players = 1 + len(opponents) + open_seats
        try:
            checked = cls.new(players, options or {}).options
        except ValueError as error:
            raise HostError(f"Cannot start {cls.title}: {error}.") from None
        unknown = set(settings or {}) - set(SETTINGS_DEFAULTS)
        if unknown:
            raise HostError(f"Unknown setting {', '.join(sorted(unknown))}.")
        merged = {**SETTINGS_DEFAULTS, **(settings or {})}
        match_rules.check_length(merged["match"], players)
        try:
            merged["clock"] = clocks.parse(merged["clock"]).text
        except ValueError as error:
            raise HostError(f"Cannot start {cls.title}: {error}.") from None
        people = [u for u in opponents if not bots.is_ai(u)]  # one AI level may hold several seats
        if len(set(people)) != len(people):
            raise HostError("Each opponent can only take one seat.")
        if merged["rated"] is None:  # not chosen: a game against the easy AI alone is practice, with hints
            practice = bool(opponents) and not open_seats and all(u == bots.user_of("easy") for u in opponents)
            merged["rated"] = not practice
            if practice:
                merged["practice"] = True
        if creator in opponents:
            merged["rated"] = False
            merged.pop("practice", None)
        seats = [Seat(0, creator, True)]
        seats += [Seat(i + 1, user, user == creator or bots.is_ai(user)) for i, user in enumerate(opponents)]
        seats += [Seat(len(seats) + i, None, False) for i in range(open_seats)]
        now = self.now()
        merged["expires_at"] = now + self.challenge_ttl

        async def expiry(conn: Tx, game_id: int) -> None:
            await outbox.write(conn, [Owed("challenge_expire", f"expire:{game_id}", game_id,
                                           due_in=self.challenge_ttl)], now)
            if also is not None:
                await also(conn, game_id)

        try:
            game_id = await self.session.store.create(
                guild_id=guild_id, channel_id=channel_id, game=game, players=players, options=checked,
                settings=merged, seed=dice.new_seed(), creator_id=creator, seats=seats, now=now,
                max_open=self.max_open_challenges, also=expiry)
        except TooManyChallenges:
            raise HostError(f"You already have {self.max_open_challenges} open challenges; wait for answers or"
                            f" withdraw one (Decline on its message, or /{game} abort).") from None
        row = await self.session.row(game_id)
        return await self._maybe_start(row)

    async def accept(self, game_id: int, user: int) -> Seated:
        row = await self.session.row(game_id)
        self.session.require_status(row, "challenge")
        pending = [s for s in row.seats if s.user_id == user and not s.accepted]
        if not pending:
            if row.seat_of(user) is not None and full(row.seats):
                return await self.start_once(row, resume=True)  # a start a crash interrupted
            if row.seat_of(user) is not None:
                raise HostError("You have already accepted this challenge.")
            raise HostError("This challenge is not addressed to you; open seats take the Join button.")
        seats = [Seat(s.seat, s.user_id, s.accepted or s.user_id == user, s.team) for s in row.seats]
        return await self._take_seats(row, seats)

    async def join(self, game_id: int, user: int) -> Seated:
        row = await self.session.row(game_id)
        self.session.require_status(row, "challenge")
        if row.seat_of(user) is not None:
            raise HostError("You are already in this game.")
        free = next((s for s in row.seats if s.user_id is None), None)
        if free is None:
            raise HostError("This game has no open seat left.")
        seats = [Seat(s.seat, user, True, s.team) if s is free else s for s in row.seats]
        return await self._take_seats(row, seats)

    async def expire(self, game_id: int) -> GameRow | None:
        """The scheduled end of an unanswered challenge: withdrawn (never rated). None when it was answered."""
        row = await self.session.row(game_id)
        if row.status != "challenge":
            return None
        try:
            await self.session.write(row, status="aborted")
        except HostError:  # an Accept at this very moment won
            return None
        return row

    async def decline(self, game_id: int, user: int) -> Seated:
        """A named opponent declines, or the creator withdraws the challenge."""
        row = await self.session.row(game_id)
        self.session.require_status(row, "challenge")
        if row.seat_of(user) is None:
            raise HostError("Only the players named in this challenge can decline it.")
        await self.session.write(row, status="declined")
        return Seated(row, started=False, declined_by=user)

    async def _take_seats(self, row: GameRow, seats: list[Seat]) -> Seated:
        """Save the seats; when the table is full, start the game in that same transaction."""
        if full(seats):
            return await self.start(row, seats=seats)
        await self.session.write(row, seats=seats)
        return Seated(row, started=False)

    async def _maybe_start(self, row: GameRow) -> Seated:
        return await self.start_once(row) if full(row.seats) else Seated(row, started=False)

    async def start_once(self, row: GameRow, *, resume: bool = False) -> Seated:
        """Start a table saved full. Another process's recovery starts full tables left in ``challenge`` (a crash
        between the two steps) and may have just started this one: then that process posts the start, and this
        one answers "started" with no report of its own instead of a false "try again". ``resume``: start as the
        recovery does (a match's or an event's game keeps its seat order)."""
        try:
            return await (self._resume_start(row) if resume else self.start(row))
        except HostError:
            now = await self.session.row(row.id)
            if now.status not in ("active", "finished"):  # still waiting, or declined or withdrawn meanwhile
                raise
            log.info("game %s was started by another process", row.id)
            return Seated(now, started=True)

    async def recover(self) -> list[Report]:
        """On start-up: finish starts that a crash interrupted (full tables still in ``challenge``) and owe a
        thread to games left without one. Returns the start reports, for the bot to post."""
        reports: list[Report] = []
        for game_id in await self.session.store.full_challenges():  # each start-up query reads pending work only
            try:
                row = await self.session.row(game_id)
                if full(row.seats) and (lobby := await self._resume_start(row)).report is not None:
                    reports.append(lobby.report)
            except HostError as error:  # another process (a shard's) started it at the same moment
                log.info("game %s was not started on recovery: %s", game_id, error)
            except Exception:  # one unrecoverable row must not keep the bot from starting
                log.exception("could not start game %s on recovery", game_id)
        await self._owe_missing_threads()
        return reports

    async def _owe_missing_threads(self) -> None:
        """Games left without a thread by a crash before the outbox existed: owe each its thread now."""
        rows = await self.session.store.threadless()
        if rows:
            log.info("%d active game(s) have no thread: owing them one", len(rows))
            async with self.session.db.transaction() as conn:
                await outbox.write(conn, [Owed("thread", outbox.thread_key(game_id), game_id, {"upto": plies},
                                               due_in=0.0) for game_id, plies in rows], self.now())

    async def _resume_start(self, row: GameRow) -> Seated:
        """A start that was interrupted: a match or event game keeps its seat order (the sides were chosen)."""
        return await self.start(row, shuffle="match_of" not in row.settings and "event" not in row.settings)

    async def start(self, row: GameRow, *, shuffle: bool = True, seats: list[Seat] | None = None) -> Seated:
        """Start a full table (``seats``: the table just completed, saved in the same transaction).
        Seats are drawn from the seed; in team games the order is only rotated, so the partners the
        challenger named (``opponent2``) stay partners.

        A start is the one write that takes the table out of ``challenge``: refused (``HostError``) for a row read
        after another process started it, whose version check would hold (a recovery that listed the table before
        that start, or a match's creator reading its game after a recovery started it); the version check then
        lets exactly one start through, so exactly one process reports it."""
        self.session.require_status(row, "challenge")
        users = [s.user_id for s in (seats or row.seats) if s.user_id is not None]
        game = self.session.game_class(row.game).new(row.players, row.options)
        teams = game.teams()
        shuffle = shuffle and "rematch_of" not in row.settings  # a rematch keeps its rotated seats
        if shuffle and len(set(teams)) == len(teams):
            dice.rng_for(row.seed, "seats").shuffle(users)
        elif shuffle:
            turn = dice.rng_for(row.seed, "seats").randrange(len(users))
            users = users[turn:] + users[:turn]
        seats = [Seat(i, user, True, teams[i]) for i, user in enumerate(users)]
        prefix = [(int(seat), str(text)) for seat, text in row.settings.get("start_history", [])]
        for seat, text in prefix:  # a game played on from another's position (host/records/replay.py)
            game.apply_record(seat, text)
        rolls = dice.roll_pending(game, row.seed)
        timing = await self.clocks.clock_changes(row, game, [], seats=seats, fresh=True)
        owed = [Owed("thread", outbox.thread_key(row.id), row.id, {"upto": len(game.history)}),
                *choices_owed(row.id, game, seats)]
        await self.session.write(row, seats=seats, status="active", moves=prefix + [(CHANCE, r) for r in rolls],
                                 state=game, owed=owed, **timing)
        self.session.engines[row.id] = (row.version, game)
        return Seated(row, started=True, report=await self.boards.report(row, game, []))

    async def rematch(self, game_id: int, user: int) -> Seated:
        """A new challenge to the same players with the same options, seats rotated by one; the caller accepts."""
        row = await self.session.row(game_id)
        if row.status != "finished":
            raise HostError(f"Game #{row.id} is not over yet; a rematch comes after it.")
        users = [row.user_at(s) for s in range(row.players)]
        if user not in users:
            raise HostError("Only the players of this game can ask for a rematch.")
        rotated = users[1:] + users[:1]
        seats = [Seat(i, u, u == user or bots.is_ai(u)) for i, u in enumerate(rotated)]  # the AI always accepts
        settings = {k: row.settings.get(k, v) for k, v in SETTINGS_DEFAULTS.items()}
        if row.settings.get("practice"):
            settings["practice"] = True
        options = dict(row.options)
        if row.settings.get("match_of") is not None:  # a match's later games swapped sides: start as the first did
            first = await self.session.row(int(row.settings["match_of"]))
            options = dict(first.options)
        new_id, new = await self.session.store.create_rematch(
            rematch_of=row.id, guild_id=row.guild_id, channel_id=row.channel_id, game=row.game, players=row.players,
            options=options, settings=settings, seed=dice.new_seed(), creator_id=user, seats=seats, now=self.now())
        if not new:
            said = "waiting for players" if (await self.session.row(new_id)).status == "challenge" else "being played"
            raise HostError(f"Rematch #{new_id} of game #{row.id} is already {said}; there is one rematch at a time.")
        return await self._maybe_start(await self.session.row(new_id))
