"""The move builder's clicks for Ziggurat: each legal move of this step as a short sequence of picks.

A step is one use of a die, so the builder first asks which use (the form: Move, Aim, Tip, Dig, Redo,
End...; clicking a die picks the form that spends it), then the piece or stack on the board, then for
the actions that need it the second place (Tip direction, Dig destination, Swap partner). Movement
forms end at the piece: where it lands follows from the dice and the label says so.

Targets are the renderer's hotspot keys: a square name (``c2``), ``start:<Colour>`` for the mover's
Start Station, ``die:move`` / ``die:action`` for the live dice; ``None`` for a form without a die
(``end``) and for stack-internal swaps and Tips off the board edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.base import Pick
from engines.ziggurat import rules
from engines.ziggurat.board import DIRECTIONS, LAYOUT, STATIONS, name, on_board, xy
from engines.ziggurat.explain import describe, piece_name

if TYPE_CHECKING:
    from engines.ziggurat.game import Ziggurat

DIRECTION_NAMES = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east",
                   "s": "south", "sw": "south-west", "w": "west", "nw": "north-west"}
QUEEN_PLACES = ("Queen at the bottom (1)", "Queen 2nd from the bottom", "Queen 3rd from the bottom",
                "Queen on top (4)")


def picks(game: Ziggurat) -> list[tuple[str, tuple[Pick, ...]]]:
    """Every legal move of the player to move (not the dice) with its picks."""
    station = f"start:{LAYOUT[game.colour].name}"
    if game.phase == "setup":
        return [(f"queen {n}", (Pick("queen", QUEEN_PLACES[n - 1], station, "Start Station"),))
                for n in range(1, 5)]
    out = [(move, _picks_of(game, move, effect, station)) for move, effect in game.effects().items()]
    out.append(("end", (Pick("action", describe(game, "end")[:80]),)))
    return out


def _place(game: Ziggurat, loc: int, station: str) -> tuple[str, str, str]:
    """(target, short name, group) of a location: a square by its name and row, or the Start Station."""
    if loc == STATIONS[game.colour]:
        return station, "Start", "Start Station"
    square = name(loc)
    return square, square, f"Row {square[1]}"


def _contents(game: Ziggurat, loc: int) -> str:
    """A stack's pieces bottom up, e.g. ``Orange, Blue Queen``."""
    return ", ".join(piece_name(p) for p in game.board[loc])


def _form(game: Ziggurat, verb: str) -> Pick:
    """The first pick: which use of the dice. Movement forms name their points."""
    points = (game.movement or 0) + (game.bonus if verb in ("aim", "hop") else 0)
    label = {
        "move": f"Move a piece ({points})",
        "aim": f"Aim a piece ({points}, past corners and walls)",
        "hop": f"Hop a piece ({points}, over pieces)",
        "leap": "Leap a piece (over empty squares)",
        "tip": "Tip a stack or piece",
        "swap": "Swap two pieces",
        "dig": "Dig out a bottom piece",
    }[verb]
    return Pick("action", label, "die:move" if verb == "move" else "die:action")


def _picks_of(game: Ziggurat, move: str, effect: rules.Effect, station: str) -> tuple[Pick, ...]:
    kind = effect[0]
    verb = move.split()[0]
    if kind == "redo":
        return (Pick("action", describe(game, move), "die:action"),)
    form = _form(game, verb)
    if kind in ("move", "leap"):
        loc, dest = effect[1], effect[3] if kind == "move" else effect[2]
        height = effect[2] if kind == "move" else len(game.board[loc]) - 1
        carried = len(game.board[loc]) - height - 1
        who = piece_name(game.board[loc][height]) + (f" carrying {carried}" if carried else "")
        target, here, group = _place(game, loc, station)
        return form, Pick("piece", f"{who} from {here} to {name(dest)}"[:80], target, group)
    if kind == "tipstart":
        board = [s[:] for s in game.board]
        landed = rules.apply(board, game.colour, effect)[1:]
        return form, Pick("stack", f"Start Station: {_spots(landed)}"[:80], station, "Start Station")
    if kind == "tip":
        origin, direction = effect[1], effect[2]
        target, here, group = _place(game, origin, station)
        board = [s[:] for s in game.board]
        landed = rules.apply(board, game.colour, effect)[1:]
        x, y = xy(origin)
        dx, dy = DIRECTIONS[direction]
        first = name(10 * (x + dx) + y + dy) if on_board(x + dx, y + dy) else None
        return (form, Pick("stack", f"{here} ({_contents(game, origin)})"[:80], target, group),
                Pick("direction", f"Tip {DIRECTION_NAMES[direction]}: {_spots(landed)}"[:80], first,
                     "Directions"))
    if kind == "dig":
        origin, dest = effect[1], effect[2]
        target, here, group = _place(game, origin, station)
        to, there, to_group = _place(game, dest, station)
        return (form, Pick("piece", f"{piece_name(game.board[origin][0])} under {here}"[:80], target, group),
                Pick("to", f"Dig to {there}", to, to_group))
    if kind == "swapa":
        origin, other = effect[1], effect[2]
        target, here, group = _place(game, origin, station)
        partner, there, partner_group = _place(game, other, station)
        return (form, Pick("piece", f"{here} ({_contents(game, origin)})"[:80], target, group),
                Pick("swap", f"With {piece_name(game.board[other][-1])} on {there}", partner, partner_group))
    if kind == "swapb":
        loc, i, j = effect[1], effect[2], effect[3]
        target, here, group = _place(game, loc, station)
        stack = game.board[loc]
        inside = f"In the stack: #{i + 1} {piece_name(stack[i])} ↔ #{j + 1} {piece_name(stack[j])}"
        return (form, Pick("piece", f"{here} ({_contents(game, loc)})"[:80], target, group),
                Pick("swap", inside[:80], None, "In the stack"))
    raise ValueError(f"no picks for {move!r}")


def _spots(landed: list[int]) -> str:
    """Where tipped pieces land, bottom piece first; pieces tipped off the board go back to their Start
    Station (said so, since "home" in this game is the Goal)."""
    squares = [name(s) for s in landed if on_board(*xy(s))]
    off = len(landed) - len(squares)
    back = f"{off} back to Start" if off else ""
    if not squares:
        return back
    return "lands on " + ", ".join(squares) + (f"; {back}" if back else "")
