"""Zarathustra (Mark Ressler): place square tiles whose swords and shields fight their neighbours.

Notation: the square (file letter, rank 1 at the bottom) then the four edges clockwise from the
top, ``x`` sword, ``o`` shield, ``.`` blank: ``c3 oo.x``. Each player holds the 17 tiles that differ
up to rotation; a tile may be placed in any rotation. Only the placed tile's four edges fight; all
four fights use the board as it stood just after placement, and all removals happen together.
See docs/rules/zarathustra.md for the rulings.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from engines.base import Game, IllegalMove, Option, Outcome, Pick

SEAT_NAMES = ("Blue", "Orange", "Green", "Purple")
"""Match the renderer's colour-blind-safe palette, so names and colours agree."""
FILES = "abcdefg"
BLANK, SHIELD, SWORD = ".", "o", "x"
BOARD_FOR_PLAYERS = {2: 5, 3: 6, 4: 7}
DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""(file step, rank step) for the edges in notation order: top, right, bottom, left."""


def rotate(edges: str) -> str:
    """The same tile turned a quarter clockwise: the top edge moves to the right."""
    return edges[-1] + edges[:-1]


def rotations(edges: str) -> list[str]:
    out = [edges]
    for _ in range(3):
        out.append(rotate(out[-1]))
    return out


def tile_of(edges: str) -> str:
    """The tile's name: its smallest rotation, so every rotation of a tile names the same tile."""
    return min(rotations(edges))


TILES: tuple[str, ...] = tuple(sorted({
    tile_of("".join(e)) for e in itertools.product(BLANK + SHIELD + SWORD, repeat=4)
    if BLANK in e and any(c != BLANK for c in e)
}))
"""The 17 tiles each player holds, e.g. ``..ox`` (its mirror ``..xo`` is a different tile)."""
assert len(TILES) == 17
PLACEMENTS: dict[str, tuple[str, ...]] = {t: tuple(sorted(set(rotations(t)))) for t in TILES}
"""Distinct rotations of each tile: ``.o.o`` and ``.x.x`` have only two."""
START_BLANKS = sum(t.count(BLANK) for t in TILES)


def square_name(index: int, size: int) -> str:
    """Squares are numbered file-major, so index order is the sorted order of their names."""
    return f"{FILES[index // size]}{index % size + 1}"


def square_index(name: str, size: int) -> int | None:
    if len(name) < 2 or name[0] not in FILES[:size] or not name[1:].isascii() or not name[1:].isdigit():
        return None
    rank = int(name[1:])
    return FILES.index(name[0]) * size + rank - 1 if 1 <= rank <= size else None


@dataclass(frozen=True)
class Geometry:
    """Everything about a board size that never changes, computed once per size."""

    size: int
    names: tuple[str, ...]
    neighbours: tuple[tuple[tuple[int, int], ...], ...]
    """Per square: (edge, neighbour square) for the orthogonal neighbours on the board."""
    ring: tuple[tuple[int, ...], ...]
    """Per square: the up to eight squares around it (the skull zone)."""
    moves: tuple[tuple[tuple[str, str], ...], ...]
    """Per square: (tile, move text) for every placement, sorted by text."""


def _geometry(size: int) -> Geometry:
    names = tuple(square_name(i, size) for i in range(size * size))
    neighbours = []
    ring = []
    moves = []
    for i in range(size * size):
        f, r = divmod(i, size)
        neighbours.append(tuple((d, (f + df) * size + r + dr) for d, (df, dr) in enumerate(DIRECTIONS)
                                if 0 <= f + df < size and 0 <= r + dr < size))
        ring.append(tuple((f + df) * size + r + dr for df in (-1, 0, 1) for dr in (-1, 0, 1)
                          if (df or dr) and 0 <= f + df < size and 0 <= r + dr < size))
        moves.append(tuple(sorted(((t, f"{names[i]} {e}") for t in TILES for e in PLACEMENTS[t]),
                                  key=lambda pair: pair[1])))
    return Geometry(size, names, tuple(neighbours), tuple(ring), tuple(moves))


GEOMETRY = {size: _geometry(size) for size in (5, 6, 7)}
MOVE_SHAPES = (re.compile(r"([a-z])([0-9]{1,2})([.ox]{4})"), re.compile(r"([.ox]{4})([a-z])([0-9]{1,2})"))
EDGE_WORDS = {SWORD: "sword", SHIELD: "shield", BLANK: "blank"}
AIMS = ("up", "right", "down", "left")
"""Where each edge of the notation (top, right, bottom, left) points on the board image."""


