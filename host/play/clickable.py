"""What a clickable board page shows one viewer: the view, the PNG, its hotspots, the picks, clocks, replay.

The web page (``web/``) may not import ``render`` or ``data``, so the host hands it plain data: the viewer's
own observation (a seated user's ``observation(seat)``, anyone else the public one), the hotspots of the
image drawn from that same observation, and the legal moves' picks (``Game.move_picks``) that the page
walks as a prefix tree, like the move builder. A secret choice (Zodiac's duel pick and king) is offered as
the DM menu offers it: the viewer's own options only, to the viewer only; nobody else's page ever holds it.
The replay of an earlier ply is the viewer's view of that ply, replayed from the history.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import engines
import render
from engines import CHANCE, Game
from host.correspondence import clocks as timing
from host.correspondence.clocks import ClockState
from host.correspondence.timing import control_of
from host.play import bots
from host.play.builder import SECRET
from host.play.shared_renders import SharedRenders
from host.results import GameRow, HostError

if TYPE_CHECKING:
    from host.correspondence.clocks import TimeControl, Vacation
    from host.correspondence.timing import Clocks
    from host.play.boards import Boards

VACATIONS_FOR = 10.0
"""Seconds the players' vacations read for a view's clocks serve every view of that game version: a page's
clocks only change on its next reload anyway, and a crowd's reloads then read no vacations at all."""
ROWS_KEPT = 64
"""Game versions whose row and engine are kept for the requests that read no row (a few per watched game)."""


@dataclass(frozen=True)
class BoardView:
    """One viewer's view of a game at one ply: everything the page needs, JSON-ready."""

    game_id: int
    game: str
    title: str
    status: str
    ply: int
    version: int
    """The row's version: it changes with every write, also those that leave the ply (a draw offer, an abort)."""
    seat: int | None
    observation: dict[str, Any]
    hotspots: dict[str, dict[str, Any]]
    picks: list[dict[str, Any]] = field(default_factory=list)
    """The viewer's legal moves, each ``{"move", "picks": [{kind, label, target, group}]}``; empty off turn."""
    secret: bool = False
    """The viewer's move now is a secret choice (its picks are theirs alone, offered as buttons)."""
    result: dict[str, Any] | None = None
    clocks: list[dict[str, Any]] = field(default_factory=list)
    """Per seat ``{seat, name, kind, left, running}``: seconds left as of this answer (``left`` None: no limit)."""

    def to_json(self) -> dict[str, Any]:
        """Shallow: the fields hold plain JSON data already (``asdict``'s deep copy cost more than the rest of
        a view, bench/bench_web.py)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class ReplayStep:
    """The viewer's view of ply ``ply`` of ``last``, and the move that led to it as the viewer may read it."""

    ply: int
    last: int
    label: str
    observation: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "last": self.last, "label": self.label}


def _observation(boards: Boards, row: GameRow, game: Game, seat: int | None) -> dict[str, Any]:
    """The viewer's observation with the names the board image shows (the hotspots are of that image)."""
    observation = game.observation(seat)
    names = boards.player_names(row, observation["players"])
    if names is not None:
        observation["player_names"] = names
    return observation


def _seat(row: GameRow, user: int | None) -> int | None:
    return row.seat_of(user) if user is not None else None


def _picks(row: GameRow, game: Game, user: int | None) -> tuple[list[dict[str, Any]], bool]:
    """The picks of the user's move if it is theirs to make now (not an AI's, not a die's); a secret choice's
    picks are of the user's own seat only, like the DM menu's options."""
    if user is None or row.status != "active" or game.outcome() is not None or bots.is_ai(user):
        return [], False
    movers = [s for s in row.seats_of(user) if s in game.to_move() and s != CHANCE]
    if not movers:
        return [], False
    picks = game.move_picks(movers[0])
    moves = [{"move": move, "picks": [{"kind": p.kind, "label": p.label, "target": p.target, "group": p.group}
                                      for p in sequence]} for move, sequence in picks]
    return moves, bool(picks) and all(sequence[0].kind == SECRET for _, sequence in picks)


