"""ZÈRTZ on 37 rings: no level ever opens, as first player, with a known lost first move (docs/ai.md).

The source (brettspilldager.blogspot.com, 2016, "How to force a win in Zertz"; also on
boardgamestrategy.blogspot.com, 2010): if the first player removes an edge ring that is not a corner,
the second player forces a win whatever marble was placed where. On the empty board only edge rings are
free, so a first move is safe only if it removes a corner. The rings are written out here in
boardspace coordinates (columns a-g of 4, 5, 6, 7, 6, 5, 4 rings), not taken from ai/book.py.
"""

from __future__ import annotations

import pytest

import ai
from engines.zrtz import Zrtz

CORNERS = {"a1", "a4", "d1", "d7", "g1", "g4"}
LOST_REMOVALS = {"a2", "a3", "b1", "b5", "c1", "c6", "e1", "e6", "f1", "f5", "g2", "g3"}
"""The non-corner edge rings: removing one of them first loses (the source above)."""


def test_the_written_rings_are_the_boards_edge() -> None:
    """Guards the lists: every ring removable in the first move is one of them, and each kind is what it says."""
    game = Zrtz.new(2, {"rings": 37})
    removable = {move.split()[1] for move in game.legal_moves(0)}
    assert removable == CORNERS | LOST_REMOVALS
    board = game.board
    for name in removable:
        around = sum(n >= 0 for n in board.neighbours[board.index[name]])
        assert around == (3 if name in CORNERS else 4)


@pytest.mark.parametrize("level", ai.LEVELS)
def test_no_level_opens_with_a_lost_removal(level: str) -> None:
    """The real work of every level, several seeds; easy in ZÈRTZ also plays random moves (its noise)."""
    game = Zrtz.new(2, {"rings": 37})
    for seed in range({"easy": 12, "medium": 3, "hard": 2}[level]):
        move = ai.choose(game, 0, level, seed=seed)
        assert move in game.legal_moves(0)
        removed = move.split()[1]
        assert removed in CORNERS and removed not in LOST_REMOVALS, f"{level} seed {seed}: {move}"
