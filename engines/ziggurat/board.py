"""The Ziggurat board as data: levels, corners, stations, walls, goals and each colour's path.

The rule text lost its figures (setup, paths); RESEARCH.md section 4 reconstructs them. Everything
that a corrected figure could change lives in ``LAYOUT``: edit that table and the paths, the engine
and the pictures follow. Squares are ints ``10 * x + y`` with files x and ranks y in 1..8 (a1 = 11);
the off-board Start Stations use the same scheme with x or y equal to 0 or 9.
"""

from __future__ import annotations

from typing import NamedTuple

FILES = "abcdefgh"


class ColourLayout(NamedTuple):
    """Where one colour starts, climbs and ends (Figure 1 of the rules, as reconstructed)."""

    name: str
    letter: str
    station: tuple[int, int]
    """Start Station, off the board beside the colour's corner; its facing points at the corner."""
    walls: tuple[str, str, str]
    """The squares on Levels 1, 2 and 3 where this colour climbs to the next Level."""
    goal: str


# Index order is clockwise seen from above (a1, a8, h8, h1): the order of turns around the table.
# UNVERIFIED reconstruction (RESEARCH.md 4A.1-2): almost a full lap per level, climbing one square
# inward at the wall just before the colour's own diagonal; the Goal is the centre square on it.
LAYOUT: tuple[ColourLayout, ...] = (
    ColourLayout("Blue", "B", (0, 1), ("a2", "b3", "c4"), "d4"),
    ColourLayout("Orange", "O", (1, 9), ("b8", "c7", "d6"), "d5"),
    ColourLayout("Green", "G", (9, 8), ("h7", "g6", "f5"), "e5"),
    ColourLayout("Purple", "P", (8, 0), ("g1", "f2", "e3"), "e4"),
)

DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, 1), "ne": (1, 1), "e": (1, 0), "se": (1, -1),
    "s": (0, -1), "sw": (-1, -1), "w": (-1, 0), "nw": (-1, 1),
}
DIRECTION_WORDS = {"north": "n", "northeast": "ne", "east": "e", "southeast": "se", "south": "s",
                   "southwest": "sw", "west": "w", "northwest": "nw"}


def sq(x: int, y: int) -> int:
    return 10 * x + y


def xy(square: int) -> tuple[int, int]:
    return square // 10, square % 10


def on_board(x: int, y: int) -> bool:
    return 1 <= x <= 8 and 1 <= y <= 8


def level_xy(x: int, y: int) -> int:
    """Level 1 is the rim, Level 4 the four centre squares, 0 anything off the board."""
    return max(0, min(x, y, 9 - x, 9 - y))


