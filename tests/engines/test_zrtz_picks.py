"""ZÈRTZ move-builder picks: a placement is colour → ring → removal, a capture is the jumper → each landing."""

from __future__ import annotations

from engines.base import Pick
from engines.zrtz import Zrtz
from tests.engines.test_zrtz import full_board, position


def picks_of(game: Zrtz, seat: int) -> dict[str, tuple[Pick, ...]]:
    return dict(game.move_picks(seat))


def test_opening_placement_is_colour_ring_and_ring_to_remove() -> None:
    picks = picks_of(Zrtz.new(2), 0)
    assert picks["wd4 a1"] == (Pick("colour", "White marble", "supply:w"), Pick("ring", "Ring d4", "d4", "File d"),
                               Pick("remove", "Remove a1", "a1", "File a"))
    assert picks["bg1 d1"][0].target == "supply:b"
    assert all(len(p) == 3 for p in picks.values())


def test_placement_without_a_free_ring_says_so() -> None:
    # Every ring of a full column with a neighbour on each side: none slides out.
    game = position({"d3": ".", "d4": ".", "c3": "w", "c4": "g", "e3": "b", "e4": "w", "d2": "g", "d5": "b"})
    picks = picks_of(game, 0)
    assert picks["wd4"] == (Pick("colour", "White marble", "supply:w"), Pick("ring", "Ring d4", "d4", "File d"),
                            Pick("remove", "No free ring to remove"))


def test_placement_from_own_captures_targets_them_once_the_pool_is_empty() -> None:
    game = position(full_board(), pool=(0, 0, 0), captured=((0, 2, 0), (1, 1, 1)), turn=0)
    colours = {p[0] for p in picks_of(game, 0).values()}
    assert colours == {Pick("colour", "Grey marble from your captures", "captured:0:g")}


def test_capture_chain_is_the_jumper_then_every_landing() -> None:
    game = position(full_board(c3="w", d3="g", e3="b"))
    picks = picks_of(game, 0)
    assert picks["c3xe2xe4"] == (Pick("marble", "White marble on c3", "c3", "File c"),
                                 Pick("jump", "Jump to e2, taking grey d3", "e2", "File e"),
                                 Pick("jump", "Jump to e4, taking black e3", "e4", "File e"))
    assert picks["d3xf3"] == (Pick("marble", "Grey marble on d3", "d3", "File d"),
                              Pick("jump", "Jump to f3, taking black e3", "f3", "File f"))
    assert all(p[0].kind == "marble" for p in picks.values()), "no placement while a capture is compulsory"


def test_pass_when_nothing_can_be_placed() -> None:
    game = position(full_board(), pool=(0, 0, 0), captured=((0, 0, 0), (1, 1, 1)), turn=0)
    assert game.move_picks(0) == [("pass", (Pick("action", "Pass: no marble to place"),))]
