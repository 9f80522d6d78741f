"""Zaic move builder picks: tile size, anchor square, and a direction only where a 2x1 could lie both ways."""

from __future__ import annotations

import random
import statistics

from engines.base import Pick
from engines.zaic import Zaic
from tests.engines.test_zaic import game_after


def picks_of(game: Zaic, move: str) -> tuple[Pick, ...]:
    return dict(game.move_picks(game.turn))[move]


def test_opening_sizes_then_h8_then_a_direction_for_the_2x1() -> None:
    game = Zaic.new(2)
    assert picks_of(game, "2x2 h8") == (
        Pick("tile", "2x2 tile (8 left)", "supply:2x2"),
        Pick("square", "h8 (lower left of h8-i9), on the table", "h8", "Row 8"))
    assert picks_of(game, "1x1 h8") == (
        Pick("tile", "1x1 tile (3 left)", "supply:1x1"),
        Pick("square", "h8, on the table", "h8", "Row 8"))
    across, up = picks_of(game, "2x1 h8 h"), picks_of(game, "2x1 h8 v")
    assert across[:2] == up[:2] == (
        Pick("tile", "2x1 tile (8 left)", "supply:2x1"),
        Pick("square", "h8 (left or lower end), on the table", "h8", "Row 8"))
    assert across[2] == Pick("direction", "Right: h8-i8 (h)", "i8")
    assert up[2] == Pick("direction", "Up: h8-h9 (v)", "h9")


def test_one_way_2x1_needs_no_direction_and_the_level_is_named() -> None:
    game = game_after("2x2 h8", "2x1 j8 v")  # Light to move; i8-j8 bridges Light and Dark on level 2
    assert picks_of(game, "2x1 i8 h") == (
        Pick("tile", "2x1 tile (8 left)", "supply:2x1"),
        Pick("square", "i8 (left end of i8-j8), on level 2", "i8", "Row 8"))
    assert "2x1 i8 v" not in game.legal_moves(0)
    assert picks_of(game, "2x1 k7 v")[1] == Pick("square", "k7 (lower end of k7-k8), on the table", "k7", "Row 7")
    assert [p.target for p in picks_of(game, "2x1 k8 v")] == ["supply:2x1", "k8", "k9"]
    assert picks_of(game, "2x2 k8")[0].label == "2x2 tile (7 left)"


def test_square_groups_are_rows_and_picks_stay_few() -> None:
    rng = random.Random(7)
    lengths: list[int] = []
    for seed in range(3):
        game = Zaic.new(2, {"diagonal_touch": seed == 1})
        while game.outcome() is None:
            for move, picks in game.move_picks(game.turn):
                lengths.append(len(picks))
                square = picks[1]
                assert square.kind == "square" and square.group == f"Row {square.target[1:]}"
                assert move.split()[1] == square.target
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    assert statistics.median(lengths) == 2 and max(lengths) == 3
