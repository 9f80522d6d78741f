"""The search's parts on their own: alpha-beta over the contract, and the one-ply move priors of the tree search.

Positions come from the ZÈRTZ tactics set (tests/ai/test_zrtz_tactics.py builds it from the records)
and from seeded Zaic games; the searches run at small fixed work so the tests stay fast.
"""

from __future__ import annotations

import random

from ai import alphabeta, mcts, oneply
from ai.evaluate import evaluate
from engines.zaic import Zaic
from engines.zarathustra import Zarathustra
from tests.ai.test_zrtz_tactics import child, forces_win, tactics, won

NARROW = 40
"""Alpha-beta is tried on the tactics positions with at most this many moves: its 20000 positions reach three
plies there (the wide ones are the exact root search's job, which hard runs first)."""


def test_alphabeta_takes_a_win_in_one_and_forces_a_win_in_two() -> None:
    one, two = ([p for p in found if len(p.legal_moves(p.turn)) <= NARROW] for found in tactics())
    assert len(one) >= 10 and two
    for position in one:
        seat = position.turn
        move = alphabeta.choose(position, seat, position.legal_moves(seat), 20000, random.Random(1))
        assert won(child(position, seat, move, [1]), seat)
    for position in two:
        seat = position.turn
        move = alphabeta.choose(position, seat, position.legal_moves(seat), 20000, random.Random(1))
        assert forces_win(child(position, seat, move, [1]), seat, [10**6])


def zaic_positions(count: int) -> list[Zaic]:
    rng = random.Random(4)
    found = []
    while len(found) < count:
        game = Zaic.new(2)
        for _ in range(rng.randrange(2, 16)):
            if game.outcome() is not None:
                break
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
        if game.outcome() is None:
            found.append(game)
    return found


def test_alphabeta_is_deterministic_legal_and_stops_by_the_clock() -> None:
    for game in zaic_positions(4):
        seat = game.turn
        moves = game.legal_moves(seat)
        first = alphabeta.choose(game, seat, moves, 150, random.Random(7))
        assert first in moves
        assert alphabeta.choose(game, seat, moves, 150, random.Random(7)) == first
        assert alphabeta.choose(game, seat, moves, 10**9, random.Random(7), deadline=0.0) in moves


def test_alphabeta_at_one_ply_is_the_best_evaluated_move() -> None:
    """With the budget for the root moves only, it plays the move whose position evaluates best."""
    for game in zaic_positions(4):
        seat = game.turn
        moves = game.legal_moves(seat)
        move = alphabeta.choose(game, seat, moves, len(moves), random.Random(3))
        values = {m: evaluate(child(game, seat, m, [1]))[seat] for m in moves}
        assert values[move] == max(values.values())


def test_priors_add_the_best_one_ply_move_first() -> None:
    """With priors, the root's first child is the move with the best one-ply value; without, any move."""
    for game in zaic_positions(4):
        seat = game.turn
        moves = game.legal_moves(seat)
        values = {m: evaluate(child(game, seat, m, [1]))[seat] for m in moves}
        root = mcts.search(game, seat, moves, 1, 2, 0.7, random.Random(5), None, prior_visits=0)
        (first,) = root.children
        assert values[first] == max(values.values())
        assert root.prior is not None and set(root.prior) == set(moves)
        plain = mcts.search(game, seat, moves, 1, 2, 0.7, random.Random(5), None)
        assert plain.prior is None


def test_the_one_ply_shortcut_values_every_move_as_making_it_does() -> None:
    """Zarathustra's priors and screen value a placement from its fights without making it: the same floats.

    Seeded random games at 2-4 players (skulls after a destroyed tile too), every position to the end, where
    the shortcut must give way (the move may finish the game, and then the outcome counts).
    """
    rng = random.Random(8)
    quick = made = 0
    for players, skulls in ((2, False), (2, True), (3, False), (4, True)):
        game = Zarathustra.new(players, {"skulls_if_destroyed": skulls})
        while game.outcome() is None:
            seat = game.turn
            moves = game.legal_moves(seat)
            for move in rng.sample(moves, min(12, len(moves))):
                assert oneply.value_after(game, seat, move) == evaluate(child(game, seat, move, [1]))
                shortcut = oneply.quick_value(game, seat, move) is not None
                quick += shortcut
                made += not shortcut
            game.play(seat, rng.choice(moves))
    assert quick > 10 * made > 0
