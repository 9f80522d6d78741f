"""Fair dice: every random draw of a game comes from its secret seed, committed to by a SHA-256."""

from __future__ import annotations

import hashlib
import random
import secrets

from engines import CHANCE, Game


def new_seed() -> str:
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """Shown when the game starts; the seed itself is shown when it ends, so anyone can check."""
    return hashlib.sha256(seed.encode()).hexdigest()


def rng_for(seed: str, purpose: str) -> random.Random:
    """A generator that depends only on the seed and what it is for, never on process state."""
    return random.Random(f"{seed}:{purpose}")


def roll_pending(game: Game, seed: str) -> list[str]:
    """Play every chance step due now; the draw for ply N is the same on every machine and restart."""
    rolled: list[str] = []
    while CHANCE in game.to_move():
        texts, weights = zip(*game.chance_outcomes(), strict=True)
        choice = rng_for(seed, f"ply{len(game.history)}").choices(texts, weights)[0]
        rolled.append(game.play(CHANCE, choice))
    return rolled


def verify(game: Game, history: list[tuple[int, str]], seed: str, first: int = 0) -> list[str]:
    """Replay ``history`` on the fresh ``game`` and draw every die from ``seed`` again, as
    ``roll_pending`` did; returns what does not match (empty: every die checks out).
    Plies before ``first`` are not checked (a game played on from another game's position)."""
    wrong: list[str] = []
    for ply, (seat, text) in enumerate(history):
        if seat == CHANCE and ply >= first:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            drawn = rng_for(seed, f"ply{ply}").choices(texts, weights)[0]
            if drawn != text:
                wrong.append(f"ply {ply + 1}: the seed rolls {drawn!r}, the record says {text!r}")
        game.apply_record(seat, text)
    return wrong


def main(argv: list[str] | None = None) -> int:
    """``python -m host.play.dice verify record.json``: check a finished game's dice against its revealed seed."""
    import sys
    from pathlib import Path

    from host.records.formats import read
    from host.results import HostError

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "verify":
        print("usage: python -m host.play.dice verify record.json", file=sys.stderr)
        return 2
    data = Path(args[1]).read_bytes()
    try:
        import json

        game = json.loads(data.decode("utf-8-sig")).get("game", "")
        record = read(data, str(game))
    except (HostError, ValueError, AttributeError) as error:
        print(f"FAILED: {error}")
        return 1
    if record.seed is None:
        print("No seed in this record (the game was still in progress when exported): nothing to check.")
        return 1
    first = (record.origin or {}).get("plies", 0)
    rolls = sum(1 for i, p in enumerate(record.history) if p.seat == CHANCE and i >= first)
    print(f"OK: the seed matches its SHA-256 {commitment(record.seed)} and all {rolls} dice match the seed.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
