"""Ziggurat board, movement and every action with its limits (positions built directly)."""

from __future__ import annotations

import pytest

from engines import CHANCE, IllegalMove
from engines.ziggurat.board import CORNERS, LAYOUT, LEVEL, PATHS, SQUARES, ColourLayout, build_path, name
from tests.engines.test_ziggurat_helpers import position, stacks


def test_levels_corners_and_paths() -> None:
    assert sum(1 for s in SQUARES if LEVEL[s] == 1) == 28
    assert sum(1 for s in SQUARES if LEVEL[s] == 4) == 4
    assert {name(s) for s in CORNERS if LEVEL[s] == 2} == {"b2", "g2", "b7", "g7"}
    blue = [name(s) for s in PATHS[0][1:]]
    assert len(blue) == 61 and blue[:3] == ["a1", "b1", "c1"] and blue[-1] == "d4"
    assert blue[26:29] == ["a3", "a2", "b2"]  # wall a2, climb to b2
    for path in PATHS:  # every square but the other Goals, once
        assert len(set(path[1:])) == 61


def test_a_corrected_layout_table_gives_new_paths_and_bad_tables_fail() -> None:
    # RESEARCH's alternative reading: Blue climbs after one side per level (walls g1, g6, d6, Goal d5).
    spiral = build_path(ColourLayout("Blue", "B", (0, 1), ("g1", "g6", "d6"), "d5"))
    assert [name(s) for s in spiral[1:]] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "g2", "g3", "g4", "g5",
                                             "g6", "f6", "e6", "d6", "d5"]
    with pytest.raises(ValueError):
        build_path(LAYOUT[0]._replace(goal="e5"))


# ----- movement -------------------------------------------------------------------------------


def test_movement_stops_at_a_corner() -> None:
    game = position({"b1": "B"}, movement=8)
    game.play(0, "move b1")
    assert stacks(game) == {"h1": "B"}


def test_another_colours_wall_does_not_stop_but_your_own_does() -> None:
    blue = position({"d1": "B"}, movement=4)
    blue.play(0, "move d1")
    assert stacks(blue) == {"h1": "B"}  # passes Purple's wall g1
    purple = position({"d1": "P"}, movement=4, colour="P")
    purple.play(3, "move d1")
    assert stacks(purple) == {"g1": "P"}


def test_own_wall_stop_then_climb_to_next_level_corner() -> None:
    game = position({"a5": "B"}, movement=8)
    game.play(0, "move a5")
    assert stacks(game) == {"a2": "B"}
    game = position({"a2": "B"}, movement=5)
    game.play(0, "move a2")
    assert stacks(game) == {"b2": "B"}


def test_movement_stops_just_before_a_stack_and_passes_singletons() -> None:
    game = position({"b1": "B", "c1": "O", "e1": "OG"}, movement=6)
    game.play(0, "move b1")
    assert stacks(game) == {"c1": "O", "d1": "B", "e1": "OG"}


def test_ending_on_a_singleton_stacks_on_it() -> None:
    game = position({"b1": "B", "c1": "O"}, movement=1)
    game.play(0, "move b1")
    assert stacks(game) == {"c1": "OB"}


def test_leaving_the_start_station_stops_on_the_corner() -> None:
    game = position({"start:B": "BBB"}, movement=6)
    game.play(0, "move start")
    assert stacks(game) == {"start:B": "BB", "a1": "B"}


def test_blocked_and_buried_pieces_cannot_move() -> None:
    game = position({"start:B": "B", "a1": "OO", "c2": "BO", "e2": "B", "f2": "GG"}, movement=3, action="tip")
    moves = game.legal_moves(0)
    assert "move start" not in moves and "move c2" not in moves and "move e2" not in moves
    with pytest.raises(IllegalMove, match="stack"):
        game.play(0, "move e2")


