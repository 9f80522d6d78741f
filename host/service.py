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

import engines
import render
from data.boards import BoardPost, BoardPosts
from data.db import Database, Tx
from data.store import GameRow, Seat, TooManyChallenges
from engines import CHANCE, Game, IllegalMove
from host import bots, captions, clocks, correspondence, dice, matches, outbox, ratings
from host.builder import MoveBuilder, wants_builder
from host.captions import mention
from host.choices import narrow
from host.engine_cache import ENGINE_CACHE
from host.outbox import Outbox, Owed
from host.results import Board, HostError, Lobby, Report
from host.session import ChangeHook, FinishHook, GameSession
from host.standings import Standings
from host.tournaments import Tournaments

Renderer = Callable[[dict[str, Any]], bytes]
log = logging.getLogger(__name__)
SETTINGS_DEFAULTS: dict[str, Any] = {"rated": True, "clock": "none", "match": 1}
MAX_MOVE_TEXT = 100
"""Longer input is no move of any game; refusing it early keeps every reply short (and never echoes a wall)."""
MAX_OPEN_CHALLENGES = 10
"""Open challenges one user may have at once: one user must not flood a server with pings."""
CHALLENGE_TTL = 7 * 86400.0
"""Seconds until an unanswered challenge expires (a scheduled job withdraws it)."""




