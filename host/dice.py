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