def test_reaching_the_goal_and_goal_pieces_stay() -> None:
    game = position({"c5": "B", "c4": "G", "d4": "B"}, movement=8, action="leap")
    game.play(0, "move c5")
    assert stacks(game)["c4"] == "GB"  # own wall c4 stops
    game = position({"c4": "B", "d4": "B"}, movement=8, action="swap")
    game.play(0, "move c4")
    assert stacks(game) == {"d4": "BB"}
    assert game.observation(None)["home"]["Blue"] == 2
    assert not any(m.split()[1:2] == ["d4"] for m in position({"d4": "B"}, 3, "wild").legal_moves(0) if m != "end")


def test_a_stack_on_your_own_goal_blocks_a_normal_move_and_aim() -> None:
    # Issue 14: Blue on c4 and BB on d4, rolling 1 swap: the move would have made d4 BBB and won.
    game = position({"c4": "B", "d4": "BB"}, movement=1, action="swap")
    assert "move c4" not in game.legal_moves(0)
    with pytest.raises(IllegalMove, match="your Goal holds a stack, and only a Hop"):
        game.play(0, "move c4")
    assert stacks(game) == {"c4": "B", "d4": "BB"} and game.outcome() is None
    aim = position({"c5": "B", "d4": "BB"}, movement=2, action="aim")
    assert "aim c4" not in position({"c4": "B", "d4": "BB"}, 1, "aim").legal_moves(0)
    aim.play(0, "aim c5")
    assert stacks(aim) == {"c4": "B", "d4": "BB"} and aim.outcome() is None  # stops just in front


def test_only_a_hop_stacks_onto_your_own_goal_stack() -> None:
    game = position({"c4": "B", "d4": "BB"}, movement=1, action="hop")
    assert "move c4" not in game.legal_moves(0)
    game.play(0, "hop c4")
    assert stacks(game) == {"d4": "BBB"} and game.outcome() is not None


def test_a_drone_cannot_move_onto_its_own_queen_on_the_goal_but_may_hop_her() -> None:
    game = position({"c4": "B", "d4": "b"}, movement=1, action="aim", queen=True)
    moves = game.legal_moves(0)
    assert "move c4" not in moves and "aim c4" not in moves
    with pytest.raises(IllegalMove):
        game.play(0, "move c4")
    hop = position({"c4": "B", "d4": "b"}, movement=1, action="hop", queen=True)
    hop.play(0, "hop c4")
    assert stacks(hop) == {"d4": "bB"}


def test_unused_points_are_lost() -> None:
    game = position({"g1": "B", "b1": "B"}, movement=7, action="tip")
    game.play(0, "move g1")
    assert game.movement is None and not any(m.startswith("move") for m in game.legal_moves(0))


# ----- Aim, Hop, Leap -------------------------------------------------------------------------


def test_aim_adds_one_and_ignores_corners_and_walls_but_climbs() -> None:
    game = position({"b1": "B"}, movement=7, action="aim")
    game.play(0, "aim b1")
    assert stacks(game) == {"h3": "B"} and game.action is None and game.movement is None
    game = position({"a4": "B"}, movement=3, action="aim")
    game.play(0, "aim a4")
    assert stacks(game) == {"c2": "B"}


def test_aim_is_still_stopped_by_a_stack() -> None:
    game = position({"b1": "B", "f1": "OO"}, movement=7, action="aim")
    game.play(0, "aim b1")
    assert stacks(game)["e1"] == "B"


def test_d6_movement_die_gives_aim_two() -> None:
    game = position({"b1": "B"}, movement=5, action="aim", movement_die="d6")
    game.play(0, "aim b1")
    assert stacks(game) == {"h2": "B"}


def test_hop_counts_a_run_of_occupied_squares_as_one() -> None:
    game = position({"b1": "B", "c1": "O", "d1": "GG"}, movement=2, action="hop")
    game.play(0, "hop b1")
    assert stacks(game) == {"c1": "O", "d1": "GG", "g1": "B"}


def test_hop_stops_at_a_corner_and_stacks_on_its_occupants() -> None:
    game = position({"f1": "B", "g1": "OO", "h1": "G"}, movement=4, action="hop")
    game.play(0, "hop f1")
    assert stacks(game) == {"g1": "OO", "h1": "GB"}