def is_number(word: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts "²", which ``int`` refuses."""
    return word.isascii() and word.isdigit()


def parse_square(text: str) -> int | None:
    if len(text) == 2 and text[0] in FILES and text[1] in "12345678":
        return sq(FILES.index(text[0]) + 1, int(text[1]))
    return None


def name(square: int) -> str:
    known = NAMES.get(square)
    if known is not None:
        return known
    x, y = xy(square)
    return f"station {x},{y}"


SQUARES: tuple[int, ...] = tuple(sq(x, y) for x in range(1, 9) for y in range(1, 9))
NAMES: dict[int, str] = {s: f"{FILES[s // 10 - 1]}{s % 10}" for s in SQUARES}
LEVEL: dict[int, int] = {s: level_xy(*xy(s)) for s in SQUARES}
CORNERS: frozenset[int] = frozenset(s for s in SQUARES if xy(s)[0] == xy(s)[1] or xy(s)[0] + xy(s)[1] == 9)
NEIGHBOURS: dict[int, tuple[tuple[str, int], ...]] = {
    s: tuple((d, sq(xy(s)[0] + dx, xy(s)[1] + dy)) for d, (dx, dy) in DIRECTIONS.items()
             if on_board(xy(s)[0] + dx, xy(s)[1] + dy))
    for s in SQUARES
}
CCW: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
"""Counterclockwise seen from above: east along the bottom line, north, west, south."""


def _ccw_step(square: int) -> int:
    """The next square counterclockwise on the same Level."""
    x, y = xy(square)
    lev = LEVEL[square]
    low, high = lev, 9 - lev
    if y == low and x < high:
        return sq(x + 1, y)
    if x == high and y < high:
        return sq(x, y + 1)
    if y == high and x > low:
        return sq(x - 1, y)
    return sq(x, y - 1)


def _inward(square: int) -> int:
    """The orthogonal neighbour one Level up: where a wall climbs to."""
    x, y = xy(square)
    for dx, dy in CCW:
        if on_board(x + dx, y + dy) and LEVEL[sq(x + dx, y + dy)] == LEVEL[square] + 1:
            return sq(x + dx, y + dy)
    raise ValueError(f"{name(square)} has no square one Level up")


def build_path(layout: ColourLayout) -> tuple[int, ...]:
    """Station, then counterclockwise round each Level from where the colour enters it to its wall,
    one step inward (the climb), and so on up to the Goal."""
    sx, sy = layout.station
    facing = (max(-1, min(1, (sx == 0) - (sx == 9))), max(-1, min(1, (sy == 0) - (sy == 9))))
    here = sq(sx + facing[0], sy + facing[1])
    path = [sq(sx, sy)]
    walls = [parse_square(w) for w in layout.walls]
    for wall in walls:
        while True:
            path.append(here)
            if here == wall:
                break
            here = _ccw_step(here)
            if len(path) > 70:
                raise ValueError(f"{layout.name}: wall {name(wall or 0)} is not on its lap")
        here = _inward(here)
    if here != parse_square(layout.goal):
        raise ValueError(f"{layout.name}: the last climb reaches {name(here)}, not the goal {layout.goal}")
    path.append(here)
    return tuple(path)


def facing(colour: int) -> str:
    """The direction a Start Station faces: where its stack tips to."""
    sx, sy = LAYOUT[colour].station
    dx, dy = (sx == 0) - (sx == 9), (sy == 0) - (sy == 9)
    return next(d for d, v in DIRECTIONS.items() if v == (dx, dy))


PATHS: tuple[tuple[int, ...], ...] = tuple(build_path(c) for c in LAYOUT)
POSITION: tuple[dict[int, int], ...] = tuple({s: i for i, s in enumerate(p)} for p in PATHS)
STATIONS: tuple[int, ...] = tuple(sq(*c.station) for c in LAYOUT)
GOALS: tuple[int, ...] = tuple(parse_square(c.goal) or 0 for c in LAYOUT)
WALLS: tuple[frozenset[int], ...] = tuple(frozenset(parse_square(w) or 0 for w in c.walls) for c in LAYOUT)
STOPS: tuple[frozenset[int], ...] = tuple(CORNERS | WALLS[c] | {GOALS[c]} for c in range(len(LAYOUT)))
"""Where normal movement of each colour must stop."""
FORWARD: tuple[dict[int, str], ...] = tuple(
    {s: next(d for d, (dx, dy) in DIRECTIONS.items() if (xy(s)[0] + dx, xy(s)[1] + dy) == xy(p[i + 1]))
     for i, s in enumerate(p[:-1])}
    for p in PATHS
)
"""The direction of the next step on each colour's path, from every square (and the station)."""


def _tip_lines(origin: int) -> tuple[tuple[str, int], ...]:
    """(direction, square behind the origin or -1) for every direction a stack there may be tipped."""
    x, y = xy(origin)
    out = []
    for d, (dx, dy) in DIRECTIONS.items():
        if on_board(x + dx, y + dy) and LEVEL[sq(x + dx, y + dy)] > LEVEL[origin]:
            continue
        bx, by = x - dx, y - dy
        out.append((d, sq(bx, by) if 0 <= bx <= 9 and 0 <= by <= 9 else -1))
    return tuple(out)


TIP_LINES: dict[int, tuple[tuple[str, int], ...]] = {s: _tip_lines(s) for s in SQUARES}
"""Tips never go uphill: the first square in the direction is no higher than the origin (off board is 0)."""
