"""ZÈRTZ timings: legal-move generation over record and random-playout positions, and board rendering.

Run from /work/main: ``.venv/bin/python -m bench.bench_zrtz``. Targets (issue 3): move generation p95
under 5 ms, render p50 under 40 ms.
"""

from __future__ import annotations

import random
from pathlib import Path

from bench.common import report, timed
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


def playout(rng: random.Random) -> None:
    game = Zrtz.new(2)
    while game.outcome() is None:
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))


def legal(game: Zrtz) -> None:
    game.legal_moves(game.turn)


def main() -> None:
    records = record_positions()
    report("legal moves, record positions", timed(legal, records))
    report("legal moves, playout positions", timed(legal, playout_positions()))
    sample = records[:: max(1, len(records) // 60)]
    report("render", timed(render, [game.observation(None) for game in sample]))
    rng = random.Random(7)
    report("random playout on 37 rings", timed(playout, [rng] * 50))


if __name__ == "__main__":
    main()
