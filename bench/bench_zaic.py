"""Zaic timings: legal-move generation (what autocomplete waits on) and board rendering.

Run from the project root: ``.venv/bin/python -m bench.bench_zaic``. Prints p50/p95 in milliseconds over
positions taken from seeded random playouts with both options.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.zaic import Zaic
from render.zaic import render


def positions(games: int) -> list[Zaic]:
    """Every position of ``games`` seeded random playouts, finished ones included."""
    found = []
    for n in range(games):
        rng = random.Random(f"bench-zaic:{n}")
        game = Zaic.new(2, {"diagonal_touch": n % 4 == 3})
        found.append(game.clone())
        while game.outcome() is None:
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
            found.append(game.clone())
    return found


def timed(fn, items: list, repeat: int = 1) -> list[float]:
    out = []
    for item in items:
        for _ in range(repeat):
            start = time.perf_counter()
            fn(item)
            out.append((time.perf_counter() - start) * 1000)
    return out


def report(label: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p50 = statistics.median(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    print(f"{label:<44} n={len(samples):<6} p50={p50:7.3f} ms  p95={p95:7.3f} ms  max={samples[-1]:7.3f} ms")


def main() -> None:
    pool = positions(200)
    live = [g for g in pool if g.outcome() is None]
    report("generation from scratch (_placements)", timed(lambda g: g._placements(g.turn), live, 3))
    report("legal_moves() (cached, sorted texts)", timed(lambda g: g.legal_moves(g.turn), live, 3))
    report("play() incl. next position's moves", timed(lambda g: g.clone().play(g.turn, g.legal_moves(g.turn)[0]),
                                                       live))
    sample = random.Random(1).sample(pool, 200)
    report("render() PNG", timed(lambda g: render(g.observation(None)), sample))
    start = time.perf_counter()
    for n in range(100):
        rng = random.Random(n)
        game = Zaic.new(2)
        while game.outcome() is None:
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    print(f"random playout: {(time.perf_counter() - start) * 10:.2f} ms on average")


if __name__ == "__main__":
    main()