def replay_to(game: Game, ply: int) -> tuple[Game, tuple[int, str] | None]:
    """A fresh game after the first ``ply`` plies of ``game``'s history, and the ply that led there."""
    fresh = engines.get(game.name).new(game.num_players, game.options)
    for seat, text in game.history[: max(ply - 1, 0)]:
        fresh.apply_record(seat, text)
    if ply == 0:
        return fresh, None
    seat, text = game.history[ply - 1]
    return fresh, (seat, text)


def _label(game: Game, seat: int, text: str, own: bool) -> str:
    """The move as the viewer may read it: their own in full, anyone else's as the channel reads it."""
    name = "🎲" if seat == CHANCE else game.seat_name(seat)
    return f"{name}: {text if own else game.announce(seat, text)}"


class Images:
    """Board images by what they show: the pages of one position that see the same (both players of a game
    without secrets, every spectator) share one drawing, and a drawing asked for while it is being drawn is
    waited for, not drawn again (``SharedRenders``). An image shows its observation without the viewer's
    ``seat`` (no renderer reads it), so it is drawn from exactly what its key says."""

    def __init__(self, paint: Callable[[dict[str, Any]], Awaitable[bytes]], size: int = 64) -> None:
        self.paint = paint
        """Draws off the event loop: the read model's painter (worker processes or a thread, host/play/painter.py)."""
        self.shared: SharedRenders[bytes] = SharedRenders(size)

    async def image(self, observation: dict[str, Any]) -> bytes:
        shown = {k: v for k, v in observation.items() if k != "seat"}
        key = hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode()).hexdigest()
        return await self.shared.get(key, lambda: self.paint(shown))


ClockInputs = tuple["TimeControl", ClockState, dict[int, int | None], dict[int, list["Vacation"]]]


async def _clock_inputs(clocks: Clocks, row: GameRow, now: float) -> ClockInputs | None:
    """The row's time control, clock state (the row was just read: as fresh as reading the clock again), the
    seats' users and their vacations; None without a running clock."""
    tc = control_of(row)
    if tc.kind == "none" or row.status != "active":
        return None
    state = ClockState.from_json(row.clock)
    users = {s.seat: s.user_id for s in row.seats}
    return tc, state, users, await clocks.vacations_of(users.values(), min([now, *state.started.values()]))