def test_leap_runs_over_blank_squares_to_corner_wall_or_before_a_piece() -> None:
    game = position({"b1": "B"}, action="leap")
    game.play(0, "leap b1")
    assert stacks(game) == {"h1": "B"}
    game = position({"b1": "B", "e1": "O"}, action="leap")
    game.play(0, "leap b1")
    assert stacks(game)["d1"] == "B"
    game = position({"a7": "B"}, action="leap")
    game.play(0, "leap a7")
    assert stacks(game) == {"a2": "B"}
    assert "leap a2" not in position({"a2": "B"}, action="leap").legal_moves(0)
    game = position({"start:B": "B"}, action="leap")
    game.play(0, "leap start")
    assert stacks(game) == {"a1": "B"}


# ----- Tip ------------------------------------------------------------------------------------


def test_tip_pushes_an_adjacent_stack_straight_away() -> None:
    game = position({"b2": "B", "c2": "OG"}, action="tip")
    game.play(0, "tip c2 e")
    assert stacks(game) == {"b2": "B", "d2": "O", "e2": "G"}


def test_tip_never_goes_uphill() -> None:
    game = position({"c1": "B", "c2": "O"}, action="tip")
    assert "tip c2 n" not in game.legal_moves(0)
    with pytest.raises(IllegalMove, match="uphill"):
        game.play(0, "tip c2 n")


def test_tipped_off_the_board_pieces_go_home_on_top() -> None:
    game = position({"c3": "B", "b2": "OGP", "start:G": "G"}, action="tip")
    game.play(0, "tip b2 sw")
    assert stacks(game) == {"c3": "B", "a1": "O", "start:G": "GG", "start:P": "P"}


def test_tip_your_own_stack_any_allowed_direction() -> None:
    game = position({"d2": "OBG"}, action="tip")
    tips = {m for m in game.legal_moves(0) if m.startswith("tip d2")}
    assert tips == {"tip d2 e", "tip d2 w", "tip d2 s", "tip d2 se", "tip d2 sw"}
    game.play(0, "tip d2 s")
    assert stacks(game) == {"d1": "O", "start:B": "B", "start:G": "G"}


def test_a_singleton_tips_itself_only_forward_and_not_up_the_climb() -> None:
    game = position({"b1": "B", "c1": "O"}, action="tip")
    assert [m for m in game.legal_moves(0) if m.startswith("tip b1")] == ["tip b1 e"]
    game.play(0, "tip b1 e")
    assert stacks(game) == {"c1": "OB"}
    game = position({"a2": "B"}, action="tip")
    assert game.legal_moves(0) == ["end"] or not any(m.startswith("tip a2") for m in game.legal_moves(0))


def test_the_start_stack_tips_itself_forward_and_pushes_the_corner() -> None:
    game = position({"start:B": "BB", "a1": "O"}, action="tip")
    assert {m for m in game.legal_moves(0) if m.startswith("tip")} == {"tip start", "tip a1 e"}
    game.clone().play(0, "tip a1 e")
    game.play(0, "tip start")
    assert stacks(game) == {"a1": "OB", "b1": "B"}
    pushed = position({"start:B": "B", "a1": "O"}, action="tip")
    pushed.play(0, "tip a1 e")
    assert stacks(pushed) == {"start:B": "B", "b1": "O"}


def test_goal_pieces_only_tip_neighbours_and_cannot_be_tipped() -> None:
    game = position({"d4": "BB", "c3": "O"}, movement=3, action="wild")
    moves = [m for m in game.legal_moves(0) if m != "end"]
    assert "tip c3 sw" in moves and not any("d4" in m for m in moves)
    orange = position({"d4": "BB", "c4": "OO"}, action="tip", colour="O")
    assert not any(m.startswith("tip d4") for m in orange.legal_moves(1))
    with pytest.raises(IllegalMove, match="Goal"):
        orange.play(1, "tip d4 e")


# ----- Dig, Swap ------------------------------------------------------------------------------


