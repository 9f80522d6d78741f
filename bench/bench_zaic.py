"""Zaic timings: legal-move generation (what autocomplete waits on) and board rendering.

Run from the project root: ``.venv/bin/python -m bench.bench_zaic``. Prints p50/p95 in milliseconds over
positions taken from seeded random playouts with both options.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import report, timed
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


def playout(seed: int) -> None:
    rng = random.Random(seed)
    game = Zaic.new(2)
    while game.outcome() is None:
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))


def main() -> None:
    pool = positions(200)
    live = [g for g in pool if g.outcome() is None]
    report("generation from scratch (_placements)", timed(lambda g: g._placements(g.turn), live, 3))
    report("legal_moves() (cached, sorted texts)", timed(lambda g: g.legal_moves(g.turn), live, 3))
    report("play() incl. next position's moves", timed(lambda g: g.clone().play(g.turn, g.legal_moves(g.turn)[0]),
                                                       live))
    sample = random.Random(1).sample(pool, 200)
    report("render() PNG", timed(lambda g: render(g.observation(None)), sample))
    report("random playout", timed(playout, range(100)))


if __name__ == "__main__":
    main()
