"""Knockout: standard seeding, byes to the top seeds, replays with sides swapped, the seed after two draws."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.tournaments.pairing.knockout import (
    KnockoutPair,
    MatchState,
    exit_place,
    first_round,
    match_state,
    next_round,
    seeding_order,
    third_place,
)


def test_standard_seeding_order() -> None:
    # The usual bracket order (as in tennis draws and chess knockouts): 1-8, 4-5 | 2-7, 3-6.
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_six_players_give_byes_to_seeds_one_and_two() -> None:
    pairs = first_round(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert pairs == [KnockoutPair("s1", None), KnockoutPair("s4", "s5"), KnockoutPair("s2", None),
                     KnockoutPair("s3", "s6")]


@given(st.integers(min_value=2, max_value=70))
def test_byes_fall_to_the_top_seeds_and_favourites_meet_in_the_final(players: int) -> None:
    seeds = list(range(1, players + 1))
    pairs = first_round(seeds)
    size = 2 * len(pairs)
    assert size >= players > size // 2
    assert sorted(p.high for p in pairs if p.low is None) == seeds[: size - players]
    # If the better seed always wins, the semi-finalists are 1-4 and the final is 1 against 2.
    while len(pairs) > 1:
        winners = [p.high for p in pairs]
        if len(winners) == 4:
            assert sorted(winners) == [1, 2, 3, 4]
        pairs = next_round(winners, seeds)
    assert (pairs[0].high, pairs[0].low) == (1, 2)


def test_a_drawn_game_is_replayed_with_sides_swapped_then_the_seed_decides() -> None:
    pair = KnockoutPair(high=1, low=9)
    assert match_state(pair, []).seats == (1, 9)
    assert match_state(pair, [0.5]).seats == (9, 1)
    after_two_draws = match_state(pair, [0.5, 0.5])
    assert after_two_draws.winner == 1 and after_two_draws.by_seed and after_two_draws.seats is None
    assert match_state(pair, [0.5, 0.0]).winner == 9
    assert match_state(pair, [0.0]).winner == 9 and not match_state(pair, [0.0]).by_seed
    assert match_state(pair, [1.0]).winner == 1
    assert match_state(KnockoutPair(3, None), []).winner == 3


def test_next_round_puts_the_better_seed_first() -> None:
    assert next_round([5, 2], [1, 2, 3, 4, 5]) == [KnockoutPair(2, 5)]


def test_impossible_matches_are_refused() -> None:
    with pytest.raises(ValueError):
        match_state(KnockoutPair(1, 2), [0.5, 0.5, 0.5])
    with pytest.raises(ValueError):
        first_round([1])
    with pytest.raises(ValueError):
        seeding_order(6)


def test_exit_places_are_shared_by_round() -> None:
    assert [exit_place(8, r) for r in (3, 2, 1)] == [2, 3, 5]
    assert exit_place(6, 1) == 5 and exit_place(2, 1) == 2
    with pytest.raises(ValueError):
        exit_place(8, 4)


def test_a_match_of_three_games_stops_once_decided_and_levels_go_to_a_tie_break_game() -> None:
    # Issue 26: matches of 1, 2 or 3 games. The sides alternate (better seed first in game 1); the match
    # stops when one player cannot be caught; level after its games, one tie-break game, the sides still
    # alternating; a drawn tie-break game sends the better seed through.
    pair = KnockoutPair(high=1, low=9)
    assert match_state(pair, [], 3).seats == (1, 9)
    assert match_state(pair, [1.0], 3).seats == (9, 1)
    assert match_state(pair, [1.0, 1.0], 3).winner == 1  # 2-0 with one to play: decided
    assert match_state(pair, [0.0, 0.0], 3).winner == 9
    assert match_state(pair, [1.0, 0.5], 3).seats == (1, 9)  # 1½-½: game 3 can still level it
    assert match_state(pair, [1.0, 0.5, 0.0], 3).seats == (9, 1)  # 1½-1½: the tie-break game
    assert match_state(pair, [1.0, 0.5, 0.0, 0.0], 3).winner == 9
    decided = match_state(pair, [0.5, 0.5, 0.5, 0.5], 3)
    assert decided.winner == 1 and decided.by_seed
    assert match_state(pair, [0.5, 0.5, 1.0], 3).winner == 1 and not match_state(pair, [0.5, 0.5, 1.0], 3).by_seed
    with pytest.raises(ValueError):
        match_state(pair, [0.5] * 5, 3)


def test_a_match_of_two_games_needs_both_and_a_split_goes_to_the_tie_break_game() -> None:
    pair = KnockoutPair(high=2, low=7)
    assert match_state(pair, [1.0], 2).seats == (7, 2)  # one win of two is not yet a match
    assert match_state(pair, [1.0, 0.5], 2).winner == 2
    assert match_state(pair, [1.0, 0.0], 2).seats == (2, 7)  # 1-1: the tie-break game, better seed first
    assert match_state(pair, [1.0, 0.0, 0.0], 2).winner == 7
    assert match_state(pair, [0.5, 0.5, 0.5], 2).by_seed
    with pytest.raises(ValueError):
        match_state(pair, [], 4)


def test_the_third_place_match_pairs_the_semi_finals_losers_better_seed_first() -> None:
    semis = [KnockoutPair(1, 4), KnockoutPair(2, 3)]
    assert third_place(semis, [4, 2], [1, 2, 3, 4]) == KnockoutPair(1, 3)
    assert third_place(semis, [1, 3], [1, 2, 3, 4]) == KnockoutPair(2, 4)
    assert third_place([KnockoutPair(1, None), KnockoutPair(2, 3)], [1, 2], [1, 2, 3]) is None


def test_a_match_that_sent_nobody_on_gives_its_neighbour_a_walkover() -> None:
    # Two withdrawn players due to meet send nobody on (None): the player due to meet their match's winner goes
    # through on a walkover (a pair without a second player, like a bye); two empty neighbours leave an empty match
    # so the bracket keeps its positions.
    assert next_round([None, 3, 2, 5], [1, 2, 3, 4, 5]) == [KnockoutPair(3, None), KnockoutPair(2, 5)]
    assert next_round([None, None, 2, 5], [1, 2, 3, 4, 5]) == [None, KnockoutPair(2, 5)]
    assert MatchState(None, None).decided and not MatchState((1, 2), None).decided
