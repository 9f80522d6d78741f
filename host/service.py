"""The host: where engines, storage and rendering meet. Every command is a method here, without Discord.

Methods return plain results (text with ``<@id>`` mentions, PNG bytes) that a cog only has to send.
Every change is one version-checked transaction, so two clicks at the same instant end with one
applied and one clear error, and a crash never loses an accepted move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import aiosqlite

import engines
import render
from data.db import Database, StaleVersion
from data.store import GameRow, GameStore, Seat, TooManyChallenges
from engines import CHANCE, Game, IllegalMove
from host import clocks, correspondence, dice, matches, outbox
from host.choices import narrow
from host.outbox import Outbox, Owed
from host.results import Board, HostError, Lobby, Report

Renderer = Callable[[dict[str, Any]], bytes]
FinishHook = Callable[[aiosqlite.Connection, GameRow, Game, float], Awaitable[None]]
"""Runs inside the transaction that records a game's end (ratings), so both land or neither."""
log = logging.getLogger(__name__)
SETTINGS_DEFAULTS: dict[str, Any] = {"rated": True, "clock": "none", "match": 1}
MAX_OPEN_CHALLENGES = 10
"""Open challenges one user may have at once: one user must not flood a server with pings."""
CHALLENGE_TTL = 7 * 86400.0
"""Seconds until an unanswered challenge expires (a scheduled job withdraws it)."""


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id is not None else "an open seat"


