"""The correspondence ladder: challenge reach, moving up by winning, dropping inactive players."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.ladder.rules import DAY, apply_result, can_challenge, challengeable, drop_inactive, join, leave

LADDER = ("ann", "bob", "cat", "dan", "eve", "fay")


def test_challenge_up_to_reach_places_above_and_never_below() -> None:
    assert challengeable(LADDER, "eve", reach=3) == ("dan", "cat", "bob")
    assert can_challenge(LADDER, "eve", "bob", 3) and not can_challenge(LADDER, "eve", "ann", 3)
    assert not can_challenge(LADDER, "cat", "dan", 3)
    assert challengeable(LADDER, "ann", 3) == () and challengeable(LADDER, "zed", 3) == ()


def test_a_winner_from_below_takes_the_losers_place_and_the_rest_move_down() -> None:
    assert apply_result(LADDER, winner="eve", loser="bob") == ("ann", "eve", "bob", "cat", "dan", "fay")
    assert apply_result(LADDER, winner="bob", loser="eve") == LADDER


def test_inactive_players_are_dropped_and_those_below_move_up() -> None:
    now = 100 * DAY
    last = {"ann": now - 2 * DAY, "bob": now - 31 * DAY, "cat": now, "dan": now - 30 * DAY, "eve": now}
    kept, dropped = drop_inactive(LADDER, last, now, inactive_days=30)
    assert kept == ("ann", "cat", "dan", "eve") and dropped == ("bob", "fay")


def test_join_and_leave() -> None:
    assert join(LADDER, "gus")[-1] == "gus"
    assert "bob" not in leave(LADDER, "bob")
    with pytest.raises(ValueError):
        join(LADDER, "ann")
    with pytest.raises(ValueError):
        apply_result(LADDER, "ann", "zed")


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(1, 3)), max_size=30))
def test_results_only_reorder_and_move_a_winner_at_most_reach_places(games: list[tuple[int, int]]) -> None:
    ladder = tuple(range(8))
    for challenger_place, reach in games:
        challenger = ladder[challenger_place]
        for target in challengeable(ladder, challenger, reach):
            after = apply_result(ladder, challenger, target)
            assert sorted(after) == sorted(ladder)
            assert ladder.index(challenger) - after.index(challenger) <= reach
            assert after.index(challenger) == ladder.index(target)
            ladder = after
            break
