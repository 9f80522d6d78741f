"""Game review (what lichess calls analysis): the hard level judges every move of a finished game.

For each move a player chose among several, the hard level picks its own move in that position, and one
estimator values both positions, the one after the played move and the one after the better move, for the
mover. The drop between them is the move's cost in expected score (0 = lost, 1 = won; with 3-4 players a
seat's share of the pairwise results). Every search sees only what the mover knew then: ``ai.choose`` and
``mcts.search`` work on ``Game.determinize(mover)`` copies, so a Zodiac review never uses the other side's
secret king, and dice not yet rolled are sampled, never read from the record.

Thresholds (``VERDICTS``) follow lichess's winning-chance drops: 0.10 an inaccuracy, 0.20 a mistake, 0.30 a
blunder. Values carry search noise of a few hundredths, so smaller drops are not marked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import ai
from ai import book, levels, mcts
from engines import CHANCE, Game

VERDICTS: tuple[tuple[float, str], ...] = ((0.30, "blunder"), (0.20, "mistake"), (0.10, "inaccuracy"))
"""Smallest drop in expected score for each mark, largest first."""

META = frozenset({"resign", "timeout", "draw"})
"""History entries that are no move on the board: never judged."""


@dataclass(frozen=True)
class Judged:
    """One judged move: ``value`` is the mover's expected score after it, ``best_value`` after ``best``."""

    ply: int
    seat: int
    played: str
    best: str
    value: float
    best_value: float
    verdict: str

    @property
    def drop(self) -> float:
        return max(0.0, self.best_value - self.value)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Judged:
        return cls(**{k: data[k] for k in ("ply", "seat", "played", "best", "value", "best_value", "verdict")})


def verdict(drop: float) -> str:
    """The mark for a drop in expected score ("" below an inaccuracy)."""
    return next((name for limit, name in VERDICTS if drop >= limit), "")


def value(before: Game, seat: int, move: str, *, tree: levels.Tree, rng: random.Random) -> float:
    """``seat``'s expected score after playing ``move`` in ``before``, by the hard level's tree search.

    The search starts in ``before`` with ``move`` as the only root move, so every world it plays the move in is
    drawn from ``seat``'s information set there: a capture that happens to take a hidden king is worth only what
    the mover could expect, not the win the record shows.
    """
    root = mcts.search_with(before, seat, [move], tree, rng)  # as the level judges a position when it plays
    return mcts.root_value(root)


def judge(before: Game, seat: int, played: str, *, seed: int, level: str = "hard") -> Judged | None:
    """The played move against the level's own choice in ``before``; None when there was nothing to choose
    (one legal move, or a simultaneous duel pick, where no choice is better than another)."""
    moves = before.legal_moves(seat)
    if len(moves) < 2 or book.simultaneous_pick(before, seat) or played not in moves:
        return None
    ply = len(before.history)
    best = ai.choose(before, seat, level, seed=seed)
    tree = levels.tree(level, before.name, before.num_players)

    def after(move: str) -> float:
        return value(before, seat, move, tree=tree, rng=random.Random(f"review:{seed}:{ply}:{move}"))

    played_value = after(played)
    best_value = played_value if best == played else after(best)
    if best_value < played_value:  # the estimator prefers the played move: no mark, and it stands as best
        best, best_value = played, played_value
    return Judged(ply, seat, played, best, round(played_value, 4), round(best_value, 4),
                  verdict(best_value - played_value))


def choices(history: Sequence[tuple[int, str]], start: int = 0) -> list[tuple[int, int, str]]:
    """(ply, seat, move) of every choice a player made from ply ``start`` on: the plies a review judges. Dice and
    meta entries are replayed, never judged; so are the plies before ``start`` (a game played on from another's
    position judges its own moves)."""
    return [(ply, seat, text) for ply, (seat, text) in enumerate(history)
            if ply >= start and seat != CHANCE and text not in META]


def review(new_game: Callable[[], Game], history: Sequence[tuple[int, str]], *, seed: int, level: str = "hard",
           start: int = 0) -> list[Judged]:
    """Every choice in ``history`` from ply ``start`` on (``choices``) judged in order, in one call (the host
    judges one ply per pool call instead, so AI turns run between them); ``new_game`` makes the starting
    position."""
    wanted = {ply for ply, _, _ in choices(history, start)}
    game = new_game()
    judged: list[Judged] = []
    for index, (seat, text) in enumerate(history):
        if index in wanted and game.outcome() is None:
            found = judge(game, seat, text, seed=seed, level=level)
            if found is not None:
                judged.append(found)
        game.apply_record(seat, text)
    return judged