class Host:
    """Seats, turns, draws and the lobby for every game, over one database."""

    def __init__(self, db: Database, *, games: Mapping[str, type[Game]] | None = None,
                 renderer: Renderer = render.render, now: Callable[[], float] = time.time,
                 on_finish: Sequence[FinishHook] = (), on_change: Sequence[ChangeHook] = (),
                 max_open_challenges: int = MAX_OPEN_CHALLENGES, challenge_ttl: float = CHALLENGE_TTL,
                 engine_cache: int = ENGINE_CACHE) -> None:
        self.db = db
        self.board_posts = BoardPosts(db)
        self.games = games if games is not None else engines.GAMES
        self.renderer = renderer
        self.now = now
        self.session = GameSession(db, self.games, now=lambda: self.now(), on_finish=on_finish,
                                   on_change=on_change, engine_cache=engine_cache)
        """Loading and version-checked writing underneath every service here."""
        self.on_finish = self.session.on_finish
        self.on_change = self.session.on_change
        self._engines = self.session.engines
        self.store = self.session.store
        self.outbox = Outbox(db)
        self.max_open_challenges = max_open_challenges
        self.challenge_ttl = challenge_ttl
        self.standings = Standings(db, self.games, lambda: self.now())
        """Leaderboards, profiles and seasons, for ``/leaderboard``, ``/profile`` and ``/season``."""
        self.display_name: Callable[[int], str | None] | None = None
        """Set by the Discord side: a user's display name, put on the board images beside the colours."""
        self.builder = MoveBuilder(load=self._loaded, draw=self._draw, play=self.play)
        """The move builder: a move by clicks, one step at a time (``host/builder.py``)."""
        self.on_shown: list[Callable[[], None]] = []
        """Run after ``shown`` committed when it made jobs due: wake their worker (the AI's)."""
        self.tournaments = Tournaments(self)
        """Swiss, round-robin and knockout events; registers its finish hook (an event game's result)."""

    # ----- lobby ------------------------------------------------------------------------

    async def challenge(self, *, game: str, creator: int, opponents: list[int], open_seats: int = 0,
                        options: Mapping[str, Any] | None = None, settings: Mapping[str, Any] | None = None,
                        guild_id: int | None = None, channel_id: int | None = None,
                        also: Callable[[Tx, int], Awaitable[None]] | None = None) -> Lobby:
        """A new game waiting for named opponents to accept and open seats to be filled. ``also(tx, id)``
        writes more in the creating transaction (a ladder ties the game to itself)."""
        cls = self.game_class(game)
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
        self.require_status(row, "challenge")
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
        self.require_status(row, "challenge")
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
            await self.write(row, status="aborted")
        except HostError:  # an Accept at this very moment won
            return None
        return row

    async def decline(self, game_id: int, user: int) -> Lobby:
        """A named opponent declines, or the creator withdraws the challenge."""
        row = await self._row(game_id)
        self.require_status(row, "challenge")
        if row.seat_of(user) is None:
            raise HostError("Only the players named in this challenge can decline it.")
        await self.write(row, status="declined")
        return Lobby(row, started=False, declined_by=user)

    @staticmethod
    def _full(seats: list[Seat]) -> bool:
        return all(s.accepted and s.user_id is not None for s in seats)

    async def _take_seats(self, row: GameRow, seats: list[Seat]) -> Lobby:
        """Save the seats; when the table is full, start the game in that same transaction."""
        if self._full(seats):
            return await self.start(row, seats=seats)
        await self.write(row, seats=seats)
        return Lobby(row, started=False)

    async def _maybe_start(self, row: GameRow) -> Lobby:
        return await self.start(row) if self._full(row.seats) else Lobby(row, started=False)

    async def recover(self) -> list[Report]:
        """On start-up: finish starts that a crash interrupted (full tables still in ``challenge``) and
        matches whose next game was never created. Returns their start reports, for the bot to post."""
        reports: list[Report] = []
        for game_id in await self.store.full_challenges():  # each start-up query reads pending work only
            try:
                row = await self._row(game_id)
                if self._full(row.seats) and (lobby := await self._resume_start(row)).report is not None:
                    reports.append(lobby.report)
            except HostError as error:  # another process (a shard's) started it at the same moment
                log.info("game %s was not started on recovery: %s", game_id, error)
            except Exception:  # one unrecoverable row must not keep the bot from starting
                log.exception("could not start game %s on recovery", game_id)
        await self._owe_missing_threads()
        return reports + await matches.resume_all(self)

    async def _owe_missing_threads(self) -> None:
        """Games left without a thread by a crash before the outbox existed: owe each its thread now."""
        rows = await self.store.threadless()
        if rows:
            log.info("%d active game(s) have no thread: owing them one", len(rows))
            async with self.db.transaction() as conn:
                await outbox.write(conn, [Owed("thread", outbox.thread_key(game_id), game_id, {"upto": plies},
                                               due_in=0.0) for game_id, plies in rows], self.now())

    async def _resume_start(self, row: GameRow) -> Lobby:
        """A start that was interrupted: a match or event game keeps its seat order (the sides were chosen)."""
        return await self.start(row, shuffle="match_of" not in row.settings and "event" not in row.settings)

    def new_seed(self) -> str:
        return dice.new_seed()

    async def start(self, row: GameRow, *, shuffle: bool = True, seats: list[Seat] | None = None) -> Lobby:
        """Start a full table (``seats``: the table just completed, saved in the same transaction).
        Seats are drawn from the seed; in team games the order is only rotated, so the partners the
        challenger named (``opponent2``) stay partners."""
        users = [s.user_id for s in (seats or row.seats) if s.user_id is not None]
        game = self.game_class(row.game).new(row.players, row.options)
        teams = game.teams()
        shuffle = shuffle and "rematch_of" not in row.settings  # a rematch keeps its rotated seats
        if shuffle and len(set(teams)) == len(teams):
            dice.rng_for(row.seed, "seats").shuffle(users)
        elif shuffle:
            turn = dice.rng_for(row.seed, "seats").randrange(len(users))
            users = users[turn:] + users[:turn]
        seats = [Seat(i, user, True, teams[i]) for i, user in enumerate(users)]
        prefix = [(int(seat), str(text)) for seat, text in row.settings.get("start_history", [])]
        for seat, text in prefix:  # a game played on from another's position (host/records.py)
            game.apply_record(seat, text)
        rolls = dice.roll_pending(game, row.seed)
        timing = await correspondence.clock_changes(self, row, game, [], seats=seats, fresh=True)
        owed = [Owed("thread", outbox.thread_key(row.id), row.id, {"upto": len(game.history)}),
                *self._choices_owed(row.id, game, seats)]
        await self.write(row, seats=seats, status="active", moves=prefix + [(CHANCE, r) for r in rolls], state=game,
                          owed=owed,
                          **timing)
        self._engines[row.id] = (row.version, game)
        return Lobby(row, started=True, report=await self.report(row, game, []))

    # ----- play -------------------------------------------------------------------------

    async def play(self, game_id: int, user: int, text: str, *, expected_ply: int | None = None) -> Report:
        """Parse and apply a user's move, roll any dice it leads to, persist, and say what changed.

        ``expected_ply``: the position a button was made for; any other position refuses, and the
        version check makes that refusal exact even against a click at the same instant.
        """
        row = await self._row(game_id)
        self.require_status(row, "active")
        before = await self.engine_of(row)  # never changed in place: captions describe the move from it
        game = before.clone()
        if expected_ply is not None and len(game.history) != expected_ply:
            raise HostError("That button belongs to an earlier position; use the buttons under the newest board.")
        seat = self._acting_seat(row, game, user)
        if len(text) > MAX_MOVE_TEXT:
            raise HostError(f"That is not a move: you sent {len(text)} characters, and moves are short. "
                            "Start typing the move command and pick one from the list.")
        try:
            canonical = game.play(seat, text)
        except IllegalMove as error:
            raise HostError(captions.clip(str(error), 300)) from None
        applied = [(seat, canonical)] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self.commit(row, game, applied, draw_offers=[])
        return await self.settled(await self.report(row, game, applied, before=before), game)

    async def resign(self, game_id: int, user: int) -> Report:
        row = await self._row(game_id)
        self.require_status(row, "active")
        game = (await self.engine_of(row)).clone()
        seats = self._seats_in_play(row, game, user)
        game.eliminate(seats[0], "resign")
        applied = [(seats[0], "resign")] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self.commit(row, game, applied, draw_offers=[])
        return await self.settled(await self.report(row, game, applied), game)

    async def offer_draw(self, game_id: int, user: int, *, accept_only: bool = False) -> Report | str:
        """Offer a draw, or accept the offers on the table; a draw needs every remaining player.

        ``accept_only``: only join an offer already made (the AI answers offers and never makes one).
        """
        row = await self._row(game_id)
        self.require_status(row, "active")
        if accept_only and not row.draw_offers:
            raise HostError("There is no draw offer to accept.")
        game = (await self.engine_of(row)).clone()
        seats = self._seats_in_play(row, game, user)
        offers = sorted(set(row.draw_offers) | set(seats))
        if set(row.draw_offers) >= set(seats):
            raise HostError("You have already offered a draw; it stands until someone moves.")
        if set(offers) >= set(game.active_seats()):
            game.agree_draw(seats[0])
            applied = [(seats[0], "draw")]
            await self.commit(row, game, applied, draw_offers=[])
            return await self.settled(await self.report(row, game, applied), game)
        await self.write(row, draw_offers=offers, state=game)
        waiting = [mention(row.user_at(s)) for s in game.active_seats() if s not in offers]
        return (f"{mention(user)} offers a draw. {', '.join(waiting)}: press Accept draw (or use the draw command) "
                "to accept, or just move to decline.")

    async def decline_draw(self, game_id: int, user: int) -> str:
        row = await self._row(game_id)
        self.require_status(row, "active")
        if not row.draw_offers:
            raise HostError("There is no draw offer to decline.")
        if row.seat_of(user) is None:
            raise HostError("You are not playing in this game.")
        await self.write(row, draw_offers=[])
        return f"{mention(user)} declined the draw offer."

    async def abort(self, game_id: int, user: int) -> str:
        """Cancel a game before any player has moved; it is never rated."""
        row = await self._row(game_id)
        if row.seat_of(user) is None:
            raise HostError("Only a player of this game can abort it.")
        if "event" in row.settings:
            raise HostError("A tournament game cannot be aborted: resign, or withdraw with /tournament withdraw.")
        if row.status == "challenge":
            await self.write(row, status="aborted")
            return f"{mention(user)} withdrew the challenge."
        self.require_status(row, "active")
        game = await self.engine_of(row)
        if self.people_moved(row, game):
            raise HostError("The game has started: resign instead, or offer a draw.")
        await self.write(row, status="aborted")
        if any(bots.is_ai(row.user_at(seat)) for seat, _ in self._own_moves(row, game)):
            return f"{mention(user)} aborted the game before their first move; the AI's moves are taken back with it."
        return f"{mention(user)} aborted the game before the first move."

    @staticmethod
    def _own_moves(row: GameRow, game: Game) -> list[tuple[int, str]]:
        """The moves played in this game itself: no dice, and none copied from another game (``origin``)."""
        played_on = (row.settings.get("origin") or {}).get("plies", 0)
        return [(seat, text) for seat, text in game.history[played_on:] if seat != CHANCE]

    @classmethod
    def people_moved(cls, row: GameRow, game: Game) -> bool:
        """Whether a person (not an AI seat) has made a move: until then the game may be aborted, unrated.

        The AI's moves do not count: it answers within a second (Zodiac's secret choices at once), and a
        player must be able to abort a game against it until they have moved themselves."""
        return any(not bots.is_ai(row.user_at(seat)) for seat, _ in cls._own_moves(row, game))

    # ----- reading ----------------------------------------------------------------------

    async def board(self, game_id: int, user: int | None = None) -> Board:
        """The public board, or a seated user's own view (with their hidden information)."""
        row = await self._row(game_id)
        game = await self.engine_of(row)
        seat = row.seat_of(user) if user is not None else None
        return await self._board(row, game, seat)

    async def move_choices(self, game_id: int, user: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete: (label, move) of the user's legal moves matching what they typed, at most 25."""
        row = await self._row(game_id)
        if row.status != "active":
            return []
        game = await self.engine_of(row)
        seats = [s for s in row.seats_of(user) if s in game.to_move()]
        if not seats:
            return []
        moves = sorted(game.legal_moves(seats[0]), key=lambda m: m == "end")  # finishing the turn comes last
        return narrow(moves, typed, lambda move: game.describe(seats[0], move))

    async def explain_no_choices(self, game_id: int, user: int, typed: str) -> str:
        """Why autocomplete has no move for ``user``: said in the one entry offered instead of an empty list."""
        row = await self._row(game_id)
        if row.status != "active":
            return f"Game #{row.id} {captions.STATUS_SAID.get(row.status, row.status)}"
        game = await self.engine_of(row)
        seats = row.seats_of(user)
        if not seats:
            return "You are not playing this game"
        if not any(s in game.to_move() for s in seats):
            return captions.not_your_turn(row, game, seats, short=True)
        return f"No legal move matches {captions.clip(typed.strip(), 40)!r}: clear the box to see them all"

    async def turn_moves(self, game_id: int, limit: int = 20) -> tuple[int, list[str]]:
        """(ply, moves) for one-click buttons: the legal moves when one seat is to move and they fit."""
        row = await self._row(game_id)
        if row.status != "active":
            return 0, []
        game = await self.engine_of(row)
        return len(game.history), button_moves(row, game, limit)

    async def turn_choices(self, game_id: int, limit: int = 20) -> tuple[int, list[tuple[str, str]]]:
        """(ply, [(label, move)]) for move buttons: labels read like autocomplete, ``end`` (finish the turn) last."""
        row = await self._row(game_id)
        if row.status != "active":
            return 0, []
        game = await self.engine_of(row)
        return len(game.history), button_choices(row, game, limit)

    async def resolve(self, game: str, user: int, *, thread_id: int | None, guild_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow:
        """The game a command means: the thread's game, else the user's only such game in the server."""
        if thread_id is not None:
            row = await self.store.find_by_thread(thread_id)
            if row is not None and row.game == game:
                return row
        mine = await self.store.games_of(user, statuses, guild_id=guild_id, game=game)
        title = self.game_class(game).title
        newest = sorted(mine, key=lambda r: (r.updated_at, r.id), reverse=True)
        live = [row for row in newest if row.status != "finished"]
        if len(live) > 1:  # a game in play (or waiting) is never guessed among several
            kind = "active" if all(row.status == "active" for row in live) else "open"
            raise HostError(f"You have {len(live)} {kind} {title} games here: use the command inside the "
                            "game's thread.")
        if live or newest:
            return (live or newest)[0]  # finished games only count when none is in play: the latest one
        if "challenge" not in statuses:
            waiting = await self.store.games_of(user, ("challenge",), guild_id=guild_id, game=game)
            if waiting:
                raise HostError(f"Your {title} challenge #{waiting[0].id} is still waiting for players; "
                                "it starts once all have joined.")
        raise HostError(f"You have no {title} game here. Start one with /{game} new.")

    async def set_thread(self, game_id: int, thread_id: int | None, message_id: int | None = None) -> None:
        """Where the game lives in Discord. Not game state, so no version bump: an Accept click or a first
        move racing with it must not fail."""
        await self._row(game_id)
        await self.store.set_links(game_id, thread_id, message_id)

    async def last_board(self, game_id: int) -> BoardPost | None:
        """The game's newest board message, whose buttons are the live ones."""
        return await self.board_posts.get(game_id)

    async def shown(self, report: Report, channel_id: int, message_id: int) -> BoardPost | None:
        """The report is on screen as (channel, message). One transaction: the live board is recorded, the outbox
        job that owed the report is done, and an AI seat's reply waiting for this board is due now. Call it
        right after Discord answered the send, before any other REST call: a crash before it commits posts the
        board again (the window docs/correspondence.md states), a crash after it does not. Returns the board it
        replaces, whose buttons the caller takes off (or the post itself when a newer board is already live)."""
        replaced, hurried = await self.board_posts.shown(
            BoardPost(report.row.id, channel_id, message_id, report.ply), done_key=report.owed, hurry=bots.JOB_KINDS,
            now=self.now())
        for wake in self.on_shown if hurried else ():
            wake()
        return replaced

    async def set_last_board(self, game_id: int, channel_id: int, message_id: int, ply: int) -> BoardPost | None:
        """Record the newest board message; returns the one it replaces (for the bot to take its buttons off)."""
        previous = await self.board_posts.get(game_id)
        posted = BoardPost(game_id, channel_id, message_id, ply)
        if previous is not None and previous.ply > ply:  # a late post (the outbox after a crash): not the live one
            return posted
        await self.board_posts.set(posted, self.now())
        return previous if previous is not None and previous.message_id != message_id else None

    async def rematch(self, game_id: int, user: int) -> Lobby:
        """A new challenge to the same players with the same options, seats rotated by one; the caller accepts."""
        row = await self._row(game_id)
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
            first = await self._row(int(row.settings["match_of"]))
            options = dict(first.options)
        new_id, new = await self.store.create_rematch(
            rematch_of=row.id, guild_id=row.guild_id, channel_id=row.channel_id, game=row.game, players=row.players,
            options=options, settings=settings, seed=dice.new_seed(), creator_id=user, seats=seats, now=self.now())
        if not new:
            said = "waiting for players" if (await self._row(new_id)).status == "challenge" else "being played"
            raise HostError(f"Rematch #{new_id} of game #{row.id} is already {said}; there is one rematch at a time.")
        return await self._maybe_start(await self._row(new_id))

    async def get(self, game_id: int) -> GameRow:
        return await self._row(game_id)

    async def continue_match(self, game_id: int) -> Report | None:
        """A match game's owed continuation (host/matches.py): the next game's start report, if it was still owed."""
        return await matches.continue_after(self, game_id)

    async def engine(self, game_id: int) -> tuple[GameRow, Game]:
        """The row and a copy of its game, for services that read the whole state (the AI, hints)."""
        row = await self._row(game_id)
        return row, (await self.engine_of(row)).clone()

    async def report_since(self, game_id: int, first_ply: int) -> Report:
        """The report of the moves from ``first_ply`` on, as it was posted when they were played (re-posting)."""
        row = await self._row(game_id)
        game = await self.engine_of(row)
        return await self.report(row, game, list(game.history[first_ply:]))

    async def observation(self, game_id: int, user: int | None) -> dict[str, Any]:
        row = await self._row(game_id)
        game = await self.engine_of(row)
        return game.observation(row.seat_of(user) if user is not None else None)

    async def rolls(self, game_id: int) -> list[str]:
        """Every dice result so far, in order: with the seed revealed at the end anyone can recheck them."""
        row = await self._row(game_id)
        return [m.text for m in await self.store.moves(row.id) if m.seat == CHANCE]

    # ----- correspondence: the work is in host/correspondence.py ---------------------------

    async def timeout(self, game_id: int, seat: int) -> Report:
        """Record that ``seat`` ran out of time; the caption says which time control ran out."""
        return await correspondence.timeout(self, game_id, seat)

    async def due(self, now: float, limit: int | None = None) -> correspondence.Due:
        """Games whose deadline passed or whose reminder is due, earliest first and at most ``limit`` of each
        (indexed, cheap enough to poll)."""
        return await correspondence.due(self, now, limit)

    async def games_overview(self, user: int, guild_id: int | None) -> list[correspondence.GameLine]:
        return await correspondence.games_overview(self, user, guild_id)

    async def history(self, user: int, guild_id: int | None, page: int = 1) -> correspondence.HistoryPage:
        return await correspondence.history(self, user, guild_id, page)

    async def set_notify(self, user: int, mode: str) -> str:
        return await correspondence.set_notify(self, user, mode)

    async def vacation(self, user: int, days: int) -> str:
        return await correspondence.vacation(self, user, days)

    # ----- building blocks: the session's, for host/correspondence.py, host/matches.py and peers ------

    def game_class(self, name: str) -> type[Game]:
        return self.session.game_class(name)

    async def _row(self, game_id: int) -> GameRow:
        return await self.session.row(game_id)

    @staticmethod
    def require_status(row: GameRow, status: str) -> None:
        GameSession.require_status(row, status)

    async def engine_of(self, row: GameRow) -> Game:
        return await self.session.engine_of(row)

    async def engines_of(self, rows: Sequence[GameRow]) -> list[Game]:
        return await self.session.engines_of(rows)

    async def write(self, row: GameRow, *, moves: list[tuple[int, str]] | None = None, first_ply: int = 0,
                    seats: list[Seat] | None = None, finished: Game | None = None, state: Game | None = None,
                    owed: Sequence[Owed] = (), **changes: Any) -> None:
        await self.session.write(row, moves=moves, first_ply=first_ply, seats=seats, finished=finished,
                                 state=state, owed=owed, **changes)

    @staticmethod
    def _seats_in_play(row: GameRow, game: Game, user: int) -> list[int]:
        """The user's seats that have not left the game; refuses anyone else."""
        seats = [s for s in row.seats_of(user) if s not in game.eliminated]
        if not seats and row.seats_of(user):
            raise HostError(captions.not_your_turn(row, game, row.seats_of(user)))  # says they resigned
        if not seats:
            raise HostError("You are not playing in this game.")
        return seats

    def _acting_seat(self, row: GameRow, game: Game, user: int) -> int:
        seats = row.seats_of(user)
        if not seats:
            raise HostError("You are not playing in this game.")
        movers = [s for s in seats if s in game.to_move()]
        if not movers:
            raise HostError(captions.not_your_turn(row, game, seats))
        return movers[0]

    async def commit(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *, late_ok: bool = False,
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
                *self._choices_owed(row.id, game, row.seats), *(matches.owed_next(row) if outcome is not None else [])]
        await self.write(row, moves=applied, first_ply=ply - len(applied), state=game, owed=owed, **changes)
        if outcome is None:
            self._engines[row.id] = (row.version, game)
        else:  # finished games are rarely read again: keep the cache to the games in play
            self._engines.pop(row.id, None)

    def player_names(self, row: GameRow, players: int) -> list[str | None] | None:
        """Display names by seat for the renderer (``None`` for a seat whose name is unknown); an AI seat is
        named as everywhere else (``🤖 AI (hard)``)."""
        users = [row.user_at(seat) for seat in range(players)]
        if self.display_name is None and not any(bots.is_ai(u) for u in users):
            return None
        person = self.display_name or (lambda _user: None)
        return [bots.name(u) if bots.is_ai(u) else person(u) if u is not None else None for u in users]

    async def _loaded(self, game_id: int) -> tuple[GameRow, Game]:
        """The row and its cached engine, for readers that never change it (the move builder)."""
        row = await self._row(game_id)
        return row, await self.engine_of(row)

    async def _board(self, row: GameRow, game: Game, seat: int | None) -> Board:
        return await self._draw(row, game.observation(seat))

    async def _draw(self, row: GameRow, observation: dict[str, Any]) -> Board:
        """An observation as a board image, with the players' names, drawn off the event loop."""
        names = self.player_names(row, observation["players"])
        if names is not None:
            observation["player_names"] = names
        image = await asyncio.to_thread(self.renderer, observation)
        return Board(image=image, filename=f"{row.game}-{row.id}-{observation['ply']}.png")

    @staticmethod
    def _choices_owed(game_id: int, game: Game, seats: Sequence[Seat]) -> list[Owed]:
        """Secret choices that begin for several players at once (Zodiac's duel and king): a DM each."""
        movers = [s for s in game.to_move() if s != CHANCE]
        if not game.hidden_information or len(movers) < 2 or game.outcome() is not None:
            return []
        users = {s.seat: s.user_id for s in seats}
        ply = len(game.history)
        return [Owed("choice_dm", outbox.choice_key(game_id, ply, user), game_id, {"user": user, "upto": ply})
                for seat in movers if (user := users.get(seat)) is not None and not bots.is_ai(user)]

    async def replay_report(self, game_id: int, upto: int, count: int, prefix: str = "") -> Report:
        """The report of the ``count`` moves before ply ``upto``, rebuilt from the move log (the outbox's
        delayed posts): the same caption the live report had, with the board as it was then."""
        row = await self._row(game_id)
        game = self.game_class(row.game).new(row.players, row.options)
        moves = await self.store.moves(row.id)
        first = max(0, upto - count) if count else upto
        for move in moves[:first]:
            game.apply_record(move.seat, move.text)
        before = game.clone()  # the captions describe each move from the position it was played in
        for move in moves[first:upto]:
            game.apply_record(move.seat, move.text)
        applied = [(m.seat, m.text) for m in moves[first:upto]]
        report = await self.report(row, game, applied, before=before)
        if prefix:
            report.caption = f"{prefix}\n{report.caption}"
        return report

    async def settled(self, report: Report, game: Game) -> Report:
        """After the commit that ended a match game, start the match's next game: explicitly, here, never
        while a report is built (a report only reads). If this fails or the process dies, the ``match_next``
        job written with the finishing move continues the match elsewhere."""
        if report.outcome is None or report.row.settings.get("match", 1) <= 1:
            return report
        try:
            report.next_game = await matches.continue_match(self, report.row, game)
        except Exception:  # the finished game stands; the owed job or recover() starts the next one
            log.exception("could not continue the match of game %s", report.row.id)
        return report

    async def report(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *,
                     before: Game | None = None) -> Report:
        """The caption and board for moves just applied to ``game`` (``before``: the position they were
        played in). Reads only: it never writes to the database."""
        lines: list[str] = []
        continues = captions.continues_turn(game, applied)
        if continues:  # the turn's message is edited in place: it tells the whole turn so far
            lines += captions.turn_so_far(row, game, before)
        for seat, text in applied:
            if seat == CHANCE and continues:
                continue  # the turn's rolls, a Redo's included, are told by turn_so_far
            if seat == CHANCE:
                lines.append(f"🎲 {text}")
            elif text == "resign" and game.outcome() is None:
                lines.append(f"🏳️ {game.seat_name(seat)} ({mention(row.user_at(seat))}) resigned.")
            elif text in ("resign", "timeout", "draw"):
                continue
            elif not continues:
                lines.append(f"{game.seat_name(seat)} ({mention(row.user_at(seat))}) played "
                             f"{captions.played(game, before, seat, text)}")
        lines += captions.revealed(row, game, before)
        outcome = game.outcome()
        if outcome is not None:
            lines.append(self._result_line(row, game))
            if game.has_chance:  # a game without dice has nothing to check against its seed
                lines.append(f"Seed: `{row.seed}` (its SHA-256 was shown at the start).")
            if row.settings.get("match", 1) > 1:
                lines.append((await matches.score(self, row)).line())
        else:
            status = game.status()
            if status:
                lines.append(status)
            movers = sorted(s for s in game.to_move() if s != CHANCE)
            names = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in movers)
            lines.append(f"To move: {names}")
            thinking = sorted({u for s in movers if bots.is_ai(u := row.user_at(s))})
            lines += [f"{bots.name(u)} is thinking…" for u in thinking if u is not None]
        if not applied:
            header = (f"**{game.title}** #{row.id} begins: "
                      + ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in range(row.players)))
            seed = f"\nDice seed SHA-256: `{dice.commitment(row.seed)}`" if game.has_chance else ""
            lines.insert(0, f"{header}{seed}")
            lines.append(f"How to move: press **Move** under the board, or type `/{row.game} move`.")
            if isinstance(origin := row.settings.get("origin"), dict):
                lines.insert(1, f"Played on from {origin.get('source')} after move {origin.get('move')} (never rated).")
            elif note := ratings.rating_note(row, type(game)):
                lines.insert(1, note)
            if teams := captions.teams_line(row, game):
                lines.insert(1, teams)
        to_notify = sorted({u for s in game.to_move()
                            if s != CHANCE and (u := row.user_at(s)) is not None and not bots.is_ai(u)})
        board = await self._board(row, game, None)
        secret = any(game.announce(seat, text) != text for seat, text in applied if seat != CHANCE)
        key = outbox.post_key(row.id, len(game.history)) if applied else outbox.thread_key(row.id)
        follow = [item.key for item in self._choices_owed(row.id, game, row.seats)]
        return Report(row=row, caption=captions.fit("\n".join(lines)), board=board, outcome=outcome,
                      to_notify=to_notify, secret=secret, continues_turn=continues,
                      ply=len(game.history), owed=key, follow=follow, can_build=wants_builder(row, game),
                      choices=button_choices(row, game) if row.status == "active" else [])

    def _result_line(self, row: GameRow, game: Game) -> str:
        outcome = game.outcome()
        assert outcome is not None
        if outcome.is_draw:
            return f"🤝 Draw: {outcome.reason}."
        winners = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in sorted(outcome.winners))
        teams = game.teams()
        if len(set(teams)) < len(teams):  # a team game: say which team won, and that the other lost
            won = {teams[s] for s in outcome.winners}
            losers = [s for s in range(game.num_players) if teams[s] not in won]
            lost = " & ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in losers)
            winners = " & ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in sorted(outcome.winners))
            return f"🏆 Team {winners} won: {outcome.reason}. Team {lost} lost."
        return f"🏆 {winners} won: {outcome.reason}."


def button_moves(row: GameRow, game: Game, limit: int = 20) -> list[str]:
    """The legal moves for one-click buttons: when one person is to move, in the open, and they are few."""
    movers = [s for s in game.to_move() if s != CHANCE]
    if len(movers) != 1 or game.hidden_information or bots.is_ai(row.user_at(movers[0])):
        return []
    moves = game.legal_moves(movers[0])
    return moves if len(moves) <= limit else []


def button_choices(row: GameRow, game: Game, limit: int = 20) -> list[tuple[str, str]]:
    """(label, move) of those buttons: labels read like autocomplete, ``end`` (finish the turn) last."""
    moves = button_moves(row, game, limit)
    if not moves:
        return []
    seat = next(s for s in game.to_move() if s != CHANCE)
    return [(captions.clip(game.describe(seat, m), 80), m) for m in sorted(moves, key=lambda m: m == "end")]
