"""Zodiac Chess in the move builder: each move form's exact clicks, and labels that keep the opponent's secrets."""

from __future__ import annotations

import random

from engines.base import CHANCE, Pick
from engines.zodiac import Zodiac
from tests.engines.test_zodiac_pieces import board, play, seat


def picks_of(g: Zodiac, s: int | None = None) -> dict[str, tuple[Pick, ...]]:
    return dict(g.move_picks(seat(g) if s is None else s))


def keys(g: Zodiac, move: str) -> list[tuple[str, str, str | None]]:
    return [p.key for p in picks_of(g)[move]]


def test_duel_and_king_are_one_secret_pick_each_and_the_side_one_plain_pick() -> None:
    g = Zodiac.new(2)
    assert picks_of(g, 1)["pick Tree"] == (Pick("secret", "Duel pick: Tree"),)
    g.play(0, "pick Tree")
    g.play(1, "pick Wolf")  # Tree beats Wolf: seat 0 chooses the side
    assert picks_of(g, 0)["light"] == (Pick("side", "Light: move first, start on rank 1"),)
    g.play(0, "light")
    assert picks_of(g, 1)["king Goat"] == (Pick("secret", "King: Goat"),)


def test_placement_is_piece_kind_then_back_rank_square() -> None:
    g = Zodiac.new(2, {"sides": "seat1"})
    g.play(0, "king Bear")
    g.play(1, "king Wolf")
    picks = picks_of(g, 0)
    assert picks["Bear c1"] == (Pick("piece", "Bear (your king)", None, "Pieces"), Pick("square", "c1", "c1", "Row 1"))
    assert picks["Wolf a1"][0].label == "Wolf"  # only the mover's own king is ever named


def test_a_plain_move_is_piece_then_destination() -> None:
    g = board({"b1": "L Wolf", "a1": "L Bear", "d2": "D Goat", "e8": "D Bear"})
    assert picks_of(g)["Wolf b1-c3"] == (Pick("piece", "Wolf b1", "b1", "Wolf"), Pick("to", "c3", "c3", "Row 3"))
    assert keys(g, "Wolf b1-d2")[1] == ("to", "d2: takes Goat", "d2")


def test_penguin_turn_slide_and_capture_end_with_the_facing() -> None:
    g = board({"c2": "L Penguin face=N", "b3": "D Goat", "a1": "L Bear", "e8": "D Bear"}, kings=("Bear", "Bear"))
    assert keys(g, "Penguin c2 face E") == [("piece", "Penguin c2", "c2"), ("to", "Turn without moving", "c2"),
                                            ("facing", "Face → E", None)]
    assert keys(g, "Penguin c2-c8")[1:] == [("to", "c8: slide", "c8"), ("facing", "Keep facing ↑ N", None)]
    assert keys(g, "Penguin c2-c8 face SW")[2] == ("facing", "Face ↙ SW", None)
    assert keys(g, "Penguin c2-b3 face W")[1:] == [("to", "b3: takes Goat", "b3"), ("facing", "Face ← W", None)]


def test_dark_sees_the_facing_arrows_of_its_own_turned_board() -> None:
    g = board({"c5": "D Penguin", "a1": "L Bear", "e8": "D Bear"}, turn="D")
    assert keys(g, "Penguin c5-c8")[2] == ("facing", "Keep facing ↓ N", None)  # N is down on Dark's board
    assert keys(g, "Penguin c5-c8 face E")[2] == ("facing", "Face ← E", None)


def test_octopus_options_after_moving_and_after_entangling() -> None:
    g = board({"c4": "L Octopus", "d5": "D Goat", "c5": "D Frog", "a8": "D Wolf"}, kings=("Octopus", "Wolf"))
    base = [("piece", "Octopus c4", "c4")]
    assert keys(g, "Octopus c4 entangle d5") == [*base, ("to", "Entangle Goat d5", "d5"), ("to", "Stay on c4", "c4")]
    assert keys(g, "Octopus c4 entangle d5 then b4") == [*base, ("to", "Entangle Goat d5", "d5"),
                                                         ("to", "Then move to b4", "b4")]
    assert keys(g, "Octopus c4-b4") == [*base, ("to", "b4", "b4"), ("action", "Just move (no entangle)", None)]
    assert keys(g, "Octopus c4-b4 entangle c5") == [*base, ("to", "b4", "b4"),
                                                    ("action", "Then entangle Frog c5", "c5")]
    assert keys(g, "Octopus c4 ink b4") == [*base, ("to", "b4", "b4"),
                                            ("action", "Ink: move in secret, shadows on d4, c3", None)]
    assert keys(g, "Octopus c4-b5") == [*base, ("to", "b5", "b5")]  # no variant there: no third pick
    assert keys(g, "Octopus c4-c5")[1] == ("to", "c5: takes Frog, ⚠ poisons your Octopus", "c5")


