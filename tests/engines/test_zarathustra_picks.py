"""Zarathustra's move builder picks: tile from the hand → square → rotation, and back to exactly one move."""

from __future__ import annotations

import random

import pytest

from engines import Pick
from engines.zarathustra import PLACEMENTS, TILES, Zarathustra, tile_of
from tests.engines.test_zarathustra import place, play


def picks_of(game: Zarathustra, seat: int) -> dict[str, tuple[Pick, ...]]:
    return dict(game.move_picks(seat))


def test_a_placement_is_tile_then_square_then_rotation() -> None:
    game = Zarathustra.new(2)
    assert picks_of(game, 0)["c3 oo.x"] == (
        Pick("tile", "Sword, shield, shield, blank", "hand:.xoo", "1 blank"),
        Pick("square", "c3", "c3", "Row 3"),
        Pick("rotation", "Sword left; shields up and right"),
    )
    assert picks_of(game, 0)["a1 ...o"] == (
        Pick("tile", "Shield, blank, blank, blank", "hand:...o", "3 blanks"),
        Pick("square", "a1", "a1", "Row 1"),
        Pick("rotation", "Shield left"),
    )


def test_mirror_tiles_read_differently_and_each_tile_is_one_choice() -> None:
    game = Zarathustra.new(3)
    tiles = {sequence[0] for _, sequence in game.move_picks(0)}
    assert {p.target for p in tiles} == {f"hand:{t}" for t in TILES}
    assert len({p.label for p in tiles}) == len(tiles) == 17
    by_target = {p.target: p.label for p in tiles}
    assert by_target["hand:..ox"] == "Shield, sword, blank, blank"
    assert by_target["hand:..xo"] == "Sword, shield, blank, blank"


def test_symmetric_tiles_offer_two_rotations_and_others_four() -> None:
    game = Zarathustra.new(2)
    picks = picks_of(game, 0)
    for tile in TILES:
        rotations = {picks[f"b2 {e}"][2].label for e in PLACEMENTS[tile]}
        assert len(rotations) == (2 if tile in (".o.o", ".x.x") else 4)
    assert {picks[f"b2 {e}"][2].label for e in PLACEMENTS[".x.x"]} == {"Swords up and down",
                                                                         "Swords right and left"}


def test_played_tiles_and_blocked_squares_are_not_offered() -> None:
    game = Zarathustra.new(2)
    play(game, "c3 x...")
    play(game, "a1 o...")
    picks = game.move_picks(0)
    assert "hand:...x" not in {s[0].target for _, s in picks}
    squares = {s[1].target for _, s in picks}
    assert "c3" not in squares and "a1" not in squares and "b2" not in squares and "a3" in squares


def test_the_rotation_previews_the_fights() -> None:
    game = Zarathustra.new(2)
    play(game, "b3 .x..", "e1 ..oo", "d3 ...o", "a5 .o.o", "e5 ..oo", "c4 ..x.", "c1 .o.o")
    assert picks_of(game, 1)["c3 oo.x"][2] == Pick("rotation", "Sword left; shields up and right — destroys b3")
    game = Zarathustra.new(4)
    play(game, "e3 o..o", "e5 ..oo", "c4 .x..", "g1 ...o", "c3 .o..", "e4 o...", "a7 ...o", "d3 x...",
         "d6 ...x")
    label = picks_of(game, 1)["d4 .xxo"][2].label
    assert label == "Swords right and down; shield left — destroys your e4; this tile dies"


def test_the_longest_preview_fits_a_label() -> None:
    game = Zarathustra.new(2)
    for square, edges in (("a2", "...o"), ("c2", "o..."), ("b1", "...o")):  # blanks facing b2
        place(game, square, 0, edges)
    place(game, "b3", 1, "..x.")  # a sword down onto b2's blank top
    label = picks_of(game, 0)["b2 .xxx"][2].label
    assert label == "Swords right, down and left — destroys your a2, your b1, your c2; this tile dies"
    assert len(label) <= 80


@pytest.mark.parametrize(("players", "board"), [(p, b) for p in (2, 3, 4) for b in (5, 6, 7)])
def test_every_size_and_count_maps_picks_back_to_one_move(players: int, board: int) -> None:
    game = Zarathustra.new(players, {"board": board})
    rng = random.Random(players * 10 + board)
    for _ in range(12):
        (seat,) = game.to_move()
        picks = game.move_picks(seat)
        assert [m for m, _ in picks] == game.legal_moves(seat)
        for move, (tile, square, rotation) in picks:
            assert tile.target == f"hand:{tile_of(move[-4:])}" and square.target == move.split()[0]
            assert square.group == f"Row {square.target[1:]}" and rotation.target is None
        rows: dict[str, set[str]] = {}
        for _, sequence in picks:
            rows.setdefault(sequence[1].group, set()).add(sequence[1].label)
        assert all(len(names) <= board for names in rows.values())
        game.play(seat, rng.choice(game.legal_moves(seat)))
