"""The move builder's engine hook: every legal move decomposes into picks, and the picks lead back to it.

Checked for every registered game on seeded random positions (every player count and option value):
the picks of two moves differ, no move's picks are a prefix of another's (so a finished pick sequence is
exactly one move), each step's choices are told apart by their keys, and labels are short.
"""

from __future__ import annotations

import random

import pytest

import engines
from engines import CHANCE, Game, Pick
from tests.engines.toy import DiceNim
from tests.render.positions import setup, step

ALL_GAMES: dict[str, type[Game]] = {**engines.GAMES, DiceNim.name: DiceNim}
PLAYOUTS = 6
CHECKS_PER_PLAYOUT = 8
MAX_LABEL = 80


def check_picks(game: Game, seat: int) -> None:
    picks = game.move_picks(seat)
    moves = [move for move, _ in picks]
    assert moves == game.legal_moves(seat), "move_picks must list exactly the legal moves, in their order"
    keys: dict[tuple, str] = {}
    for move, sequence in picks:
        assert sequence, f"{move!r} has no picks"
        assert all(isinstance(p, Pick) for p in sequence)
        for pick in sequence:
            assert pick.label and len(pick.label) <= MAX_LABEL, f"label {pick.label!r} of {move!r}"
            assert pick.kind, f"a pick of {move!r} has no kind"
        key = tuple(p.key for p in sequence)
        assert key not in keys, f"{move!r} and {keys[key]!r} have the same picks"
        keys[key] = move
    for key, move in keys.items():
        for n in range(1, len(key)):
            assert key[:n] not in keys, f"the picks of {keys[key[:n]]!r} are a prefix of {move!r}'s"
    by_prefix: dict[tuple, dict[tuple, Pick]] = {}
    for _, sequence in picks:  # inside one step, one key is one choice: label, kind and target agree
        for n, pick in enumerate(sequence):
            step_choices = by_prefix.setdefault(tuple(p.key for p in sequence[:n]), {})
            assert step_choices.setdefault(pick.key, pick) == pick


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_every_legal_move_decomposes_into_distinct_picks(name: str) -> None:
    cls = ALL_GAMES[name]
    checked = 0
    for k in range(PLAYOUTS):
        rng = random.Random(f"picks:{name}:{k}")
        players, options = setup(cls, k, rng)
        game = cls.new(players, options)
        stops = sorted(rng.sample(range(0, 60), CHECKS_PER_PLAYOUT))
        for stop in stops:
            while len(game.history) < stop and game.outcome() is None:
                step(game, rng)
            if game.outcome() is not None:
                break
            for seat in game.to_move() - {CHANCE}:
                check_picks(game, seat)
                checked += 1
        for seat in range(game.num_players):
            if seat not in game.to_move():
                assert game.move_picks(seat) == []
    assert checked >= PLAYOUTS, "too few positions were checked"
