"""The evaluation after one move, without making the move where a game allows it (Zarathustra).

Why: hard's one-ply priors and the screen value every move of a position, and Zarathustra opens with
1100-1600 placements: a clone, a checked play and an evaluation each (about 0.3 ms), which made hard's two
opening moves cost 3.0-3.5 s of CPU (issue 27: p95 <= 3 s). A Zarathustra placement changes the scores only by
the placed tile's blanks and the tiles its fights destroy (``Zarathustra.fights``, which leaves the board as it
was), so while the move cannot end the game the value is the same ``from_scores`` of the same numbers as
``evaluate`` after the move: the same floats, so the same moves for a seed. Everything else falls back to
making the move.
"""

from __future__ import annotations

from ai.evaluate import SCORERS, discounted, evaluate_exposed, from_scores, zarathustra_exposed
from engines import Game

OPEN_MARGIN = 11
"""Empty squares needed before a placement for an open square to be certain after it (one placed, up to
nine skulls: the eight around it and itself)."""


def made(game: Game, who: int, move: str) -> Game:
    twin = game.clone()
    twin.play(who, move)
    return twin


def value_after(game: Game, who: int, move: str, exposure: float = 0.0) -> list[float]:
    """``evaluate`` of the position after ``who`` plays ``move`` (legal), every seat's reward.

    ``exposure``: ``evaluate_exposed`` instead (exposed Zarathustra blanks discounted; hard in 3-4 players).
    """
    quick = quick_value(game, who, move, exposure)
    return quick if quick is not None else evaluate_exposed(made(game, who, move), exposure)


def quick_value(game: Game, who: int, move: str, exposure: float = 0.0) -> list[float] | None:
    """``value_after`` without making the move, or None where no shortcut applies (the game might end)."""
    if game.name == "zarathustra":
        placed = _zarathustra_placement(game, who, move)
        if placed is not None:
            scores = _zarathustra_scores_after(game, who, placed)
            if exposure:
                scores = discounted(scores, _zarathustra_exposed_after(game, who, placed), exposure)
            return from_scores(game, scores, SCORERS["zarathustra"][1])
    return None


Placement = tuple[int, str, list[int]]
"""A Zarathustra placement resolved once: its square, its edges and the squares whose tiles its fights kill."""


def _zarathustra_placement(game: Game, who: int, move: str) -> Placement | None:
    """The placement with its fights, or None when it might end the game (then the outcome counts)."""
    if game.eliminated or game.agreed_draw:
        return None
    cells = game.cells  # type: ignore[attr-defined]
    hands = game.hands  # type: ignore[attr-defined]
    if sum(len(h) for h in hands) < 2 or sum(c is None for c in cells) < OPEN_MARGIN:
        return None
    square = game.geo.names.index(move[:-5])  # type: ignore[attr-defined]  # canonical: "c3 oo.x"
    edges = move[-4:]
    return square, edges, game.fights(who, square, edges)  # type: ignore[attr-defined]


def _zarathustra_scores_after(game: Game, who: int, placed: Placement) -> list[float]:
    """The scores after the placement: its blanks gained, the killed tiles' blanks lost."""
    square, edges, dead = placed
    cells = game.cells  # type: ignore[attr-defined]
    scores = [float(x) for x in game.scores()]  # type: ignore[attr-defined]
    scores[who] += edges.count(".")
    for sq in dead:
        owner, lost = (who, edges) if sq == square else cells[sq]
        scores[owner] -= lost.count(".")
    return scores


def _zarathustra_exposed_after(game: Game, who: int, placed: Placement) -> list[int]:
    """``zarathustra_exposed`` after the placement: the board changed in place and put back (as ``fights`` does)."""
    square, edges, dead = placed
    cells = game.cells  # type: ignore[attr-defined]
    removed = [(sq, cells[sq]) for sq in dead if sq != square]
    try:  # put back whatever happens
        if square not in dead:
            cells[square] = (who, edges)
        for sq, _ in removed:
            cells[sq] = None
        return zarathustra_exposed(game)
    finally:
        cells[square] = None
        for sq, cell in removed:
            cells[sq] = cell
