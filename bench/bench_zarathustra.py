"""Zarathustra timings: legal-move generation and board rendering over positions from random playouts.

Run from the repository root: ``.venv/bin/python -m bench.bench_zarathustra`` (or as a script).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import report, timed
from engines.zarathustra import Zarathustra
from render.zarathustra import render


def positions(count: int, seed: int = 0) -> list[Zarathustra]:
    """Positions sampled along random playouts for 2, 3 and 4 players."""
    rng = random.Random(seed)
    out: list[Zarathustra] = []
    while len(out) < count:
        game = Zarathustra.new(rng.choice((2, 3, 4)))
        while game.outcome() is None and len(out) < count:
            if rng.random() < 0.3:
                out.append(game.clone())
            (seat,) = game.to_move()
            game.play(seat, rng.choice(game.legal_moves(seat)))
        if game.outcome() is not None and len(out) < count:
            out.append(game)
    return out


def playout(rng: random.Random) -> None:
    game = Zarathustra.new(rng.choice((2, 3, 4)))
    while game.outcome() is None:
        (seat,) = game.to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))


def main() -> None:
    games = positions(300)
    report("legal moves", timed(lambda g: g.legal_moves(next(iter(g.to_move()), 0)), games))
    report("describe all legal moves", timed(lambda g: [g.describe(s, m) for s in g.to_move()
                                                         for m in g.legal_moves(s)], games[:60]))
    observations = [g.observation(None) for g in games[:120]]
    render(observations[0])  # the first call builds the tile images for every later one
    report("render", timed(render, observations))
    rng = random.Random(1)
    report("random playout", timed(playout, [rng] * 50))


if __name__ == "__main__":
    main()
