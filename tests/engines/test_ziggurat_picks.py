"""Ziggurat's move-builder picks: the form (which die use) first, then the piece, then the second place."""

from __future__ import annotations

from engines import Pick
from engines.ziggurat import Ziggurat
from tests.engines.test_ziggurat_helpers import position


def picks_of(game: Ziggurat) -> dict[str, tuple[Pick, ...]]:
    return dict(game.move_picks(game.owner[game.colour]))


def test_move_is_the_movement_die_then_the_piece_with_where_it_lands() -> None:
    picks = picks_of(position({"b1": "B", "c2": "OG", "b2": "B"}, movement=3, action="tip"))
    assert picks["move b1"] == (Pick("action", "Move a piece (3)", "die:move"),
                                Pick("piece", "Blue from b1 to e1", "b1", "Row 1"))
    assert picks["end"] == (Pick("action", "End the turn (unused: 3 movement, Tip)"),)


def test_tip_is_the_action_die_then_the_stack_then_the_direction_by_its_first_square() -> None:
    picks = picks_of(position({"b1": "B", "c2": "OG", "b2": "B"}, movement=3, action="tip"))
    assert picks["tip c2 e"] == (Pick("action", "Tip a stack or piece", "die:action"),
                                 Pick("stack", "c2 (Orange, Green)", "c2", "Row 2"),
                                 Pick("direction", "Tip east: lands on d2, e2", "d2", "Directions"))
    # Off the board edge there is no square to click: the direction is a button only.
    assert picks["tip b1 s"][2] == Pick("direction", "Tip south: 1 back to Start", None, "Directions")


def test_wild_offers_every_action_and_the_start_station_is_its_own_target() -> None:
    picks = picks_of(position({"c2": "BO", "d2": "O", "start:B": "B"}, movement=2, action="wild"))
    assert picks["aim start"] == (Pick("action", "Aim a piece (3, past corners and walls)", "die:action"),
                                  Pick("piece", "Blue from Start to c1", "start:Blue", "Start Station"))
    assert picks["hop start"][0].label == "Hop a piece (3, over pieces)"
    assert picks["leap start"][0].label == "Leap a piece (over empty squares)"
    assert picks["tip start"] == (Pick("action", "Tip a stack or piece", "die:action"),
                                  Pick("stack", "Start Station: lands on a1", "start:Blue", "Start Station"))
    assert picks["dig c2 d2"] == (Pick("action", "Dig out a bottom piece", "die:action"),
                                  Pick("piece", "Blue under c2", "c2", "Row 2"),
                                  Pick("to", "Dig to d2", "d2", "Row 2"))
    assert picks["swap c2 1 2"] == (Pick("action", "Swap two pieces", "die:action"),
                                    Pick("piece", "c2 (Blue, Orange)", "c2", "Row 2"),
                                    Pick("swap", "In the stack: #1 Blue ↔ #2 Orange", None, "In the stack"))
    assert picks["redo action"] == (Pick("action", "Redo: roll the action die again", "die:action"),)


def test_swapping_tops_starts_at_the_movers_own_top_piece() -> None:
    picks = picks_of(position({"c2": "O", "d2": "B"}, action="swap"))
    assert picks["swap c2 d2"] == (Pick("action", "Swap two pieces", "die:action"),
                                   Pick("piece", "d2 (Blue)", "d2", "Row 2"),
                                   Pick("swap", "With Orange on c2", "c2", "Row 2"))


def test_a_queen_under_drones_and_the_top_drone_are_two_choices_on_one_square() -> None:
    picks = picks_of(position({"c1": "bB"}, movement=6, queen=True))
    assert picks["move c1"][1] == Pick("piece", "Blue from c1 to h1", "c1", "Row 1")
    assert picks["move c1 q"][1] == Pick("piece", "Blue Queen carrying 1 from c1 to f1", "c1", "Row 1")


def test_redo_move_after_moving_and_placing_the_queen() -> None:
    game = position({"c2": "B"}, action="redo")
    game.moved = True
    game._cache = None
    assert picks_of(game)["redo move"] == (Pick("action", "Redo: roll the movement die again", "die:action"),)
    setup = Ziggurat.new(2, {"queen": True})
    assert [p for _, p in setup.move_picks(0)] == [
        (Pick("queen", "Queen at the bottom (1)", "start:Blue", "Start Station"),),
        (Pick("queen", "Queen 2nd from the bottom", "start:Blue", "Start Station"),),
        (Pick("queen", "Queen 3rd from the bottom", "start:Blue", "Start Station"),),
        (Pick("queen", "Queen on top (4)", "start:Blue", "Start Station"),),
    ]
