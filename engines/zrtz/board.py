"""ZÈRTZ board geometry in boardspace coordinates, shared by the engine, the record replayer and the renderer.

Boardspace names a ring by its column letter and its number counted from the column's bottom ring.
Internally a ring is an index into the board's cell list; positions use "doubled height" coordinates
``(column, y)`` where a column's rings are 2 apart and neighbouring columns are offset by 1, which makes
the six hex directions simple vectors. The shapes are boardspace's ``GameConstants`` arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

# Per ring count: (first doubled-y of each column, number of rings in each column).
SHAPES: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    37: ((3, 2, 1, 0, 1, 2, 3), (4, 5, 6, 7, 6, 5, 4)),
    48: ((3, 2, 1, 0, 1, 2, 3, 4), (5, 6, 7, 8, 7, 6, 5, 4)),
    61: ((4, 3, 2, 1, 0, 1, 2, 3, 4), (5, 6, 7, 8, 9, 8, 7, 6, 5)),
}
SUBVARIANTS = {"zertz": 37, "zertz+11": 48, "zertz+24": 61}
"""Boardspace ``SU[...]`` names of the boards."""

# The six directions in cyclic order (up, up-right, down-right, down, down-left, up-left): a ring is
# free when two consecutive entries of this cycle lead off the board.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1))


@dataclass(frozen=True)
class Board:
    """The fixed layout of one board size: names, positions, neighbours and jump lines of every ring."""

    rings: int
    names: tuple[str, ...]
    positions: tuple[tuple[int, int], ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    """``neighbours[cell][d]`` is the ring in direction ``d`` or -1 when off the board."""
    columns: str
    heights: tuple[int, ...]
    first: tuple[int, ...]

    def cell(self, text: str) -> int:
        """Index of a ring named like ``d4`` (any case); -1 when there is no such ring."""
        return self.index.get(text.strip().lower(), -1)


@cache
def board(rings: int) -> Board:
    """The layout for 37, 48 or 61 rings, built once."""
    first, heights = SHAPES[rings]
    columns = "abcdefghi"[: len(heights)]
    names: list[str] = []
    positions: list[tuple[int, int]] = []
    for col, (start, height) in enumerate(zip(first, heights, strict=True)):
        for row in range(height):
            names.append(f"{columns[col]}{row + 1}")
            positions.append((col, start + 2 * row))
    where = {pos: i for i, pos in enumerate(positions)}
    neighbours = tuple(
        tuple(where.get((c + dc, y + dy), -1) for dc, dy in DIRECTIONS) for c, y in positions
    )
    return Board(rings, tuple(names), tuple(positions), {n: i for i, n in enumerate(names)},
                 neighbours, columns, heights, first)
