"""Game-playing search over the engine contract (provisional entry point; the search replaces it)."""

from __future__ import annotations

import random

from engines import Game

LEVELS = ("easy", "medium", "hard")


def choose(game: Game, seat: int, level: str, *, seed: int, budget_s: float | None = None) -> str:
    """One of ``game.legal_moves(seat)``, deterministic for the same state, level and seed."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError("the seat has no legal move")
    return random.Random(f"{seed}:{len(game.history)}").choice(moves)


def accepts_draw(game: Game, seat: int, level: str, *, seed: int) -> bool:
    """Whether the AI accepts a draw offer: only when its own evaluation says it is not better."""
    return False
