"""The longest records the bot accepts, for load tests and benches: a 4-player Ziggurat of 100 rounds
played at random (dice from a fixed seed), exported as our JSON record."""

from __future__ import annotations

import random

import engines
from engines import CHANCE
from host.play import dice
from host.records.formats import GameRecord, Ply, to_json

SEED = "5eed" * 16


def long_record(seed: int = 1, players: int = 4, rounds: int = 100) -> bytes:
    """Our JSON record of a random Ziggurat game to its round limit (a few thousand plies)."""
    game = engines.get("ziggurat").new(players, {"round_limit": rounds})
    rng = random.Random(seed)
    while game.outcome() is None:
        dice.roll_pending(game, SEED)
        if game.outcome() is not None:
            break
        seat = sorted(s for s in game.to_move() if s != CHANCE)[0]
        game.play(seat, rng.choice(game.legal_moves(seat)))
    record = GameRecord(game="ziggurat", players=players, options=dict(game.options),
                        names=[f"player {s + 1}" for s in range(players)],
                        history=[Ply(seat, text) for seat, text in game.history], seed=SEED,
                        commitment=dice.commitment(SEED), outcome=game.outcome().to_dict())  # type: ignore[union-attr]
    return to_json(record).encode()


if __name__ == "__main__":
    import time

    from host.records.formats import read

    started = time.perf_counter()
    data = long_record()
    made = time.perf_counter() - started
    cpu = time.process_time()
    record = read(data, "ziggurat")
    print(f"{len(data)} bytes, {len(record.history)} plies; made in {made:.2f} s, read in "
          f"{time.process_time() - cpu:.2f} s of CPU")
