"""Zodiac Chess timings: legal-move generation (what autocomplete waits on) and board rendering.

Run from the project root: ``.venv/bin/python -m bench.bench_zodiac``. Prints p50/p95 in milliseconds over
positions of the play phase taken from seeded random playouts.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import report, timed
from engines.base import CHANCE
from engines.zodiac import Zodiac
from engines.zodiac.movegen import generate, generate_chain
from render.zodiac import render


def step(game: Zodiac, rng: random.Random) -> None:
    seat = rng.choice(sorted(game.to_move()))
    game.play(seat, rng.choice(game.legal_moves(seat)))


def positions(games: int) -> list[Zodiac]:
    """Every position of ``games`` seeded random playouts, finished ones included."""
    found = []
    for n in range(games):
        rng = random.Random(f"bench-zodiac:{n}")
        game = Zodiac.new(2)
        found.append(game.clone())
        while game.outcome() is None:
            step(game, rng)
            found.append(game.clone())
    return found


def playout(seed: int) -> None:
    rng = random.Random(seed)
    game = Zodiac.new(2)
    while game.outcome() is None:
        step(game, rng)


def scratch(game: Zodiac) -> None:
    st = game.st
    generate_chain(st) if st.chain is not None else generate(st, st.turn)


def fresh_legal(game: Zodiac) -> None:
    game._cache = None
    seat = next(iter(game.to_move()))
    game.legal_moves(seat)


def main() -> None:
    pool = positions(150)
    live = [g for g in pool if g.outcome() is None and g.phase == "play" and CHANCE not in g.to_move()]
    report("generation from scratch (movegen)", timed(scratch, live, 3))
    report("legal_moves() uncached (sorted texts)", timed(fresh_legal, live, 3))
    report("play() of the first legal move", timed(
        lambda g: g.clone().play(next(iter(g.to_move())), g.legal_moves(next(iter(g.to_move())))[0]), live))
    sample = random.Random(1).sample(pool, 200)
    report("render() PNG", timed(lambda g: render(g.observation(0)), sample))
    report("random playout", timed(playout, range(100)))


if __name__ == "__main__":
    main()