def _and(words: list[str]) -> str:
    """"up", "up and down", "up, right and down": how a player would list directions."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def tile_label(tile: str) -> str:
    """A tile read clockwise, starting after a blank and with a sword first where it can, so a
    newcomer reads ``..ox`` as "Shield, sword, blank, blank" and tells it from its mirror."""
    shown = min((r for r in rotations(tile) if r[0] != BLANK and r[-1] == BLANK),
                key=lambda r: [(SWORD + SHIELD + BLANK).index(c) for c in r])
    return ", ".join(EDGE_WORDS[c] for c in shown).capitalize()


def aim_label(edges: str) -> str:
    """One placement told by where its swords and shields point, e.g. "Swords up and right; shield down"."""
    parts = []
    for symbol in (SWORD, SHIELD):
        aims = [AIMS[d] for d, c in enumerate(edges) if c == symbol]
        if aims:
            parts.append(f"{EDGE_WORDS[symbol]}{'s' if len(aims) > 1 else ''} {_and(aims)}")
    return "; ".join(parts).capitalize()


TILE_PICKS: dict[str, Pick] = {
    t: Pick("tile", tile_label(t), f"hand:{t}", f"{t.count(BLANK)} blank{'s' if t.count(BLANK) > 1 else ''}")
    for t in TILES}
"""The first pick of a move: a tile of the mover's hand, aimed at that tile in the tray. A hand holds
each tile once, so a tile is one choice whatever rotation is played."""
assert len({p.label for p in TILE_PICKS.values()}) == len(TILES)
AIM_PICKS: dict[str, Pick] = {e: Pick("rotation", aim_label(e)) for t in TILES for e in PLACEMENTS[t]}
"""The last pick on a square with no neighbour, where no fight can happen: built once."""
MAX_LABEL = 80

HOW_TO_WRITE = ("Write a move as a square and the four edges clockwise from the top "
                "(x sword, o shield, . blank), e.g. c3 oo.x.")


@dataclass(frozen=True)
class LastMove:
    """The latest placement, kept for the skull zone, the board image and the caption."""

    seat: int
    square: int
    edges: str
    destroyed: tuple[tuple[int, int, str], ...]
    """(square, owner, edges) of every tile removed, the placed tile included if it died."""

    @property
    def survived(self) -> bool:
        return all(sq != self.square for sq, _, _ in self.destroyed)


class Zarathustra(Game):
    name = "zarathustra"
    title = "Zarathustra"
    players = range(2, 5)
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option("board", 5, (5, 6, 7), "board size; unless chosen: 5x5 for 2 players, 6x6 for 3, 7x7 for 4"),
        Option("skulls_if_destroyed", False, (False, True),
               "also block the squares around the last tile when that tile was itself destroyed"),
    )
    help = (
        "Each player holds 17 square tiles; every edge of a tile is a sword, a shield or blank. On your turn "
        "place one tile, in any rotation, on an empty square: `c3 oo.x` puts a tile on c3 with its edges "
        "clockwise from the top (x sword, o shield, . blank). On the picture a tile shows its owner by colour "
        "and by a shape in two corners: Blue square, Orange diamond, Green triangle, Purple circle.\n\n"
        "The placed tile fights each touching neighbour across the shared edge. A sword against a blank "
        "destroys the blank tile, whoever owns it. Sword against sword: each tile counts the neighbours "
        "(any colour) that turn a shield towards it; more shields wins, equal numbers destroy both. Every "
        "other pairing does nothing, and only the new tile's four edges fight.\n\n"
        "Skulls: the next player may not place on the eight squares around the last tile played (unless that "
        "tile was destroyed at once; an option keeps the skulls then too).\n\n"
        "The game ends when every tile is played or no open square is left. Score one point per blank "
        "edge of your tiles on the board: blanks are weak in a fight but win the game."
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.size: int = options["board"]
        self.geo = GEOMETRY[self.size]
        self.cells: list[tuple[int, str] | None] = [None] * (self.size * self.size)
        self.hands: list[set[str]] = [set(TILES) for _ in range(players)]
        self.turn = 0
        self.skulls: frozenset[int] = frozenset()
        self.last: LastMove | None = None
        self.result: Outcome | None = None

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The board size follows the player count unless it was chosen."""
        given = {k: v for k, v in dict(options).items() if not (k == "board" and v in (None, ""))}
        checked = super().check_options(players, given)
        if "board" not in given:
            checked["board"] = BOARD_FOR_PLAYERS.get(players, 5)
        return checked

    def clone(self) -> Self:
        """A shallow copy of the few mutable parts: random playouts clone often."""
        new = self._shallow_copy()
        new.cells = list(self.cells)
        new.hands = [set(h) for h in self.hands]
        return new

    # ----- rules --------------------------------------------------------------------------

    def _to_move(self) -> frozenset[int]:
        return frozenset() if self.result is not None else frozenset({self.turn})

    def open_squares(self) -> list[int]:
        """Empty squares outside the skull zone, in sorted name order."""
        return [i for i, c in enumerate(self.cells) if c is None and i not in self.skulls]

    def _legal_moves(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        moves = self.geo.moves
        return [text for i in self.open_squares() for tile, text in moves[i] if tile in hand]

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """Tile from the hand → square → rotation: the notation's edges are the tile turned, so the first
        and last picks together name them. The rotation's label previews the fights, as ``describe`` does."""
        hand = self.hands[seat]
        names = self.geo.names
        out = []
        for i in self.open_squares():
            square = Pick("square", names[i], names[i], f"Row {names[i][1:]}")
            lonely = all(self.cells[other] is None for _, other in self.geo.neighbours[i])
            for tile, text in self.geo.moves[i]:
                if tile in hand:
                    edges = text[-4:]
                    aim = AIM_PICKS[edges] if lonely else self._aim_with_fights(seat, i, edges)
                    out.append((text, (TILE_PICKS[tile], square, aim)))
        return out

    def _aim_with_fights(self, seat: int, square: int, edges: str) -> Pick:
        """The rotation pick with what it costs, e.g. "Sword up — destroys b3, your c4; this tile dies"."""
        aim = AIM_PICKS[edges]
        dead = self.fights(seat, square, edges)
        if not dead:
            return aim
        for mine in ("your ", ""):  # the longest case (three kills of your own, and death) just fits
            others = [(mine if cell[0] == seat else "") + self.geo.names[sq]
                      for sq in dead if sq != square and (cell := self.cells[sq]) is not None]
            parts = (["destroys " + ", ".join(others)] if others else []) + (["this tile dies"] * (square in dead))
            label = f"{aim.label} — {'; '.join(parts)}"
            if len(label) <= MAX_LABEL:
                break
        return Pick("rotation", label[:MAX_LABEL])

    def parse(self, text: str) -> tuple[int, str]:
        """Square index and edges of a move text; lenient about case, spaces and order."""
        compact = "".join(text.lower().split()).replace("-", ".").replace("_", ".")
        for number, shape in enumerate(MOVE_SHAPES):
            match = shape.fullmatch(compact)
            if match:
                groups = match.groups()
                letter, rank, edges = groups if number == 0 else (groups[1], groups[2], groups[0])
                index = square_index(letter + rank, self.size)
                if index is None:
                    raise IllegalMove(f"{letter}{rank} is not on the {self.size}x{self.size} board.")
                return index, edges
        raise IllegalMove(HOW_TO_WRITE)

    def check(self, seat: int, text: str) -> tuple[int, str]:
        """Parse and check a placement for ``seat``; raises ``IllegalMove`` with the reason."""
        index, edges = self.parse(text)
        name = self.geo.names[index]
        if BLANK not in edges or edges == BLANK * 4:
            raise IllegalMove(f"There is no tile {edges}: every tile has at least one blank edge and at least "
                              "one sword or shield.")
        occupant = self.cells[index]
        if occupant is not None:
            raise IllegalMove(f"{name} already holds {self.seat_name(occupant[0])}'s tile {occupant[1]}.")
        if index in self.skulls:
            last = self.geo.names[self.last.square] if self.last else "?"
            raise IllegalMove(f"{name} is marked with a skull: no tile may go next to the last tile played "
                              f"({last}).")
        if tile_of(edges) not in self.hands[seat]:
            raise IllegalMove(f"You have already played the tile {tile_of(edges)} (in some rotation); each "
                              "tile is played once.")
        return index, edges

    def support(self, square: int) -> int:
        """Neighbours, of any owner, that turn a shield towards ``square``."""
        count = 0
        for d, other in self.geo.neighbours[square]:
            cell = self.cells[other]
            if cell is not None and cell[1][(d + 2) % 4] == SHIELD:
                count += 1
        return count

    def fights(self, seat: int, square: int, edges: str) -> list[int]:
        """Squares whose tiles die if ``seat`` places ``edges`` on empty ``square`` (state unchanged).

        Each edge is resolved on the board just after placement and before any removal, so a tile
        can die on one edge and still kill on another.
        """
        self.cells[square] = (seat, edges)
        try:
            dead: set[int] = set()
            for d, other in self.geo.neighbours[square]:
                cell = self.cells[other]
                if cell is None:
                    continue
                mine, theirs = edges[d], cell[1][(d + 2) % 4]
                if mine == SWORD and theirs == BLANK:
                    dead.add(other)
                elif mine == BLANK and theirs == SWORD:
                    dead.add(square)
                elif mine == SWORD and theirs == SWORD:
                    own, their = self.support(square), self.support(other)
                    if own <= their:
                        dead.add(square)
                    if their <= own:
                        dead.add(other)
            return sorted(dead)
        finally:
            self.cells[square] = None

    def _play(self, seat: int, text: str) -> str:
        square, edges = self.check(seat, text)
        dead = self.fights(seat, square, edges)
        self.cells[square] = (seat, edges)
        destroyed = []
        for sq in dead:
            cell = self.cells[sq]
            assert cell is not None
            destroyed.append((sq, cell[0], cell[1]))
            self.cells[sq] = None
        self.hands[seat].discard(tile_of(edges))
        self.last = LastMove(seat, square, edges, tuple(destroyed))
        if self.last.survived:
            zone: tuple[int, ...] = self.geo.ring[square]
        elif self.options["skulls_if_destroyed"]:
            zone = (*self.geo.ring[square], square)
        else:
            zone = ()
        self.skulls = frozenset(sq for sq in zone if self.cells[sq] is None)
        self._pass_turn(seat)
        return f"{self.geo.names[square]} {edges}"

    def _pass_turn(self, seat: int) -> None:
        """Next seat still in the game with tiles; then check the two ends before it moves."""
        for step in range(1, self.num_players + 1):
            nxt = (seat + step) % self.num_players
            if nxt not in self.eliminated and self.hands[nxt]:
                self.turn = nxt
                break
        else:
            self.finish("every tile has been played")
            return
        if not self.open_squares():
            self.finish("no open square is left")

    def _skip_seat(self, seat: int) -> None:
        """A departed seat's tiles stay on the board and keep fighting; its turn passes on."""
        if self.result is None and self.turn == seat:
            self._pass_turn(seat)

    def finish(self, reason: str) -> None:
        scores = self.scores()
        best = max(scores[s] for s in self.active_seats()) if self.active_seats() else max(scores)
        leaders = [self.seat_name(s) for s in self.active_seats() if scores[s] == best]
        verdict = f"{leaders[0]} wins" if len(leaders) == 1 else f"{' and '.join(leaders)} share the win"
        self.result = Outcome.by_scores(tuple(float(s) for s in scores), f"{reason}: {verdict} with {best}")

    def scores(self) -> list[int]:
        """Blank edges of each player's tiles on the board."""
        totals = [0] * self.num_players
        for cell in self.cells:
            if cell is not None:
                totals[cell[0]] += cell[1].count(BLANK)
        return totals

    def _outcome(self) -> Outcome | None:
        return self.result

    # ----- presentation -------------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat] if 0 <= seat < len(SEAT_NAMES) else super().seat_name(seat)

    def describe(self, seat: int, move: str) -> str:
        """The move and what it would destroy, so players see the consequences before committing."""
        try:
            square, edges = self.check(seat, move)
        except IllegalMove:
            return move[:100]
        text = f"{self.geo.names[square]} {edges}"
        dead = self.fights(seat, square, edges)
        others = [f"{self.geo.names[sq]} ({self.seat_name(cell[0])})"
                  for sq in dead if sq != square and (cell := self.cells[sq]) is not None]
        parts = []
        if others:
            parts.append("destroys " + ", ".join(others))
        if square in dead:
            parts.append("this tile dies")
        return (f"{text} — {'; '.join(parts)}" if parts else text)[:100]

    def status(self) -> str:
        scores = self.scores()
        parts = []
        for s in range(self.num_players):
            gone = " (out)" if s in self.eliminated else ""
            left = len(self.hands[s])
            parts.append(f"{self.seat_name(s)}{gone} {scores[s]} pts, {left} tile{'' if left == 1 else 's'} left")
        return " · ".join(parts)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        names = self.geo.names
        last = None
        if self.last is not None:
            last = {"seat": self.last.seat, "square": names[self.last.square], "edges": self.last.edges,
                    "survived": self.last.survived,
                    "destroyed": [{"square": names[sq], "owner": o, "edges": e} for sq, o, e in self.last.destroyed]}
        return {
            "size": self.size,
            "board": {names[i]: {"owner": c[0], "edges": c[1]} for i, c in enumerate(self.cells) if c is not None},
            "hands": [sorted(h) for h in self.hands],
            "skulls": sorted(names[i] for i in self.skulls) if self.outcome() is None else [],  # none after the end
            "scores": self.scores(),
            "turn": self.turn if self.result is None else None,
            "last": last,
        }
