"""Ziggurat: legal-move generation and rendering over positions from seeded random playouts.

Run: ``.venv/bin/python -m bench.bench_ziggurat``. Target: render p50 under 40 ms.
"""

from __future__ import annotations

import random

from bench.common import report, timed
from engines import CHANCE
from engines.ziggurat import Ziggurat
from render.ziggurat import render


def positions(count: int, seed: int = 1) -> list[Ziggurat]:
    """Positions where a player is to act, sampled along random playouts of every variant."""
    rng = random.Random(seed)
    found: list[Ziggurat] = []
    variants = [(4, {}), (2, {"mode": "double"}), (4, {"mode": "partners", "queen": True}), (3, {})]
    while len(found) < count:
        players, options = variants[len(found) % len(variants)]
        game = Ziggurat.new(players, options)
        while game.outcome() is None and len(found) < count:
            seat = min(game.to_move())
            if seat == CHANCE:
                texts, weights = zip(*game.chance_outcomes(), strict=True)
                game.play(CHANCE, rng.choices(texts, weights)[0])
                continue
            if rng.random() < 0.05:
                found.append(game.clone())
            game.play(seat, rng.choice(game.legal_moves(seat)))
    return found


def main() -> None:
    sample = positions(400)
    for game in sample:
        game._cache = None
    report("legal moves (uncached)", timed(lambda g: g.legal_moves(min(g.to_move())), sample))
    report("render", timed(render, [game.observation(None) for game in sample[::4]]))


if __name__ == "__main__":
    main()
