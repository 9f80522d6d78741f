"""Ziggurat: legal-move generation and rendering over positions from seeded random playouts.

Run: ``.venv/bin/python -m bench.bench_ziggurat``. Target: render p50 under 40 ms.
"""

from __future__ import annotations

import random
import statistics
import time

from engines import CHANCE
from engines.ziggurat import Ziggurat
from render.ziggurat import render


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"p50 {statistics.median(ordered):.2f} ms, p95 {p95:.2f} ms (n={len(ordered)})"


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
    legal_ms: list[float] = []
    for game in sample:
        game._cache = None
        start = time.perf_counter()
        game.legal_moves(min(game.to_move()))
        legal_ms.append((time.perf_counter() - start) * 1000)
    render_ms: list[float] = []
    for game in sample[::4]:
        obs = game.observation(None)
        start = time.perf_counter()
        render(obs)
        render_ms.append((time.perf_counter() - start) * 1000)
    print(f"legal moves (uncached): {percentiles(legal_ms)}")
    print(f"render: {percentiles(render_ms)}")


if __name__ == "__main__":
    main()
