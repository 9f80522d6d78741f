"""Duplicate games in the AI benchmark: the pair's two games roll the same dice for the same colour."""

from __future__ import annotations

import random

import engines
from bench.bench_ai import duplicate_roll, pair_report
from engines import CHANCE


def rolls_of(pair: int, moves_seed: int) -> dict[tuple[int, int, int, str], str]:
    """A random two-player Ziggurat game's rolls, keyed by colour, round, rolls so far this turn and kind."""
    game = engines.get("ziggurat").new(2, {})
    moves = random.Random(moves_seed)
    rolls: dict[tuple[int, int, int, str], str] = {}
    for _ in range(2000):
        movers = game.to_move()
        if not movers:
            break
        if CHANCE in movers:
            done = len(game.rolled.get("movement", [])) + len(game.rolled.get("action", []))
            key = (game.index, game.round, done, game.roll_kind)
            rolls[key] = duplicate_roll(pair, game)
            game.play(CHANCE, rolls[key])
        else:
            seat = min(movers)
            game.play(seat, moves.choice(game.legal_moves(seat)))
    return rolls


def test_a_colour_rolls_the_same_dice_in_both_games_of_a_pair_however_the_moves_went() -> None:
    first, second = rolls_of(0, moves_seed=1), rolls_of(0, moves_seed=2)
    shared = set(first) & set(second)
    assert len(shared) > 100
    assert all(first[k] == second[k] for k in shared)
    other = rolls_of(1, moves_seed=1)
    assert sum(first[k] != other[k] for k in set(first) & set(other)) > 50


def test_a_reroll_shows_one_die_and_every_face_comes_up() -> None:
    rolls = rolls_of(3, moves_seed=4)
    assert {len(text.split()) for text in rolls.values()} >= {3}
    assert all(len(text.split()) == 2 for key, text in rolls.items() if key[3] != "both")
    faces = {text.split()[1] for text in rolls.values() if len(text.split()) == 3}
    assert faces == {str(n) for n in range(1, 9)}


def test_pairs_are_scored_as_pairs() -> None:
    report = pair_report([1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.5, 1.0], 2)
    assert "4 pairs" in report and "pairs won 1, lost 1, split 2" in report
    assert "score 0.562" in report
