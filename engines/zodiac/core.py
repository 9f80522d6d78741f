"""Zodiac Chess board model: squares, pieces, stacked squares and the whole mutable position.

A square can hold a stack: a tree with a piece housed in it, a fainted goat with a piece standing on
it, and an active virus riding its host. ``Cell`` names those layers so the rules never have to guess
what a list index means. Sides are 0 (light, moves up) and 1 (dark, moves down); seats are mapped to
sides by the game class only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FILES = "abcde"
WIDTH, HEIGHT = 5, 8
LIGHT, DARK = 0, 1
SIDE_NAMES = ("Light", "Dark")

KINDS = ("Bear", "Crane", "Frog", "Fungi", "Goat", "Monkey", "Octopus", "Penguin", "Rhino", "Snake", "Tree",
         "Wolf", "Virus")
KINGABLE = tuple(k for k in KINDS if k != "Virus")
LARGE = frozenset({"Bear", "Rhino", "Tree", "Wolf"})
PREDATORS = frozenset({"Bear", "Wolf"})
ANIMALS = frozenset({"Bear", "Crane", "Frog", "Goat", "Monkey", "Octopus", "Penguin", "Rhino", "Snake", "Wolf"})
CLIMBERS = frozenset({"Bear", "Crane", "Frog", "Fungi", "Goat", "Monkey", "Octopus", "Snake"})

# The eight directions, clockwise from up; a penguin's facing is an index into this tuple.
DIRS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHO = (DIRS[0], DIRS[2], DIRS[4], DIRS[6])
DIAG = (DIRS[1], DIRS[3], DIRS[5], DIRS[7])
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
LONE = ((1, 3), (3, 1), (3, -1), (1, -3), (-1, -3), (-3, -1), (-3, 1), (-1, 3))


SQ_NAMES = tuple(f"{FILES[sq % WIDTH]}{sq // WIDTH + 1}" for sq in range(WIDTH * HEIGHT))


def sq_name(sq: int) -> str:
    return SQ_NAMES[sq]


def sq_parse(text: str) -> int | None:
    # ASCII digits only: str.isdigit() also accepts "³" or "❸", which int() then refuses (issue 16).
    if len(text) != 2 or text[0] not in FILES or text[1] not in "0123456789" or not 1 <= int(text[1]) <= HEIGHT:
        return None
    return (int(text[1]) - 1) * WIDTH + FILES.index(text[0])


def _shift(sq: int, df: int, dr: int) -> int | None:
    f, r = sq % WIDTH + df, sq // WIDTH + dr
    if 0 <= f < WIDTH and 0 <= r < HEIGHT:
        return r * WIDTH + f
    return None


_SHIFTS = {(df, dr): tuple(_shift(sq, df, dr) for sq in range(WIDTH * HEIGHT))
           for df in range(-8, 9) for dr in range(-8, 9)}


def shift(sq: int, df: int, dr: int) -> int | None:
    """The square ``(df, dr)`` away, or None off the board (a table: move generation calls this a lot)."""
    return _SHIFTS[df, dr][sq]


def forward(side: int) -> int:
    return 1 if side == LIGHT else -1


def back_rank(side: int) -> int:
    return 0 if side == LIGHT else HEIGHT - 1


def far_rank(side: int) -> int:
    return HEIGHT - 1 if side == LIGHT else 0


def rank(sq: int) -> int:
    return sq // WIDTH


def file(sq: int) -> int:
    return sq % WIDTH


def adjacent(a: int, b: int) -> bool:
    return a != b and abs(file(a) - file(b)) <= 1 and abs(rank(a) - rank(b)) <= 1


@dataclass(slots=True)
class Piece:
    """One piece with every status token the rules put on it."""

    pid: int
    kind: str
    owner: int
    side: int
    """Who controls it now: differs from ``owner`` only while a zombie plays for the fungi's owner."""
    moved: bool = False
    fainted: bool = False
    shed: bool = False
    charged: bool = False
    facing: int = 4
    poison: int = 0
    """Turns of its owner left that it may not move (2 when poisoned, counted down at each end of turn)."""
    zombie: int | None = None
    """The side that controls it on that side's next turn after it captured an enemy fungi."""
    entangled_by: int | None = None
    ink: bool = False
    """An ink token: the real octopus or one of its shadows, which look the same to the opponent."""
    shadow: bool = False

    def copy(self) -> Piece:
        return Piece(self.pid, self.kind, self.owner, self.side, self.moved, self.fainted, self.shed, self.charged,
                     self.facing, self.poison, self.zombie, self.entangled_by, self.ink, self.shadow)


