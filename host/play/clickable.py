"""What a clickable board page shows one viewer: the view, the PNG, its hotspots and the picks of their moves.

The web page (``web/``) may not import ``render`` or ``data``, so the host hands it plain data: the viewer's
own observation (a seated user's ``observation(seat)``, anyone else the public one), the hotspots of the
image drawn from that same observation, and the legal moves' picks (``Game.move_picks``) that the page
walks as a prefix tree, like the move builder. Secret picks (Zodiac's duel and king) are left out: they
are made in the DM menus.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import render
from engines import CHANCE, Game
from host.play import bots
from host.play.builder import SECRET
from host.play.shared_renders import SharedRenders
from host.results import GameRow, HostError

if TYPE_CHECKING:
    from host.play.boards import Boards


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
    """The viewer's move now is secret (made in the DM menus), so ``picks`` is empty."""
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """Shallow: the fields hold plain JSON data already (``asdict``'s deep copy cost more than the rest of
        a view, bench/bench_web.py)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


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
    """The picks of the user's move if it is theirs to make now (not an AI's, not a die's)."""
    if user is None or row.status != "active" or game.outcome() is not None or bots.is_ai(user):
        return [], False
    movers = [s for s in row.seats_of(user) if s in game.to_move() and s != CHANCE]
    if not movers:
        return [], False
    picks = game.move_picks(movers[0])
    open_ = [{"move": move, "picks": [{"kind": p.kind, "label": p.label, "target": p.target, "group": p.group}
                                      for p in sequence]}
             for move, sequence in picks if sequence[0].kind != SECRET]
    return open_, bool(picks) and not open_


class Clickable:
    """The clickable board's read model, over the read model (which loads and draws)."""

    def __init__(self, boards: Boards) -> None:
        self.boards = boards
        self.drawn: SharedRenders[tuple[dict[str, Any], dict[str, dict[str, Any]]]] = SharedRenders()
        """(observation, hotspots) and the PNG, once per (game, version, seat) for all the pages open on a game
        (host/play/shared_renders.py): read-only, shared by every answer."""
        self.images: SharedRenders[bytes] = SharedRenders()

    async def board_view(self, game_id: int, user: int | None) -> BoardView:
        """The game as ``user`` may see it (``None``: a spectator), with the hotspots and the picks of their move."""
        row, game = await self.boards.loaded(game_id)
        seat = _seat(row, user)

        async def draw(observation: dict[str, Any]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
            spots = await asyncio.to_thread(render.hotspots, observation)
            return observation, {k: {"shape": s.shape, "points": list(s.points)} for k, s in spots.items()}

        observation, hotspots = await self.drawn.get(  # the observation is taken now, at this version
            (row.id, row.version, seat), lambda: draw(_observation(self.boards, row, game, seat)))
        picks, secret = _picks(row, game, user)
        outcome = game.outcome()
        return BoardView(game_id=row.id, game=row.game, title=game.title, status=row.status, ply=len(game.history),
                         version=row.version, seat=seat, observation=observation, hotspots=hotspots,
                         picks=picks, secret=secret, result=outcome.to_dict() if outcome is not None else None)

    async def board_image(self, game_id: int, user: int | None, ply: int | None = None) -> bytes:
        """The viewer's board PNG; ``ply``: the position the page asks for, refused once the game moved past it
        (the page then reloads its view, so the image and its hotspots always belong together)."""
        row, game = await self.boards.loaded(game_id)
        if ply is not None and ply != len(game.history):
            raise HostError("The game has moved on since this board was asked for: reload the view.")
        seat = _seat(row, user)
        return await self.images.get((row.id, row.version, seat), lambda: asyncio.to_thread(
            self.boards.renderer, _observation(self.boards, row, game, seat)))
