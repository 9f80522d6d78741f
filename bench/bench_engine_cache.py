"""Memory of the bounded engine cache (issue 13: 1.4 GB after touching 50,000 games with an unbounded one).

Run: ``.venv/bin/python -m bench.bench_engine_cache``. Plays one game of each kind to about 114 plies (the
issue's 5.7 million moves over 50,000 games; random games often end sooner), fills the cache with copies
of them (``clone``: the same objects a replay builds) for twice ``ENGINE_CACHE`` games, and reports the
memory the cache holds (tracemalloc) and the process's peak RSS. The default of 2,000 keeps the cache far
below the issue's 200 MB budget, however many games are touched.
"""

from __future__ import annotations

import random
import resource
import time
import tracemalloc

import engines
from engines import CHANCE, Game
from host.engine_cache import ENGINE_CACHE, EngineCache

PLIES = 114
TOUCHED = 2 * ENGINE_CACHE


def played(name: str, seed: int) -> tuple[type[Game], list[tuple[int, str]]]:
    """A plausible history: random legal moves (and chance outcomes) until ``PLIES`` or the end."""
    cls = engines.GAMES[name]
    rng = random.Random(seed)
    game = cls.new(2, {})
    while len(game.history) < PLIES and game.outcome() is None:
        movers = sorted(game.to_move())
        seat = CHANCE if CHANCE in movers else rng.choice(movers)
        moves = game.legal_moves(seat)
        game.play(seat, rng.choice(moves))
    return cls, list(game.history)


def main() -> None:
    histories = [played(name, i) for i, name in enumerate(sorted(engines.GAMES))]
    for cls, history in histories:
        print(f"{cls.name:12s} {len(history):4d} plies")
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    start = time.perf_counter()
    cache = EngineCache()
    games = []
    for cls, history in histories:
        game = cls.new(2, {})
        for seat, text in history:
            game.apply_record(seat, text)
        games.append(game)
    for game_id in range(TOUCHED):  # touch more games than it holds: the oldest are dropped
        cache[game_id] = (1, games[game_id % len(games)].clone())
    seconds = time.perf_counter() - start
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"engine cache: {len(cache)} of {TOUCHED} touched games held, {held / 2**20:.1f} MB"
          f" ({held / len(cache) / 1024:.1f} kB per game), peak RSS {rss:.0f} MB; filled in {seconds:.1f} s")


if __name__ == "__main__":
    main()
