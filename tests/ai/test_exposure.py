"""``levels.LEVEL_EXPOSURE``: hard in 3- and 4-player Zarathustra discounts blanks that face an empty square.

Why it exists: every tile is played, so a Zarathustra game is decided by the blanks lost, and a tile that turns a
blank to an empty square is destroyed by the next sword placed there (most of them were, in replayed 4-player games);
hard's one-ply priors and random rollouts did not see it and opened with a 3-blank tile in the open (docs/ai.md,
"Session 12: Zarathustra 3-4 players").
"""

from __future__ import annotations

import random

import ai
from ai import levels, mcts
from ai.evaluate import evaluate_exposed, zarathustra_exposed
from ai.oneply import made, value_after
from engines.zarathustra import Zarathustra


def test_exposed_counts_the_blanks_of_tiles_with_a_blank_facing_an_empty_square() -> None:
    game = Zarathustra.new(4)
    game.play(0, "a1 xx..")  # blanks down and left: off the board
    game.play(1, "d4 x...")  # three blanks into the open
    game.play(2, "a2 ooo.")  # its blank faces off the board; it closes a1's upper side
    game.play(3, "d2 .oxo")  # its blank faces d3, empty
    assert game.scores() == [2, 3, 1, 1]
    assert zarathustra_exposed(game) == [0, 3, 0, 1]
    game.play(0, "g7 ..ox")  # a corner, blanks off the board
    game.play(1, "d3 o.oo")  # fills d3: d2's blank and d4's lower blank face a tile now; its own blank faces e3
    assert zarathustra_exposed(game) == [0, 4, 0, 0]


def test_the_shortcut_values_every_move_as_making_it_does() -> None:
    """``value_after`` with an exposure (the board changed in place and put back) equals evaluating the made move."""
    rng = random.Random(5)
    game = Zarathustra.new(4)
    checked = 0
    while game.outcome() is None:
        seat = game.turn
        moves = game.legal_moves(seat)
        cells = list(game.cells)
        for move in rng.sample(moves, min(12, len(moves))):
            assert value_after(game, seat, move, 0.5) == evaluate_exposed(made(game, seat, move), 0.5)
            checked += 1
        assert game.cells == cells
        game.play(seat, rng.choice(moves))
    assert checked > 500


def test_only_hard_in_three_and_four_player_zarathustra_discounts_exposure() -> None:
    assert levels.work_for("hard", "zarathustra", 4).exposure == 0.5
    assert levels.work_for("hard", "zarathustra", 3).exposure == 0.5
    assert levels.work_for("hard", "zarathustra", 2).exposure == 0.0
    for level in ("easy", "medium"):
        for players in (2, 3, 4):
            assert levels.work_for(level, "zarathustra", players).exposure == 0.0
    for level in ai.LEVELS:
        for game in ("zaic", "zrtz", "zodiac", "ziggurat"):
            assert levels.work_for(level, game).exposure == 0.0


def test_the_priors_put_a_sheltered_tile_first() -> None:
    """On the empty 4-player board the best one-ply move is a 3-blank tile; with the discount a tile whose blanks
    face off the board (2 blanks in a corner) is."""
    game = Zarathustra.new(4)
    moves = game.legal_moves(0)
    plain = mcts.pick_untried(mcts.Node(3), game, 0, moves, 10, random.Random(1), root=True)
    assert zarathustra_exposed(made(game, 0, plain))[0] == 3
    sheltered = mcts.pick_untried(mcts.Node(3), game, 0, moves, 10, random.Random(1), root=True, exposure=0.5)
    after = made(game, 0, sheltered)
    assert zarathustra_exposed(after)[0] == 0 and after.scores()[0] == 2


def test_hard_opens_three_and_four_players_without_an_exposed_blank() -> None:
    """The real hard level at its fixed work (about 1 s of CPU a move): before, it opened with 3 exposed blanks."""
    for players in (3, 4):
        game = Zarathustra.new(players)
        for seed in (0, 1):
            move = ai.choose(game, 0, "hard", seed=seed)
            assert zarathustra_exposed(made(game, 0, move)) == [0] * players
