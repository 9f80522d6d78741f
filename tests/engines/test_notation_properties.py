"""Properties of every game's notation, checked by hypothesis over random positions.

Canonical texts round-trip (what ``play`` returns is the legal move given, whatever its case and
spacing), and autocomplete narrowing always leads to legal moves.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines import CHANCE, Game
from host.play.choices import MAX_CHOICES, narrow

GAMES = sorted(engines.GAMES)


def position(name: str, seed: int, plies: int) -> Game:
    """A reachable position: ``plies`` random steps from a new game, dice drawn by probability."""
    rng = random.Random(seed)
    cls = engines.get(name)
    game = cls.new(rng.choice(list(cls.players)))
    for _ in range(plies):
        if game.outcome() is not None:
            break
        seat = rng.choice(sorted(game.to_move()))
        if seat == CHANCE:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
        else:
            game.play(seat, rng.choice(game.legal_moves(seat)))
    return game


def movers(game: Game) -> list[int]:
    return [s for s in game.to_move() if s != CHANCE]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), plies=st.integers(0, 40), pick=st.randoms())
def test_canonical_moves_round_trip_in_any_case_and_spacing(name: str, seed: int, plies: int,
                                                             pick: random.Random) -> None:
    game = position(name, seed, plies)
    for seat in movers(game):
        move = pick.choice(game.legal_moves(seat))
        sloppy = "  " + "  ".join(move.upper().split()) + " "
        assert game.clone().play(seat, sloppy) == move
        assert game.clone().play(seat, move) == move


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), plies=st.integers(0, 30), pick=st.randoms())
def test_following_autocomplete_always_reaches_legal_moves(name: str, seed: int, plies: int,
                                                           pick: random.Random) -> None:
    game = position(name, seed, plies)
    for seat in movers(game):
        legal = game.legal_moves(seat)
        typed = ""
        for _ in range(12):
            choices = narrow(legal, typed, str)
            assert 0 < len(choices) <= MAX_CHOICES
            values = [value for _, value in choices]
            assert all(v in legal or any(m.startswith(v) for m in legal) for v in values)
            typed = pick.choice(values)
            if typed in legal and not any(m != typed and m.startswith(typed) for m in legal):
                break
        assert typed in legal, f"narrowing from nothing never reached a move of {name}"
