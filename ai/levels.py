"""How much each level searches: fixed work, so a search is deterministic for a seed.

Tests and benchmarks scale the work down by patching ``WORK`` (the functions read it at each call).
``iterations``: MCTS iterations; ``depth``: plies a rollout plays before the evaluation takes over
(per game below); ``solve``: plies of the exact win search at the root (0 none, 1 a win in one move,
3 a forced win in two moves for the two-player perfect-information games); ``solve_nodes``: the
positions that search may visit before it gives up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Work:
    iterations: int
    solve: int
    solve_nodes: int
    explore: float = 0.7


WORK: dict[str, Work] = {
    "easy": Work(iterations=24, solve=0, solve_nodes=0, explore=1.4),
    "medium": Work(iterations=160, solve=1, solve_nodes=600),
    "hard": Work(iterations=480, solve=3, solve_nodes=4000),
}

ROLLOUT_DEPTH: dict[str, int] = {"zarathustra": 8, "zaic": 8, "zrtz": 8, "zodiac": 10, "ziggurat": 30}
"""Rollout plies before the evaluation, per game (dice plies count too)."""

GAME_SCALE: dict[str, float] = {}
"""Per-game multiplier of the iterations, so every game meets the time targets (see docs/ai.md)."""


def work_for(level: str, game: str) -> Work:
    base = WORK[level]
    scale = GAME_SCALE.get(game, 1.0)
    return replace(base, iterations=max(1, round(base.iterations * scale)))
