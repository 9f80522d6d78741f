"""What runs inside the AI process pool: plain functions over a game's dict, so they pickle cheaply.

They rebuild the game by replaying its history (the engine contract guarantees the same state) and
call the ``ai`` package. Nothing here touches the database or Discord.
"""

from __future__ import annotations

import time
from typing import Any

import ai
import engines
from ai import clock
from ai import review as reviewing


def _game(state: dict[str, Any]) -> engines.Game:
    return engines.get(state["game"]).from_dict(state)


def choose(state: dict[str, Any], seat: int, level: str, seed: int, delay: float = 0.0,
           budget_s: float | None = None) -> str:
    """The AI's move for ``seat``; ``delay`` (a test knob, ``AI_THINK_DELAY``) makes it think longer.

    ``budget_s``: the host's cap on this turn in wall seconds (the search reads the wall clock here, so a
    loaded machine costs strength, never a player's wait); None plays the level's fixed work alone."""
    if delay > 0:
        time.sleep(delay)
    if budget_s is None:
        return ai.choose(_game(state), seat, level, seed=seed)
    previous = clock.use(time.perf_counter)
    try:
        return ai.choose(_game(state), seat, level, seed=seed, budget_s=budget_s)
    finally:
        clock.use(previous)


def accepts_draw(state: dict[str, Any], seat: int, level: str, seed: int, delay: float = 0.0) -> bool:
    if delay > 0:
        time.sleep(delay)
    return ai.accepts_draw(_game(state), seat, level, seed=seed)


def judge(state: dict[str, Any], seat: int, played: str, seed: int, level: str = "hard") -> dict[str, Any] | None:
    """One ply of a review (``ai.review.judge``) in the position ``state``: a review asks one ply per pool call,
    so the AI turns queued meanwhile run between its plies instead of after the whole game."""
    judged = reviewing.judge(_game(state), seat, played, seed=seed, level=level)
    return None if judged is None else judged.to_dict()


def warm_up() -> bool:
    """Import the engines and the AI in a fresh worker before the first real search needs them."""
    return bool(engines.GAMES) and callable(ai.choose)