class Clickable:
    """The clickable board's read model, over the read model (which loads and draws) and the clocks."""

    def __init__(self, boards: Boards, clocks: Clocks | None = None) -> None:
        self.boards = boards
        self.clocks = clocks
        self.images = Images(lambda observation: self.boards.painter.draw(observation))
        self.drawn: SharedRenders[tuple[dict[str, Any], dict[str, dict[str, Any]]]] = SharedRenders(ROWS_KEPT * 2)
        """(observation, hotspots) once per (game, version, seat) for all the pages open on a game
        (host/play/shared_renders.py): read-only, shared by every answer. Few: each is a hundred or more small
        objects that every full garbage collection walks (512 of them were most of the bot's heap growth)."""
        self.heads: SharedRenders[bytes] = SharedRenders()
        """The view's JSON but its clocks, once per (game, version, seat): a crowd's reloads are bytes served."""
        self.pngs: SharedRenders[bytes] = SharedRenders(ROWS_KEPT * 4)
        """The PNG per (game, version, seat): an image asked for by its view's version is served from here."""
        self.rows: SharedRenders[tuple[GameRow, Game]] = SharedRenders(ROWS_KEPT)
        """The row and engine of each (game, version) a view was made of (a version's row never changes): the
        viewer's seat at that version, for a request that reads no row. Few: each pins an engine outside the
        engine cache's byte bound."""
        self.clock_inputs: SharedRenders[ClockInputs | None] = SharedRenders(ROWS_KEPT * 2)
        """What a version's clocks are counted from (control, state, seats' users, their vacations)."""
        self._reading: dict[int, asyncio.Future[tuple[GameRow, Game]]] = {}
        """The row read in flight per game, shared by the views that arrive while it runs (``_read``)."""

    async def view_json(self, game_id: int, user: int | None, known: int | None = None) -> bytes:
        """The game as ``user`` may see it (``None``: a spectator), with the hotspots and the picks of their move,
        as JSON (a ``BoardView``): all but the clocks (seconds left as of now, added per answer) made once per
        (game, version, seat) and shared by every page of that seat. ``known``: the newest committed version the
        pages were told of. The crowd that a change reloads at once reads no row for the spectators' view of it once
        a view of that version was made, and shares one read before that; a read that started before ``known``
        committed is not trusted, and a player's view is read for their request (never a kept or shared one), so it
        may take a second read."""
        kept = self.rows.done((game_id, known)) if known is not None else None
        if kept is None and known is not None:
            kept = await self._read(game_id, known)
            self.rows.keep((kept[0].id, kept[0].version), kept)
        if kept is None or _seat(kept[0], user) is not None:  # a kept or shared read may predate a player's move
            kept = await self.boards.loaded(game_id)
            self.rows.keep((kept[0].id, kept[0].version), kept)
        row, game = kept
        seat = _seat(row, user)  # the seat decides the user's picks too: a seat has one user, a spectator none

        async def head() -> bytes:
            view = (await self._view(row, game, user, [])).to_json()
            del view["clocks"]
            return json.dumps(view).encode()

        return await self._with_clocks(await self.heads.get((row.id, row.version, seat), head), row, game)

    async def _read(self, game_id: int, known: int) -> tuple[GameRow, Game]:
        """The row and engine, read once for the requests that arrive together; again if the shared read is
        older than ``known`` (it started before that version committed)."""
        pending = self._reading.get(game_id)
        if pending is None:
            pending = self._reading[game_id] = asyncio.ensure_future(self.boards.loaded(game_id))
            pending.add_done_callback(lambda done: self._read_done(game_id, done))
        row, game = await asyncio.shield(pending)
        return (row, game) if row.version >= known else await self.boards.loaded(game_id)

    def _read_done(self, game_id: int, done: asyncio.Future[tuple[GameRow, Game]]) -> None:
        if not done.cancelled():
            done.exception()  # retrieved here: a read every waiter gave up on is not logged as never retrieved
        if self._reading.get(game_id) is done:
            del self._reading[game_id]

    async def _with_clocks(self, head: bytes, row: GameRow, game: Game) -> bytes:
        return b"%s, \"clocks\": %s}" % (head[:-1], json.dumps(await self.seat_clocks(row, game)).encode())

    async def _view(self, row: GameRow, game: Game, user: int | None, clocks: list[dict[str, Any]]) -> BoardView:
        seat = _seat(row, user)
        observation, hotspots = await self._drawn(row, game, seat)
        picks, secret = _picks(row, game, user)
        outcome = game.outcome()
        return BoardView(game_id=row.id, game=row.game, title=game.title, status=row.status, ply=len(game.history),
                         version=row.version, seat=seat, observation=observation, hotspots=hotspots,
                         picks=picks, secret=secret, result=outcome.to_dict() if outcome is not None else None,
                         clocks=clocks)

    async def _drawn(self, row: GameRow, game: Game, seat: int | None
                     ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """The viewer's observation and its hotspots, made once per (game, version, seat) for every page."""

        async def draw(observation: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
            shown = {k: v for k, v in observation.items() if k != "seat"}
            spots = await asyncio.to_thread(render.hotspots, shown)
            return observation, {k: {"shape": s.shape, "points": list(s.points)} for k, s in spots.items()}

        return await self.drawn.get(  # the observation is taken now, at this version
            (row.id, row.version, seat), lambda: draw(_observation(self.boards, row, game, seat)))

    async def seat_clocks(self, row: GameRow, game: Game) -> list[dict[str, Any]]:
        """Each seat's time left now (live clocks: also the banked time off turn; per-move clocks: the deadline
        of the seats to move), for the page to count down; empty without a clock."""
        if self.clocks is None:
            return []
        clocks, now = self.clocks, self.clocks.now()
        inputs = await self.clock_inputs.get(  # the same for every page of this version for VACATIONS_FOR seconds
            (row.id, row.version, int(now // VACATIONS_FOR)), lambda: _clock_inputs(clocks, row, now))
        if inputs is None:
            return []
        tc, state, users, vacations = inputs
        out = []
        for seat in range(game.num_players):
            away = vacations.get(users.get(seat) or 0, [])
            left = timing.time_left(tc, state, seat, now, away)
            out.append({"seat": seat, "name": game.seat_name(seat), "kind": tc.kind,
                        "left": None if bots.is_ai(users.get(seat)) else left, "running": seat in state.started})
        return out

    async def expected_ply(self, game_id: int, user: int, ply: int) -> int | None:
        """The ply a page's move is checked against: its own. A secret choice made while the other side made
        theirs (simultaneous, like the DM menus, which check none) is still the same choice, so it is not
        checked as long as no move of the user's seat came in between."""
        row, game = await self.boards.loaded(game_id)
        if not 0 <= ply < len(game.history):
            return ply
        _picks_now, secret = _picks(row, game, user)
        seats = set(row.seats_of(user))
        if secret and not any(seat in seats for seat, _text in game.history[ply:]):
            return None
        return ply

    async def board_image(self, game_id: int, user: int | None, ply: int | None = None,
                          version: int | None = None) -> bytes:
        """The viewer's board PNG; ``ply``: the position the page asks for, refused once the game moved past it
        (the page then reloads its view, so the image and its hotspots always belong together). ``version``: the
        view's; an image of a version whose view was made here is served without reading the row."""
        kept = self.rows.done((game_id, version)) if version is not None else None
        if kept is not None:
            key = (game_id, version, _seat(kept[0], user))
            drawn = self.drawn.done(key)
            if drawn is not None and (ply is None or drawn[0].get("ply") == ply):
                return await self.pngs.get(key, lambda: self.images.image(drawn[0]))
        row, game = await self.boards.loaded(game_id)
        if ply is not None and ply != len(game.history):
            raise HostError("The game has moved on since this board was asked for: reload the view.")
        seat = _seat(row, user)
        observation, _hotspots = await self._drawn(row, game, seat)  # the view's, not made again
        return await self.pngs.get((row.id, row.version, seat), lambda: self.images.image(observation))

    async def replay_step(self, game_id: int, user: int | None, ply: int) -> ReplayStep:
        """The viewer's own view of ply ``ply`` (0: the start), replayed: their secrets of then, nobody else's."""
        row, game = await self.boards.loaded(game_id)
        last = len(game.history)
        if not 0 <= ply <= last:
            raise HostError(f"Game #{game_id} has plies 0 to {last}.")
        seat = _seat(row, user)
        return await asyncio.to_thread(self._replayed, row, game, seat, ply, last)

    def _replayed(self, row: GameRow, game: Game, seat: int | None, ply: int, last: int) -> ReplayStep:
        before, made = replay_to(game, ply)
        label = _label(before, made[0], made[1], made[0] == seat and seat is not None) if made else "Start"
        if made is not None:
            before.apply_record(*made)
        return ReplayStep(ply, last, label[:200], _observation(self.boards, row, before, seat))

    async def replay_image(self, game_id: int, user: int | None, ply: int) -> bytes:
        return await self.images.image((await self.replay_step(game_id, user, ply)).observation)
