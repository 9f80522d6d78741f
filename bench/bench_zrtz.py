"""ZÈRTZ timings: legal-move generation over record and random-playout positions, and board rendering.

Run from /work/main: ``.venv/bin/python -m bench.bench_zrtz``. Targets (issue 3): move generation p95
under 5 ms, render p50 under 40 ms.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from engines.zrtz import Zrtz
from engines.zrtz.boardspace import move_text, parse, read_text
from render.zrtz import render

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT.parent / "shared" / "zrtz-records", ROOT / "tests" / "data" / "zrtz-records")


def record_positions(limit: int = 3000) -> list[Zrtz]:
    """Every position of the boardspace records (the shared folder if present, else the test copies)."""
    folder = next((f for f in FOLDERS if any(f.glob("*.sgf"))), FOLDERS[-1])
    positions: list[Zrtz] = []
    for path in sorted(folder.glob("*.sgf")):
        record = parse(read_text(path))
        game = Zrtz.new(2, {"rings": record.rings})
        for turn in record.turns:
            if turn.resign or game.outcome() is not None:
                break
            positions.append(game.clone())
            game.play(turn.player, move_text(game, turn))
    return positions[:limit]


def playout_positions(count: int = 60, seed: int = 1) -> list[Zrtz]:
    rng = random.Random(seed)
    positions: list[Zrtz] = []
    for n in range(count):
        game = Zrtz.new(2, {"rings": (37, 48, 61)[n % 3]})
        while game.outcome() is None:
            positions.append(game.clone())
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    return positions


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100)
    return f"p50 {statistics.median(samples):.2f} ms  p95 {cuts[94]:.2f} ms  max {max(samples):.2f} ms"


def time_legal(positions: list[Zrtz]) -> list[float]:
    samples = []
    for game in positions:
        start = time.perf_counter()
        game.legal_moves(game.turn)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    records = record_positions()
    print(f"legal moves, {len(records)} record positions:   {percentiles(time_legal(records))}")
    playouts = playout_positions()
    print(f"legal moves, {len(playouts)} playout positions: {percentiles(time_legal(playouts))}")
    sample = records[:: max(1, len(records) // 60)]
    renders = []
    for game in sample:
        obs = game.observation(None)
        start = time.perf_counter()
        render(obs)
        renders.append((time.perf_counter() - start) * 1000)
    print(f"render, {len(renders)} positions:              {percentiles(renders)}")
    start = time.perf_counter()
    games = 50
    rng = random.Random(7)
    for _ in range(games):
        game = Zrtz.new(2)
        while game.outcome() is None:
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    print(f"random playout on 37 rings: {(time.perf_counter() - start) / games * 1000:.1f} ms per game")


if __name__ == "__main__":
    main()