class Host:
    """Seats, turns, draws and the lobby for every game, over one database."""

    def __init__(self, db: Database, *, games: Mapping[str, type[Game]] | None = None,
                 renderer: Renderer = render.render, now: Callable[[], float] = time.time,
                 on_finish: Sequence[FinishHook] = (), max_open_challenges: int = MAX_OPEN_CHALLENGES,
                 challenge_ttl: float = CHALLENGE_TTL) -> None:
        self.db = db
        self.store = GameStore(db)
        self.games = games if games is not None else engines.GAMES
        self.renderer = renderer
        self.now = now
        self.on_finish = list(on_finish)
        self.outbox = Outbox(db)
        self.max_open_challenges = max_open_challenges
        self.challenge_ttl = challenge_ttl
        self._engines: dict[int, tuple[int, Game]] = {}

    # ----- lobby ------------------------------------------------------------------------

    async def challenge(self, *, game: str, creator: int, opponents: list[int], open_seats: int = 0,
                        options: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
                        guild_id: int | None = None, channel_id: int | None = None) -> Lobby:
        """A new game waiting for named opponents to accept and open seats to be filled."""
        cls = self._game_class(game)
        players = 1 + len(opponents) + open_seats
        try:
            checked = cls.new(players, options or {}).options
        except ValueError as error:
            raise HostError(f"Cannot start {cls.title}: {error}.") from None
        unknown = set(settings or {}) - set(SETTINGS_DEFAULTS)
        if unknown:
            raise HostError(f"Unknown setting {', '.join(sorted(unknown))}.")
        merged = {**SETTINGS_DEFAULTS, **(settings or {})}
        matches.check_length(merged["match"], players)
        try:
            merged["clock"] = clocks.parse(merged["clock"]).text
        except ValueError as error:
            raise HostError(f"Cannot start {cls.title}: {error}.") from None
        if len(set(opponents)) != len(opponents):
            raise HostError("Each opponent can only take one seat.")
        if creator in opponents:
            merged["rated"] = False
        seats = [Seat(0, creator, True)]
        seats += [Seat(i + 1, user, user == creator) for i, user in enumerate(opponents)]
        seats += [Seat(len(seats) + i, None, False) for i in range(open_seats)]
        now = self.now()
        merged["expires_at"] = now + self.challenge_ttl

        async def expiry(conn: aiosqlite.Connection, game_id: int) -> None:
            await outbox.write(conn, [Owed("challenge_expire", f"expire:{game_id}", game_id,
                                           due_in=self.challenge_ttl)], now)

        try:
            game_id = await self.store.create(
                guild_id=guild_id, channel_id=channel_id, game=game, players=players, options=checked,
                settings=merged, seed=dice.new_seed(), creator_id=creator, seats=seats, now=now,
                max_open=self.max_open_challenges, also=expiry)
        except TooManyChallenges:
            raise HostError(f"You already have {self.max_open_challenges} open challenges; wait for answers or"
                            f" withdraw one (Decline on its message, or /{game} abort).") from None
        row = await self._row(game_id)
        return await self._maybe_start(row)

    async def accept(self, game_id: int, user: int) -> Lobby:
        row = await self._row(game_id)
        self._require_status(row, "challenge")
        pending = [s for s in row.seats if s.user_id == user and not s.accepted]
        if not pending:
            if row.seat_of(user) is not None and self._full(row.seats):
                return await self._resume_start(row)  # a start a crash interrupted: finish it
            if row.seat_of(user) is not None:
                raise HostError("You have already accepted this challenge.")
            raise HostError("This challenge is not addressed to you; open seats take the Join button.")
        seats = [Seat(s.seat, s.user_id, s.accepted or s.user_id == user, s.team) for s in row.seats]
        return await self._take_seats(row, seats)

    async def join(self, game_id: int, user: int) -> Lobby:
        row = await self._row(game_id)
        self._require_status(row, "challenge")
        if row.seat_of(user) is not None:
            raise HostError("You are already in this game.")
        free = next((s for s in row.seats if s.user_id is None), None)
        if free is None:
            raise HostError("This game has no open seat left.")
        seats = [Seat(s.seat, user, True, s.team) if s is free else s for s in row.seats]
        return await self._take_seats(row, seats)

    async def expire(self, game_id: int) -> GameRow | None:
        """The scheduled end of an unanswered challenge: withdrawn (never rated). None when it was answered."""
        row = await self._row(game_id)
        if row.status != "challenge":
            return None
        try:
            await self._write(row, status="aborted")
        except HostError:  # an Accept at this very moment won
            return None
        return row

    async def decline(self, game_id: int, user: int) -> Lobby:
        """A named opponent declines, or the creator withdraws the challenge."""
        row = await self._row(game_id)
        self._require_status(row, "challenge")
        if row.seat_of(user) is None:
            raise HostError("Only the players named in this challenge can decline it.")
        await self._write(row, status="declined")
        return Lobby(row, started=False, declined_by=user)

    @staticmethod
    def _full(seats: list[Seat]) -> bool:
        return all(s.accepted and s.user_id is not None for s in seats)

    async def _take_seats(self, row: GameRow, seats: list[Seat]) -> Lobby:
        """Save the seats; when the table is full, start the game in that same transaction."""
        if self._full(seats):
            return await self.start(row, seats=seats)
        await self._write(row, seats=seats)
        return Lobby(row, started=False)

    async def _maybe_start(self, row: GameRow) -> Lobby:
        return await self.start(row) if self._full(row.seats) else Lobby(row, started=False)

    async def recover(self) -> list[Report]:
        """On start-up: finish starts that a crash interrupted (full tables still in ``challenge``) and
        matches whose next game was never created. Returns their start reports, for the bot to post."""
        reports: list[Report] = []
        for found in await self.db.fetchall("SELECT id FROM games WHERE status = 'challenge'"):
            try:
                row = await self._row(found["id"])
                if self._full(row.seats) and (lobby := await self._resume_start(row)).report is not None:
                    reports.append(lobby.report)
            except Exception:  # one unrecoverable row must not keep the bot from starting
                log.exception("could not start game %s on recovery", found["id"])
        await self._owe_missing_threads()
        return reports + await matches.resume_all(self)

    async def _owe_missing_threads(self) -> None:
        """Games left without a thread by a crash before the outbox existed: owe each its thread now."""
        rows = await self.db.fetchall("SELECT g.id, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies"
                                      " FROM games g WHERE g.status = 'active' AND g.thread_id IS NULL"
                                      " AND g.channel_id IS NOT NULL")
        if rows:
            log.info("%d active game(s) have no thread: owing them one", len(rows))
            async with self.db.transaction() as conn:
                await outbox.write(conn, [Owed("thread", outbox.thread_key(r["id"]), r["id"], {"upto": r["plies"]},
                                               due_in=0.0) for r in rows], self.now())

    async def _resume_start(self, row: GameRow) -> Lobby:
        """A start that was interrupted: a match game keeps its seat order (the sides swap depends on it)."""
        return await self.start(row, shuffle="match_of" not in row.settings)

    def new_seed(self) -> str:
        return dice.new_seed()

    async def start(self, row: GameRow, *, shuffle: bool = True, seats: list[Seat] | None = None) -> Lobby:
        """Start a full table (``seats``: the table just completed, saved in the same transaction).
        Seats are drawn from the seed; in team games the order is only rotated, so the partners the
        challenger named (``opponent2``) stay partners."""
        users = [s.user_id for s in (seats or row.seats) if s.user_id is not None]
        game = self._game_class(row.game).new(row.players, row.options)
        teams = game.teams()
        if shuffle and len(set(teams)) == len(teams):
            dice.rng_for(row.seed, "seats").shuffle(users)
        elif shuffle:
            turn = dice.rng_for(row.seed, "seats").randrange(len(users))
            users = users[turn:] + users[:turn]
        seats = [Seat(i, user, True, teams[i]) for i, user in enumerate(users)]
        rolls = dice.roll_pending(game, row.seed)
        timing = await correspondence.clock_changes(self, row, game, [], seats=seats, fresh=True)
        owed = [Owed("thread", outbox.thread_key(row.id), row.id, {"upto": len(game.history)}),
                *self._choices_owed(row.id, game, seats)]
        await self._write(row, seats=seats, status="active", moves=[(CHANCE, r) for r in rolls], owed=owed,
                          **timing)
        self._engines[row.id] = (row.version, game)
        return Lobby(row, started=True, report=await self._report(row, game, []))

    # ----- play -------------------------------------------------------------------------

    async def play(self, game_id: int, user: int, text: str, *, expected_ply: int | None = None) -> Report:
        """Parse and apply a user's move, roll any dice it leads to, persist, and say what changed.

        ``expected_ply``: the position a button was made for; any other position refuses, and the
        version check makes that refusal exact even against a click at the same instant.
        """
        row = await self._row(game_id)
        self._require_status(row, "active")
        game = (await self._engine(row)).clone()
        if expected_ply is not None and len(game.history) != expected_ply:
            raise HostError("That button belongs to an earlier position; use the buttons under the newest board.")
        seat = self._acting_seat(row, game, user)
        try:
            canonical = game.play(seat, text)
        except IllegalMove as error:
            raise HostError(str(error)) from None
        applied = [(seat, canonical)] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self._commit(row, game, applied, draw_offers=[])
        return await self._report(row, game, applied)

    async def resign(self, game_id: int, user: int) -> Report:
        row = await self._row(game_id)
        self._require_status(row, "active")
        game = (await self._engine(row)).clone()
        seats = self._seats_in_play(row, game, user)
        game.eliminate(seats[0], "resign")
        applied = [(seats[0], "resign")] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self._commit(row, game, applied, draw_offers=[])
        return await self._report(row, game, applied)

    async def offer_draw(self, game_id: int, user: int) -> Report | str:
        """Offer a draw, or accept the offers on the table; a draw needs every remaining player."""
        row = await self._row(game_id)
        self._require_status(row, "active")
        game = (await self._engine(row)).clone()
        seats = self._seats_in_play(row, game, user)
        offers = sorted(set(row.draw_offers) | set(seats))
        if set(row.draw_offers) >= set(seats):
            raise HostError("You have already offered a draw; it stands until someone moves.")
        if set(offers) >= set(game.active_seats()):
            game.agree_draw(seats[0])
            applied = [(seats[0], "draw")]
            await self._commit(row, game, applied, draw_offers=[])
            return await self._report(row, game, applied)
        await self._write(row, draw_offers=offers)
        waiting = [mention(row.user_at(s)) for s in game.active_seats() if s not in offers]
        return f"{mention(user)} offers a draw. {', '.join(waiting)}: use draw to accept, or just move to decline."

    async def decline_draw(self, game_id: int, user: int) -> str:
        row = await self._row(game_id)
        self._require_status(row, "active")
        if not row.draw_offers:
            raise HostError("There is no draw offer to decline.")
        if row.seat_of(user) is None:
            raise HostError("You are not playing in this game.")
        await self._write(row, draw_offers=[])
        return f"{mention(user)} declined the draw offer."

    async def abort(self, game_id: int, user: int) -> str:
        """Cancel a game before any player has moved; it is never rated."""
        row = await self._row(game_id)
        if row.seat_of(user) is None:
            raise HostError("Only a player of this game can abort it.")
        if row.status == "challenge":
            await self._write(row, status="aborted")
            return f"{mention(user)} withdrew the challenge."
        self._require_status(row, "active")
        game = await self._engine(row)
        if any(seat != CHANCE for seat, _ in game.history):
            raise HostError("The game has started: resign instead, or offer a draw.")
        await self._write(row, status="aborted")
        return f"{mention(user)} aborted the game before the first move."

    # ----- reading ----------------------------------------------------------------------

    async def board(self, game_id: int, user: int | None = None) -> Board:
        """The public board, or a seated user's own view (with their hidden information)."""
        row = await self._row(game_id)
        game = await self._engine(row)
        seat = row.seat_of(user) if user is not None else None
        return await self._board(row, game, seat)

    async def move_choices(self, game_id: int, user: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete: (label, move) of the user's legal moves matching what they typed, at most 25."""
        row = await self._row(game_id)
        if row.status != "active":
            return []
        game = await self._engine(row)
        seats = [s for s in row.seats_of(user) if s in game.to_move()]
        if not seats:
            return []
        return narrow(game.legal_moves(seats[0]), typed, lambda move: game.describe(seats[0], move))

    async def turn_moves(self, game_id: int, limit: int = 20) -> tuple[int, list[str]]:
        """(ply, moves) for one-click buttons: the legal moves when one seat is to move and they fit."""
        row = await self._row(game_id)
        if row.status != "active":
            return 0, []
        game = await self._engine(row)
        movers = [s for s in game.to_move() if s != CHANCE]
        if len(movers) != 1 or game.hidden_information:
            return len(game.history), []
        moves = game.legal_moves(movers[0])
        return len(game.history), moves if len(moves) <= limit else []

    async def resolve(self, game: str, user: int, *, thread_id: int | None, guild_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow:
        """The game a command means: the thread's game, else the user's only such game in the server."""
        if thread_id is not None:
            row = await self.store.find_by_thread(thread_id)
            if row is not None and row.game == game:
                return row
        mine = await self.store.games_of(user, statuses, guild_id=guild_id, game=game)
        title = self._game_class(game).title
        if not mine:
            raise HostError(f"You have no {title} game here. Start one with /{game} new.")
        if len(mine) > 1:
            raise HostError(f"You have {len(mine)} {title} games; use the command inside the game's thread.")
        return mine[0]

    async def set_thread(self, game_id: int, thread_id: int | None, message_id: int | None = None) -> None:
        """Where the game lives in Discord. Not game state, so no version bump: an Accept click or a first
        move racing with it must not fail."""
        await self._row(game_id)
        await self.store.set_links(game_id, thread_id, message_id)

    async def get(self, game_id: int) -> GameRow:
        return await self._row(game_id)

    async def observation(self, game_id: int, user: int | None) -> dict[str, Any]:
        row = await self._row(game_id)
        game = await self._engine(row)
        return game.observation(row.seat_of(user) if user is not None else None)

    async def rolls(self, game_id: int) -> list[str]:
        """Every dice result so far, in order: with the seed revealed at the end anyone can recheck them."""
        row = await self._row(game_id)
        return [m.text for m in await self.store.moves(row.id) if m.seat == CHANCE]

    # ----- correspondence: the work is in host/correspondence.py ---------------------------

    async def timeout(self, game_id: int, seat: int) -> Report:
        """Record that ``seat`` ran out of time; the caption says which time control ran out."""
        return await correspondence.timeout(self, game_id, seat)

    async def due(self, now: float) -> correspondence.Due:
        """Games whose deadline passed or whose reminder is due (indexed, cheap enough to poll)."""
        return await correspondence.due(self, now)

    async def games_overview(self, user: int, guild_id: int | None) -> list[correspondence.GameLine]:
        return await correspondence.games_overview(self, user, guild_id)

    async def history(self, user: int, guild_id: int | None) -> list[correspondence.HistoryLine]:
        return await correspondence.history(self, user, guild_id)

    async def set_notify(self, user: int, mode: str) -> str:
        return await correspondence.set_notify(self, user, mode)

    async def vacation(self, user: int, days: int) -> str:
        return await correspondence.vacation(self, user, days)

    # ----- internals --------------------------------------------------------------------

    def _game_class(self, name: str) -> type[Game]:
        try:
            return self.games[name]
        except KeyError:
            raise HostError(f"There is no game called {name}.") from None

    async def _row(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id)
        if row is None:
            raise HostError(f"There is no game #{game_id}.")
        return row

    @staticmethod
    def _require_status(row: GameRow, status: str) -> None:
        if row.status == status:
            return
        said = {"challenge": "is still waiting for players", "active": "is already under way",
                "finished": "is over", "aborted": "was aborted", "declined": "was declined"}
        raise HostError(f"Game #{row.id} {said.get(row.status, row.status)}.")

    async def _engine(self, row: GameRow) -> Game:
        """The engine at the row's version: cached, else rebuilt by replaying the move log."""
        cached = self._engines.get(row.id)
        if cached and cached[0] == row.version:
            return cached[1]
        game = self._game_class(row.game).new(row.players, row.options)
        for move in await self.store.moves(row.id):
            game.apply_record(move.seat, move.text)
        self._engines[row.id] = (row.version, game)
        return game

    async def engines_of(self, rows: Sequence[GameRow]) -> list[Game]:
        """The engines of many games (listings): cached ones as they are, the rest from one move-log query."""
        missing = [row for row in rows if (cached := self._engines.get(row.id)) is None or cached[0] != row.version]
        logs = await self.store.moves_of([row.id for row in missing])
        for row in missing:
            game = self._game_class(row.game).new(row.players, row.options)
            for move in logs.get(row.id, []):
                game.apply_record(move.seat, move.text)
            self._engines[row.id] = (row.version, game)
        return [self._engines[row.id][1] for row in rows]

    @staticmethod
    def _seats_in_play(row: GameRow, game: Game, user: int) -> list[int]:
        """The user's seats that have not left the game; refuses anyone else."""
        seats = [s for s in row.seats_of(user) if s not in game.eliminated]
        if not seats:
            raise HostError("You are not playing in this game.")
        return seats

    def _acting_seat(self, row: GameRow, game: Game, user: int) -> int:
        seats = row.seats_of(user)
        if not seats:
            raise HostError("You are not playing in this game.")
        movers = [s for s in seats if s in game.to_move()]
        if not movers:
            waiting = sorted(s for s in game.to_move() if s != CHANCE)
            names = ", ".join(f"{game.seat_name(s)} ({mention(row.user_at(s))})" for s in waiting)
            raise HostError(f"It is not your turn; waiting for {names}.")
        return movers[0]

    async def _write(self, row: GameRow, *, moves: list[tuple[int, str]] | None = None, first_ply: int = 0,
                     seats: list[Seat] | None = None, finished: Game | None = None, owed: Sequence[Owed] = (),
                     **changes: Any) -> None:
        """One version-checked transaction: the change, the finish hooks (ratings) and what it owes (outbox)."""
        now = self.now()

        async def also(conn: aiosqlite.Connection) -> None:
            if finished is not None:
                for hook in self.on_finish:
                    await hook(conn, row, finished, now)
            await outbox.write(conn, owed, now)

        try:
            await self.store.update(row, now=now, new_moves=moves or (), first_ply=first_ply, seats=seats,
                                    also=also if finished is not None or owed else None, **changes)
        except StaleVersion:
            self._engines.pop(row.id, None)
            raise HostError("Someone acted on this game at the same moment; look at the board and try again.") \
                from None
        kinds = {item.kind for item in owed}
        outbox.crash_point("start" if "thread" in kinds else "end" if finished is not None else
                           "move" if "post" in kinds else "write")

    async def _commit(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *, late_ok: bool = False,
                      prefix: str = "", **changes: Any) -> None:
        """Persist moves already applied to ``game`` (a clone) and, only then, make it the cached state.

        ``late_ok``: the moves settle a timeout (the rules' stand-in move), so the deadline does not refuse them.
        The board post it owes (``prefix`` heads its caption) is enqueued in the same transaction.
        """
        changes.update(await correspondence.clock_changes(self, row, game, applied, late_ok=late_ok))
        outcome = game.outcome()
        if outcome is not None:
            changes.update(status="finished", result=outcome.to_dict(), deadline=None, finished=game)
        ply = len(game.history)
        post = {"upto": ply, "count": len(applied), "prefix": prefix}
        owed = [Owed("post", outbox.post_key(row.id, ply), row.id, post),
                *self._choices_owed(row.id, game, row.seats)]
        await self._write(row, moves=applied, first_ply=ply - len(applied), owed=owed, **changes)
        if outcome is None:
            self._engines[row.id] = (row.version, game)
        else:  # finished games are rarely read again: keep the cache to the games in play
            self._engines.pop(row.id, None)

    async def _board(self, row: GameRow, game: Game, seat: int | None) -> Board:
        image = await asyncio.to_thread(self.renderer, game.observation(seat))
        return Board(image=image, filename=f"{row.game}-{row.id}-{len(game.history)}.png")

    @staticmethod
    def _choices_owed(game_id: int, game: Game, seats: Sequence[Seat]) -> list[Owed]:
        """Secret choices that begin for several players at once (Zodiac's duel and king): a DM each."""
        movers = [s for s in game.to_move() if s != CHANCE]
        if not game.hidden_information or len(movers) < 2 or game.outcome() is not None:
            return []
        users = {s.seat: s.user_id for s in seats}
        ply = len(game.history)
        return [Owed("choice_dm", outbox.choice_key(game_id, ply, user), game_id, {"user": user, "upto": ply})
                for seat in movers if (user := users.get(seat)) is not None]

    async def replay_report(self, game_id: int, upto: int, count: int, prefix: str = "") -> Report:
        """The report of the ``count`` moves before ply ``upto``, rebuilt from the move log (the outbox's
        delayed posts): the same caption the live report had, with the board as it was then."""
        row = await self._row(game_id)
        game = self._game_class(row.game).new(row.players, row.options)
        moves = await self.store.moves(row.id)
        for move in moves[:upto]:
            game.apply_record(move.seat, move.text)
        applied = [(m.seat, m.text) for m in moves[max(0, upto - count):upto]] if count else []
        report = await self._report(row, game, applied, continue_match=False)
        if prefix:
            report.caption = f"{prefix}\n{report.caption}"
        return report

    async def _report(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *,
                      continue_match: bool = True) -> Report:
        lines: list[str] = []
        for seat, text in applied:
            if seat == CHANCE:
                lines.append(f"🎲 {text}")
            elif text in ("resign", "timeout", "draw"):
                continue
            else:
                lines.append(f"{game.seat_name(seat)} ({mention(row.user_at(seat))}) played "
                             f"`{game.announce(seat, text)}`")
        outcome = game.outcome()
        next_game = None
        if outcome is not None:
            lines.append(self._result_line(row, game))
            lines.append(f"Seed: `{row.seed}` (its SHA-256 was shown at the start).")
            if row.settings.get("match", 1) > 1 and not continue_match:
                lines.append((await matches.score(self, row)).line())
            elif row.settings.get("match", 1) > 1:
                try:
                    score_line, next_game = await matches.continue_match(self, row, game)
                    lines.append(score_line)
                except Exception:  # the finished game stands; recover() starts the next one on restart
                    log.exception("could not continue the match of game %s", row.id)
        else:
            status = game.status()
            if status:
                lines.append(status)
            movers = sorted(s for s in game.to_move() if s != CHANCE)
            names = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in movers)
            lines.append(f"To move: {names}")
        if not applied:
            header = (f"**{game.title}** #{row.id} begins: "
                      + ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in range(row.players)))
            lines.insert(0, f"{header}\nDice seed SHA-256: `{dice.commitment(row.seed)}`")
        to_notify = sorted({u for s in game.to_move() if s != CHANCE and (u := row.user_at(s)) is not None})
        board = await self._board(row, game, None)
        secret = any(game.announce(seat, text) != text for seat, text in applied if seat != CHANCE)
        key = outbox.post_key(row.id, len(game.history)) if applied else outbox.thread_key(row.id)
        follow = [item.key for item in self._choices_owed(row.id, game, row.seats)]
        return Report(row=row, caption="\n".join(lines), board=board, outcome=outcome, to_notify=to_notify,
                      next_game=next_game, secret=secret, owed=key, follow=follow)

    def _result_line(self, row: GameRow, game: Game) -> str:
        outcome = game.outcome()
        assert outcome is not None
        if outcome.is_draw:
            return f"🤝 Draw: {outcome.reason}."
        winners = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in sorted(outcome.winners))
        return f"🏆 {winners} won: {outcome.reason}."
