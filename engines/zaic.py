"""Zaic (Erik Dresner, 2010): two players lay 1x1, 2x1 and 2x2 tiles on a floating 8x8 area and stack them.

The area floats, so positions live on a fixed 15x15 grid (columns a-o, rows 1-15, row 1 at the bottom)
and the first tile always has its anchor on h8, the centre: every 8x8 box that holds that tile then lies
on the grid, so no game can run off it. Squares are bits of Python ints (bit ``row * 15 + col``), which
keeps move generation to a few integer operations per candidate placement. Rulings: docs/rules/zaic.md.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, Self

from engines.base import Game, IllegalMove, Option, Outcome, Pick
from engines.text import quote

N = 15
"""Side of the fixed grid: an 8x8 box around a first tile anchored on the centre always fits."""
LIMIT = 8
CENTRE = 7 * N + 7
COLUMNS = "abcdefghijklmno"
KINDS = ("1x1", "2x1", "2x2")
SUPPLY = {"2x2": 8, "2x1": 8, "1x1": 3}


class Shape(NamedTuple):
    kind: str
    orientation: str
    offsets: tuple[tuple[int, int], ...]
    """(row, column) steps from the anchor, which is the lowest, leftmost square."""
    rows: int
    cols: int


SHAPES: tuple[Shape, ...] = (
    Shape("1x1", "", ((0, 0),), 1, 1),
    Shape("2x1", "h", ((0, 0), (0, 1)), 1, 2),
    Shape("2x1", "v", ((0, 0), (1, 0)), 2, 1),
    Shape("2x2", "", ((0, 0), (0, 1), (1, 0), (1, 1)), 2, 2),
)


def square(index: int) -> str:
    """Board name of a grid index, e.g. 112 -> ``h8``."""
    return f"{COLUMNS[index % N]}{index // N + 1}"


def square_index(name: str) -> int | None:
    match = re.fullmatch(r"([a-o])([0-9]{1,2})", name)
    if not match or not 1 <= int(match.group(2)) <= N:
        return None
    return (int(match.group(2)) - 1) * N + COLUMNS.index(match.group(1))


def bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _cells(shape: Shape, anchor: int) -> tuple[int, ...] | None:
    row, col = divmod(anchor, N)
    if row + shape.rows > N or col + shape.cols > N:
        return None
    return tuple((row + dr) * N + col + dc for dr, dc in shape.offsets)


def _text(shape: Shape, anchor: int) -> str:
    return f"{shape.kind} {square(anchor)}" + (f" {shape.orientation}" if shape.orientation else "")


CELLS: tuple[tuple[tuple[int, ...] | None, ...], ...] = tuple(
    tuple(_cells(shape, a) for a in range(N * N)) for shape in SHAPES)
MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << i for i in cells) if cells else 0 for cells in per_shape) for per_shape in CELLS)
TEXTS: tuple[tuple[str, ...], ...] = tuple(tuple(_text(s, a) for a in range(N * N)) for s in SHAPES)
BY_TEXT: dict[str, tuple[int, int]] = {TEXTS[s][a]: (s, a) for s in range(len(SHAPES)) for a in range(N * N)
                                       if CELLS[s][a] is not None}


def _neighbours(index: int, steps: tuple[tuple[int, int], ...]) -> int:
    row, col = divmod(index, N)
    return sum(1 << ((row + dr) * N + col + dc) for dr, dc in steps if 0 <= row + dr < N and 0 <= col + dc < N)


EDGE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNER_STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
EDGE = tuple(_neighbours(i, EDGE_STEPS) for i in range(N * N))
AROUND = tuple(_neighbours(i, EDGE_STEPS + CORNER_STEPS) for i in range(N * N))


class Tile(NamedTuple):
    owner: int
    shape: int
    anchor: int
    cells: tuple[int, ...]
    level: int
    """1 for a tile on the table, 2 for one lying on level-1 tiles, and so on."""


def groups(top_owner: list[int], seat: int) -> list[list[int]]:
    """Orthogonally connected regions of visible squares of ``seat``, largest first (heights do not matter)."""
    seen = [False] * (N * N)
    found: list[list[int]] = []
    for start in range(N * N):
        if top_owner[start] != seat or seen[start]:
            continue
        seen[start] = True
        region, todo = [start], [start]
        while todo:
            for nxt in bits(EDGE[todo.pop()]):
                if not seen[nxt] and top_owner[nxt] == seat:
                    seen[nxt] = True
                    region.append(nxt)
                    todo.append(nxt)
        found.append(sorted(region))
    found.sort(key=lambda g: (-len(g), g))
    return found


def compare_groups(light: list[int], dark: list[int]) -> tuple[int, int]:
    """(winner or -1, 0-based rank of the deciding group): the largest group, then the 2nd largest, and so on.

    A colour that has run out of groups counts 0 there, so 5-3-1 beats 5-3.
    """
    for depth in range(max(len(light), len(dark))):
        a = light[depth] if depth < len(light) else 0
        b = dark[depth] if depth < len(dark) else 0
        if a != b:
            return (0 if a > b else 1), depth
    return -1, 0


ORDINALS = ("largest", "2nd largest", "3rd largest")


class Zaic(Game):
    name = "zaic"
    title = "Zaic"
    players = range(2, 3)
    options_spec = (
        Option("diagonal_touch", False, (False, True),
               "corner contact with your own colour also forbids a tile on the table (default: edges only)"),
    )
    help = (
        "**Zaic** — two players, Light (moves first) and Dark, each with eight 2x2, eight 2x1 and three 1x1 "
        "tiles. On your turn you must place one tile. The game ends when the player to move cannot place any "
        "tile; the biggest orthogonally connected area of your visible colour wins (heights do not break it); "
        "a tie goes to the second biggest area, and so on.\n"
        "**On the table:** the tile must share an edge with some tile, but must not touch your own colour "
        "(a stack counts as the colour of its top square). Everything must always fit inside an 8x8 square.\n"
        "**On top:** the tile lies flat (every square under it at the same height, no overhang), covers at "
        "least one of your opponent's squares, and never hides any tile completely. On top you may touch and "
        "cover your own colour.\n"
        "**Moves:** size, lower-left square, and for 2x1 the direction: `2x2 h8` covers h8 i8 h9 i9, "
        "`2x1 h8 h` covers h8 i8, `2x1 h8 v` covers h8 h9, `1x1 h8`. The first tile always goes on h8."
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        self.neighbourhood = AROUND if options["diagonal_touch"] else EDGE
        self.height = [0] * (N * N)
        self.top_tile = [-1] * (N * N)
        self.top_owner = [-1] * (N * N)
        self.tiles: list[Tile] = []
        self.visible: list[int] = []
        """Mask of the squares where each tile is still on top."""
        self.levels: list[int] = [0]
        """levels[h]: mask of the squares whose stack is exactly h tiles high (h >= 1)."""
        self.top_mask = [0, 0]
        self.occupied = 0
        self.bbox = (N, -1, N, -1)
        """Footprint rows and columns: (min row, max row, min col, max col)."""
        self.supply = [dict(SUPPLY), dict(SUPPLY)]
        self.turn = 0
        self.moves: list[tuple[int, int]] = self._placements(0)
        self.result: Outcome | None = None
        """Set once the player to move has no placement: ``_outcome`` is called often."""

    def clone(self) -> Self:
        """A copy of every mutable container; much faster than deepcopy for random playouts."""
        twin = self._shallow_copy()
        for attr in ("height", "top_tile", "top_owner", "tiles", "visible", "levels", "top_mask", "moves"):
            setattr(twin, attr, list(getattr(self, attr)))
        twin.supply = [dict(s) for s in self.supply]
        return twin

    # ----- rules ------------------------------------------------------------------------

    def _placements(self, seat: int) -> list[tuple[int, int]]:
        """Every legal (shape, anchor) for ``seat``: the heart of the rules, kept to bit operations."""
        supply = self.supply[seat]
        if not self.tiles:
            return [(s, CENTRE) for s, shape in enumerate(SHAPES) if supply[shape.kind]]
        occupied, height, levels = self.occupied, self.height, self.levels
        near_own = 0
        for i in bits(self.top_mask[seat]):
            near_own |= self.neighbourhood[i]
        touching = 0
        for i in bits(occupied):
            touching |= EDGE[i]
        blocked = near_own | occupied
        opponent = self.top_mask[1 - seat]
        banned = self._full_cover_placements()
        min_r, max_r, min_c, max_c = self.bbox
        found = []
        for s, shape in enumerate(SHAPES):
            if not supply[shape.kind]:
                continue
            masks = MASKS[s]
            cols = range(max_c - LIMIT + 1, min_c + LIMIT - shape.cols + 1)
            for row in range(max_r - LIMIT + 1, min_r + LIMIT - shape.rows + 1):
                for a in range(row * N + cols.start, row * N + cols.stop):
                    m = masks[a]
                    h = height[a]
                    if h == 0:
                        if not m & blocked and m & touching:
                            found.append((s, a))
                    elif m & levels[h] == m and m & opponent and (s, a) not in banned:
                        found.append((s, a))
        return found

    def _full_cover_placements(self) -> set[tuple[int, int]]:
        """Placements that would hide every visible square of some tile (never allowed)."""
        banned = set()
        for vis in self.visible:
            first = (vis & -vis).bit_length() - 1
            row, col = divmod(first, N)
            for s, shape in enumerate(SHAPES):
                for dr, dc in shape.offsets:
                    if row - dr >= 0 and col - dc >= 0:
                        a = first - dr * N - dc
                        if MASKS[s][a] & vis == vis:
                            banned.add((s, a))
        return banned

    def _why_not(self, seat: int, s: int, a: int) -> str:
        """The reason a placement is illegal, naming the squares, for the error message."""
        shape, cells = SHAPES[s], CELLS[s][a]
        where = "-".join(square(i) for i in cells) if cells else square(a)
        opp = self.seat_name(1 - seat)
        if not self.supply[seat][shape.kind]:
            return f"You have no {shape.kind} tiles left."
        if not self.tiles:
            return f"The first tile always goes on h8, the centre of the grid: try `{_text(shape, CENTRE)}`."
        if cells is None:
            return f"A {shape.kind} tile on {square(a)} would leave the 8x8 area."
        heights = [self.height[i] for i in cells]
        if len(set(heights)) > 1:
            detail = ", ".join(f"{square(i)} at height {self.height[i]}" for i in cells)
            return f"The tile would lean ({detail}): every square under it must be at the same height."
        if heights[0] == 0:
            rows = [i // N for i in cells] + [self.bbox[0], self.bbox[1]]
            cols = [i % N for i in cells] + [self.bbox[2], self.bbox[3]]
            wide, tall = max(cols) - min(cols) + 1, max(rows) - min(rows) + 1
            if wide > LIMIT or tall > LIMIT:
                return f"{where} would stretch the area to {wide}x{tall}; everything must fit inside 8x8."
            if not any(EDGE[i] & self.occupied for i in cells):
                return f"{where} must share an edge with a tile already placed."
            for i in cells:
                for j in bits(self.neighbourhood[i] & self.top_mask[seat]):
                    return f"{where} would touch your own colour at {square(j)} (only allowed on top of tiles)."
        else:
            mask = MASKS[s][a]
            if not mask & self.top_mask[1 - seat]:
                return f"A tile placed on top must cover at least one {opp} square; {where} covers none."
            for t, vis in enumerate(self.visible):
                if vis & mask == vis:
                    tile = self.tiles[t]
                    owner = "your" if tile.owner == seat else f"{opp}'s"
                    hidden = "-".join(square(i) for i in tile.cells)
                    return f"{where} would completely cover {owner} {SHAPES[tile.shape].kind} tile on {hidden}."
        return f"{_text(shape, a)} is not a legal placement here."

    def _parse(self, text: str) -> tuple[int, int]:
        """Accept the canonical text and variations: any case, spaces, order, ``2 x 1``, ``1x2``, ``vertical``."""
        norm = re.sub(r"(\d)\s*[x×*]\s*(\d)", r"\1x\2", text.strip().lower())
        kind = orientation = None
        anchor: int | None = None
        seen: set[str] = set()
        for token in norm.split():
            if token in ("1x1", "2x1", "1x2", "2x2"):
                part = "size"
                kind = "2x1" if token == "1x2" else token
            elif token in ("h", "v", "horizontal", "vertical"):
                part = "direction"
                orientation = token[0]
            elif (index := square_index(token)) is not None:
                part = "square"
                anchor = index
            else:
                raise IllegalMove(f"I don't understand {quote(token)}: write a move like `2x1 h8 v` or `2x2 g7`.")
            if part in seen:
                raise IllegalMove(f"One tile per move: {quote(text)} has more than one {part}. "
                                  "Write a move like `2x1 h8 v` or `2x2 g7`.")
            seen.add(part)
        if kind is None or anchor is None:
            raise IllegalMove("Write the tile size and its lower-left square, e.g. `2x2 g7`, `2x1 h8 v` or `1x1 e5`.")
        if kind == "2x1" and orientation is None:
            sq = square(anchor)
            raise IllegalMove(f"Say which way the 2x1 tile lies: `2x1 {sq} h` (to the right) "
                              f"or `2x1 {sq} v` (upwards).")
        if kind != "2x1" and orientation is not None:
            raise IllegalMove(f"A {kind} tile has no direction: write `{kind} {square(anchor)}`.")
        s = {"1x1": 0, "2x2": 3}.get(kind, 1 if orientation == "h" else 2)
        return s, anchor

    def _play(self, seat: int, text: str) -> str:
        s, a = self._parse(text)
        if (s, a) not in self.moves:
            raise IllegalMove(self._why_not(seat, s, a))
        self._place(seat, s, a)
        self.turn = 1 - seat
        self.moves = self._placements(self.turn)
        if not self.moves:
            self.result = self._score()
        return TEXTS[s][a]

    def _place(self, seat: int, s: int, a: int) -> None:
        cells = CELLS[s][a]
        assert cells is not None
        level = self.height[a] + 1
        t = len(self.tiles)
        self.tiles.append(Tile(seat, s, a, cells, level))
        self.visible.append(MASKS[s][a])
        if len(self.levels) <= level:
            self.levels.append(0)
        for i in cells:
            bit = 1 << i
            under = self.top_tile[i]
            if under >= 0:
                self.visible[under] &= ~bit
                self.top_mask[self.top_owner[i]] &= ~bit
            self.levels[level - 1] &= ~bit
            self.levels[level] |= bit
            self.height[i] = level
            self.top_tile[i] = t
            self.top_owner[i] = seat
            self.top_mask[seat] |= bit
        self.occupied |= MASKS[s][a]
        rows = [i // N for i in cells]
        cols = [i % N for i in cells]
        r0, r1, c0, c1 = self.bbox
        self.bbox = (min(r0, *rows), max(r1, *rows), min(c0, *cols), max(c1, *cols))
        self.supply[seat][SHAPES[s].kind] -= 1

    # ----- contract hooks ---------------------------------------------------------------

    def _to_move(self) -> frozenset[int]:
        return frozenset({self.turn}) if self.moves else frozenset()

    def _legal_moves(self, seat: int) -> list[str]:
        return [TEXTS[s][a] for s, a in self.moves]

    def _move_picks(self, seat: int) -> list[tuple[str, tuple[Pick, ...]]]:
        """Size, then anchor square, then (only where a 2x1 could lie both ways) direction.

        The square step names the anchor as the notation does (the lower-left square) and says which
        squares the tile will cover, so a player never has to know the anchor convention in advance;
        the direction step targets the square the tile reaches into, which is what one would click.
        """
        supply = self.supply[seat]
        both: dict[int, int] = {}
        for s, a in self.moves:
            if s in (1, 2):
                both[a] = both.get(a, 0) + 1
        found: list[tuple[str, tuple[Pick, ...]]] = []
        for s, a in self.moves:
            shape = SHAPES[s]
            cells = CELLS[s][a]
            assert cells is not None
            size = Pick("tile", f"{shape.kind} tile ({supply[shape.kind]} left)", f"supply:{shape.kind}")
            name, h = square(a), self.height[a]
            where = "on the table" if h == 0 else f"on level {h + 1}"
            if shape.kind == "1x1":
                what = ""
            elif shape.kind == "2x2":
                what = f" (lower left of {name}-{square(cells[-1])})"
            elif both[a] > 1:
                what = " (left or lower end)"
            else:
                what = f" ({'left' if shape.orientation == 'h' else 'lower'} end of {name}-{square(cells[-1])})"
            anchor = Pick("square", f"{name}{what}, {where}", name, f"Row {a // N + 1}")
            if shape.kind == "2x1" and both[a] > 1:
                other = square(cells[-1])
                way = "Right" if shape.orientation == "h" else "Up"
                turn = Pick("direction", f"{way}: {name}-{other} ({shape.orientation})", other)
                found.append((TEXTS[s][a], (size, anchor, turn)))
            else:
                found.append((TEXTS[s][a], (size, anchor)))
        return found

    def group_sizes(self) -> list[list[int]]:
        return [[len(g) for g in groups(self.top_owner, seat)] for seat in (0, 1)]

    def _outcome(self) -> Outcome | None:
        return self.result

    def _score(self) -> Outcome:
        """The final result: largest visible area, then the 2nd largest, and so on."""
        light, dark = self.group_sizes()
        scores = (float(light[0] if light else 0), float(dark[0] if dark else 0))
        stuck = f"{self.seat_name(self.turn)} cannot place a tile"
        winner, depth = compare_groups(light, dark)
        if winner < 0:
            return Outcome.draw(2, f"{stuck}; every area is the same size", scores)
        mine, theirs = (light, dark) if winner == 0 else (dark, light)
        a, b = mine[depth], (theirs[depth] if depth < len(theirs) else 0)
        which = ORDINALS[depth] if depth < len(ORDINALS) else f"{depth + 1}th largest"
        return Outcome.win(winner, 2, f"{stuck}; {self.seat_name(winner)} wins on the {which} area, {a} to {b}",
                           scores)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        stacks: dict[str, list[int]] = {}
        for tile in self.tiles:
            for i in tile.cells:
                stacks.setdefault(square(i), []).append(tile.owner)
        min_r, max_r, min_c, max_c = self.bbox
        group_lists = [groups(self.top_owner, s) for s in (0, 1)]
        return {
            "grid": N,
            "limit": LIMIT,
            "stacks": stacks,
            "top_tiles": {square(i): t for i, t in enumerate(self.top_tile) if t >= 0},
            "tiles": [{"owner": t.owner, "size": SHAPES[t.shape].kind, "level": t.level,
                       "squares": [square(i) for i in t.cells]} for t in self.tiles],
            "last_tile": len(self.tiles) - 1 if self.tiles else None,
            "last_move": TEXTS[self.tiles[-1].shape][self.tiles[-1].anchor] if self.tiles else None,
            "supply": [dict(s) for s in self.supply],
            "turn": self.turn if self.moves else None,
            # Rows and columns (0-based) an 8x8 box around everything placed may still reach.
            "frame": {"rows": [max(0, max_r - LIMIT + 1), min(N - 1, min_r + LIMIT - 1)],
                      "cols": [max(0, max_c - LIMIT + 1), min(N - 1, min_c + LIMIT - 1)]}
            if self.tiles else {"rows": [0, N - 1], "cols": [0, N - 1]},
            "groups": [[len(g) for g in gl] for gl in group_lists],
            "largest": [[square(i) for i in gl[0]] if gl else [] for gl in group_lists],
        }

    # ----- presentation -----------------------------------------------------------------

    def seat_name(self, seat: int) -> str:
        return ("Light", "Dark")[seat]

    def describe(self, seat: int, move: str) -> str:
        """E.g. ``2x2 j7 — j7 to k8, on level 2, covers 2 Light squares``."""
        try:
            s, a = self._parse(move)
        except IllegalMove:
            return move
        cells = CELLS[s][a] or (a,)
        join = "+" if len(cells) == 2 else " to "
        where = "" if len(cells) == 1 else f"{square(cells[0])}{join}{square(cells[-1])}, "
        h = self.height[a]
        if h == 0:
            return f"{move} — {where}on the table"
        covers = bin(MASKS[s][a] & self.top_mask[1 - seat]).count("1")
        plural = "s" if covers > 1 else ""
        return f"{move} — {where}on level {h + 1}, covers {covers} {self.seat_name(1 - seat)} square{plural}"

    def status(self) -> str:
        light, dark = self.group_sizes()

        def left(seat: int) -> str:
            return "/".join(str(self.supply[seat][k]) for k in ("2x2", "2x1", "1x1"))

        return (f"Largest area: Light {light[0] if light else 0}, Dark {dark[0] if dark else 0} · "
                f"tiles left (2x2/2x1/1x1): Light {left(0)}, Dark {left(1)}")