def test_dig_moves_a_bottom_piece_under_a_neighbour_never_uphill() -> None:
    game = position({"c2": "BO", "b1": "G"}, action="dig")
    digs = {m for m in game.legal_moves(0) if m.startswith("dig")}
    assert "dig c2 d2" in digs and "dig c2 b1" in digs and "dig c2 c3" not in digs and "dig c2 d3" not in digs
    game.play(0, "dig c2 b1")
    assert stacks(game) == {"c2": "O", "b1": "BG"}


def test_only_bottom_pieces_dig_and_never_from_a_station() -> None:
    game = position({"c2": "OB", "d4": "B", "start:B": "B"}, action="dig")
    assert game.legal_moves(0) == ["end"] or not any(m.startswith("dig") for m in game.legal_moves(0))
    with pytest.raises(IllegalMove, match="bottom"):
        game.play(0, "dig c2 b1")


def test_swap_top_pieces_of_neighbours_at_any_level() -> None:
    game = position({"c2": "B", "d3": "GO"}, action="swap")
    game.play(0, "swap d3 c2")
    assert stacks(game) == {"c2": "O", "d3": "GB"}
    assert game.history[-1] == (0, "swap c2 d3")


def test_swap_never_with_a_station() -> None:
    game = position({"c5": "B", "d5": "O", "c4": "G"}, action="swap")
    moves = game.legal_moves(0)
    assert "swap c4 c5" in moves and "swap c5 d5" not in moves


def test_swap_within_a_stack_needs_one_own_piece() -> None:
    game = position({"c2": "OBG"}, action="swap")
    moves = {m for m in game.legal_moves(0) if m.startswith("swap")}
    assert moves == {"swap c2 1 2", "swap c2 2 3"}
    game.play(0, "swap c2 2 1")
    assert stacks(game) == {"c2": "BOG"}


# ----- Redo, Wild -----------------------------------------------------------------------------


def test_redo_move_rolls_the_movement_die_again_after_moving() -> None:
    game = position({"b1": "B", "c2": "B"}, movement=3, action="redo")
    assert "redo move" not in game.legal_moves(0) and "redo action" in game.legal_moves(0)
    game.play(0, "move b1")
    game.play(0, "redo move")
    assert game.to_move() == {CHANCE}
    assert game.chance_outcomes() == [(f"roll {n}", 1 / 8) for n in range(1, 9)]
    game.play(CHANCE, "roll 2")
    game.play(0, "move c2")
    assert stacks(game)["e1"] == "B" and stacks(game)["e2"] == "B"


def test_redo_action_rerolls_and_a_second_redo_is_blank() -> None:
    game = position({"b1": "B"}, movement=3, action="redo")
    game.play(0, "redo action")
    assert {t for t, _ in game.chance_outcomes()} == {f"roll {a}" for a in
                                                      ("tip", "swap", "hop", "dig", "aim", "wild", "leap", "redo")}
    blank = game.clone()
    blank.play(CHANCE, "roll redo")
    assert blank.action is None and blank.legal_moves(0) == ["end", "move b1"]
    wild = game.clone()
    wild.play(CHANCE, "roll wild")
    assert "redo action" not in wild.legal_moves(0) and "aim b1" in wild.legal_moves(0)


def test_wild_offers_every_other_action_per_die_and_option() -> None:
    game = position({"b1": "B", "c2": "O"}, movement=3, action="wild")
    verbs = {m.split()[0] for m in game.legal_moves(0)}
    assert verbs == {"move", "aim", "hop", "leap", "tip", "swap", "dig", "redo", "end"}
    no_redo = position({"b1": "B", "c1": "O"}, movement=3, action="wild", wild_redo=False)
    assert "redo action" not in no_redo.legal_moves(0)
    tree = position({"b1": "B", "c1": "O"}, movement=3, action="wild", action_die="treehouse")
    assert not {m.split()[0] for m in tree.legal_moves(0)} & {"leap", "redo"}


def test_action_and_movement_in_either_order_by_different_pieces() -> None:
    game = position({"b1": "B", "b2": "B", "c2": "O"}, movement=2, action="tip")
    game.play(0, "tip c2 e")
    game.play(0, "move b1")
    assert stacks(game) == {"b2": "B", "d1": "B", "d2": "O"}
    assert game.observation(None)["turn"]["colour"] == "Orange"
