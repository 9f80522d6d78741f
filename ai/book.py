"""Fixed knowledge before any search: the Zodiac side duel and the ZÈRTZ opening.

The duel is rock-paper-scissors with five signs (each beats two, loses to two): its only safe play is
a uniform pick, which the seeded generator makes. ZÈRTZ on 37 rings (standard marbles): published
analysis (brettspilldager.blogspot.com, 2016, "How to force a win in Zertz") shows that when the first
player removes an edge ring that is not a corner, the second player forces a win whatever marble was
placed where; so as first player the AI removes a corner ring. (The same article counts 13 safe
placement rings after a corner removal, but its diagrams did not survive, so that part is not used.)
"""

from __future__ import annotations

from engines import Game


def simultaneous_pick(game: Game, seat: int) -> bool:
    return game.name == "zodiac" and getattr(game, "phase", "") == "duel"


def zrtz_corners(game: Game) -> frozenset[str]:
    """Rings with only three neighbours on the full board: the six corners of the hexagon."""
    board = game.board  # type: ignore[attr-defined]
    return frozenset(name for name, around in zip(board.names, board.neighbours, strict=True)
                     if sum(n >= 0 for n in around) == 3)


def filter_opening(game: Game, seat: int, moves: list[str]) -> list[str]:
    """Drop known lost first moves (ZÈRTZ, 37 rings, standard marbles); never returns an empty list."""
    if game.name != "zrtz" or game.history or game.options.get("rings") != 37 or game.options.get("blitz"):
        return moves
    corners = zrtz_corners(game)
    kept = [m for m in moves if len(m.split()) == 2 and m.split()[1] in corners]
    return kept or moves