def test_goat_faint_and_wake_pick_its_own_square() -> None:
    g = board({"c4": "L Goat poison", "a1": "L Bear", "e8": "D Bear"})
    assert keys(g, "Goat c4 faint")[1:] == [("to", "Faint here: clears its poison", "c4")]
    g = board({"c4": "L Goat fainted", "a1": "L Bear", "e8": "D Bear"})
    assert keys(g, "Goat c4 wake") == [("piece", "Goat c4 (fainted)", "c4"), ("to", "Get up, stay on c4", "c4")]


def test_rhino_lane_and_a_trample_that_hits_its_own_king_is_warned() -> None:
    g = board({"c1": "L Rhino", "c2": "L Goat", "c3": "D Wolf", "a1": "L Tree", "c4": "D Crane", "e8": "D Bear"},
              kings=("Goat", "Bear"))
    assert keys(g, "Rhino c1 lane a1")[1] == ("to", "Swap places with Tree a1", "a1")
    assert keys(g, "Rhino c1-c4")[1] == ("to", "c4: charge, ⚠ tramples your king Goat c2, also Wolf, Crane", "c4")


def test_the_monkeys_dice_and_extra_turns_are_in_its_labels_and_stop_is_one_pick() -> None:
    g = board({"c3": "L Monkey", "c4": "D Goat", "c6": "D Bear", "e5": "L Tree", "d4": "L Goat", "b3": "L Fungi",
               "e8": "D Wolf"}, kings=("Monkey", "Wolf"))
    assert keys(g, "Monkey c3-c7")[1] == ("to", "c7: leap, ⚠ danger 2: roll 3+ or it falls", "c7")
    assert keys(g, "Monkey c3-e5")[1] == ("to", "e5: leap, swings into the Tree: extra turn", "e5")
    play(g, "Monkey c3-b3")
    assert keys(g, "stop") == [("end", "Stop: end the monkey's extra turns", None)]


def test_a_virus_leaving_its_own_host_warns_that_the_host_dies() -> None:
    g = board({"b2": "L Bear + L Virus", "b4": "D Wolf", "e8": "D Bear"}, kings=("Bear", "Bear"))
    assert keys(g, "Virus b2-b4") == [("piece", "Virus b2 (on Bear)", "b2"),
                                      ("to", "b4: infects Wolf, ⚠ kills its host, your Bear", "b4")]


def test_labels_do_not_tell_which_ink_token_is_real() -> None:
    seen = []
    for real in ("c5", "c3"):
        g = board({"c4": "L Octopus", "a1": "L Bear", "e8": "D Bear", "b5": "D Crane"}, kings=("Bear", "Bear"))
        play(g, f"Octopus c4 ink {real}")
        seen.append(g.move_picks(1))
        assert picks_of(g, 1)["Crane b5-c5"][1].label == "c5: takes an ink token (the Octopus or a shadow)"
    assert seen[0] == seen[1]


def test_labels_do_not_depend_on_the_opponents_king() -> None:
    spec = {"c1": "L Rhino", "c2": "D Goat", "b3": "D Wolf", "a1": "L Bear", "e8": "D Bear"}
    assert board(spec, kings=("Bear", "Goat")).move_picks(0) == board(spec, kings=("Bear", "Wolf")).move_picks(0)


def test_whatever_the_hidden_facts_the_movers_picks_are_the_same() -> None:
    """A determinized copy re-draws the opponent's king, duel pick and real ink square: no label may change."""
    rng = random.Random(7)
    g = Zodiac.new(2, {"sides": "seat1"})
    while g.outcome() is None and len(g.history) < 80:
        for s in g.to_move() - {CHANCE}:
            assert g.determinize(s, random.Random(len(g.history))).move_picks(s) == g.move_picks(s)
        s = rng.choice(sorted(g.to_move()))
        g.play(s, rng.choice(g.legal_moves(s)))


def test_a_tree_taking_a_piece_off_a_fainted_goat_says_it_crushes_the_goat_too() -> None:
    g = board({"d3": "D Goat fainted + D Crane", "a8": "D Bear", "b3": "L Tree", "a1": "L Bear"})
    assert keys(g, "Tree b3-d3")[1] == ("to", "d3: takes Crane, crushes the fainted Goat", "d3")