@dataclass(slots=True)
class Cell:
    """The layers of one square; ``piece`` is housed when ``tree`` is set and stands on ``floor`` if set."""

    tree: Piece | None = None
    floor: Piece | None = None
    piece: Piece | None = None
    virus: Piece | None = None

    def top(self) -> Piece | None:
        """What a mover meets on this square (a fainted goat alone counts as empty)."""
        return self.tree or self.piece

    def pieces(self) -> list[Piece]:
        return [p for p in (self.tree, self.floor, self.piece, self.virus) if p is not None]

    def empty(self) -> bool:
        return self.tree is None and self.floor is None and self.piece is None and self.virus is None

    def copy(self) -> Cell:
        return Cell(*(p.copy() if p else None for p in (self.tree, self.floor, self.piece, self.virus)))


@dataclass
class State:
    """The position during play; the game class owns the phases around it."""

    cells: dict[int, Cell] = field(default_factory=dict)
    turn: int = LIGHT
    kings: list[str | None] = field(default_factory=lambda: [None, None])
    proxy: dict[int, int] = field(default_factory=dict)
    """side -> pid of a piece carrying that side's eaten fungi king until that side's turn ends (3.7h, 3.5c)."""
    chain: dict | None = None
    """An extra turn in progress: {"pid", "kind": "monkey"|"virus", "swings": [[tree_pid, dir]], "fungi": n}."""
    pending: dict | None = None
    """A die to roll before a move completes: {"why": "danger"|"bear", "need": n, ...the move...}."""
    captured: list[list[str]] = field(default_factory=lambda: [[], []])
    """Kinds each side has lost, in order."""
    winner: int | None = None
    draw: str | None = None
    reason: str = ""
    next_pid: int = 0

    def copy(self) -> State:
        new = State.__new__(State)
        new.cells = {sq: c.copy() for sq, c in self.cells.items()}
        new.turn = self.turn
        new.kings = list(self.kings)
        new.proxy = dict(self.proxy)
        new.chain = None if self.chain is None else {**self.chain, "swings": [list(s) for s in self.chain["swings"]]}
        new.pending = None if self.pending is None else dict(self.pending)
        new.captured = [list(c) for c in self.captured]
        new.winner, new.draw, new.reason, new.next_pid = self.winner, self.draw, self.reason, self.next_pid
        return new

    # ----- queries -------------------------------------------------------------------------

    def cell(self, sq: int) -> Cell | None:
        return self.cells.get(sq)

    def top(self, sq: int) -> Piece | None:
        c = self.cells.get(sq)
        return c.top() if c else None

    def is_empty_like(self, sq: int) -> bool:
        """No piece a mover would meet: empty, or only a fainted goat lying there."""
        c = self.cells.get(sq)
        return c is None or (c.tree is None and c.piece is None)

    def all_pieces(self) -> list[tuple[int, Piece]]:
        out = []
        for sq, c in sorted(self.cells.items()):
            for p in (c.tree, c.floor, c.piece, c.virus):
                if p is not None:
                    out.append((sq, p))
        return out

    def find(self, pid: int) -> tuple[int, Piece] | None:
        for sq, c in self.cells.items():
            for p in (c.tree, c.floor, c.piece, c.virus):
                if p is not None and p.pid == pid:
                    return sq, p
        return None

    def king_piece(self, side: int) -> tuple[int, Piece] | None:
        kind = self.kings[side]
        for sq, p in self.all_pieces():
            if p.owner == side and p.kind == kind and not p.shadow:
                return sq, p
        return None

    def fungi_squares(self, side: int) -> list[int]:
        return [sq for sq, p in self.all_pieces() if p.kind == "Fungi" and p.side == side]

    # ----- changes ---------------------------------------------------------------------------

    def put(self, sq: int, piece: Piece, virus: Piece | None = None) -> None:
        """Place a lifted unit: onto an empty square, a fainted goat or into a tree (housing)."""
        c = self.cells.get(sq)
        if c is None:
            c = self.cells[sq] = Cell()
        if piece.kind == "Tree":
            c.tree = piece
        elif piece.fainted and piece.kind == "Goat" and c.floor is None and c.piece is None and c.tree is None:
            c.floor = piece
            if virus is not None:
                c.piece = virus  # a goat that lands fainted is no longer infected: the virus lies dormant on it
            return
        else:
            c.piece = piece
        if virus is not None:
            c.virus = virus

    def lift(self, sq: int, piece: Piece) -> tuple[Piece, Piece | None, Piece | None]:
        """Take a moving piece off ``sq`` with what travels with it: (piece, its virus, a housed piece)."""
        c = self.cells[sq]
        virus = housed = None
        if c.tree is piece:
            housed, virus = c.piece, c.virus
            c.tree = c.piece = c.virus = None
        elif c.piece is piece:
            virus = c.virus
            c.piece = c.virus = None
        elif c.virus is piece:
            c.virus = None
        elif c.floor is piece:
            c.floor = None
        if c.empty():
            del self.cells[sq]
        return piece, virus, housed

    def remove(self, sq: int, piece: Piece) -> None:
        c = self.cells.get(sq)
        if c is None:
            return
        for layer in ("tree", "floor", "piece", "virus"):
            if getattr(c, layer) is piece:
                setattr(c, layer, None)
        if c.empty():
            del self.cells[sq]
