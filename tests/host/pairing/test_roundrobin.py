"""Round robin against the published FIDE Berger tables, plus properties of every schedule."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.tournaments.pairing.model import total_points
from host.tournaments.pairing.roundrobin import berger_round, berger_table, round_robin, withdrawal_forfeits

# FIDE Handbook C.05 General Regulations for Competitions, Annex 1 "Berger Tables for Round-Robin
# Tournaments", as reproduced at http://c.w.fox.tripod.com/chess/berger.html ("Chris Fox's Chess
# Section: Berger Tables") and in the "Crenshaw-Berger Tables" sheet (scribd 381712253). "a-b" means
# a has white; with an odd count the highest number is the bye.
PUBLISHED = {
    4: """1-4 2-3
          4-3 1-2
          2-4 3-1""",
    6: """1-6 2-5 3-4
          6-4 5-3 1-2
          2-6 3-1 4-5
          6-5 1-4 2-3
          3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5
          8-5 6-4 7-3 1-2
          2-8 3-1 4-7 5-6
          8-6 7-5 1-4 2-3
          3-8 4-2 5-1 6-7
          8-7 1-6 2-5 3-4
          4-8 5-3 6-2 7-1""",
}


def parse(text: str) -> list[list[tuple[int, int]]]:
    return [[tuple(int(x) for x in board.split("-")) for board in line.split()] for line in text.splitlines()]


@pytest.mark.parametrize("players", [4, 6, 8])
def test_berger_tables_match_the_fide_handbook(players: int) -> None:
    assert berger_table(players) == parse(PUBLISHED[players])


@pytest.mark.parametrize(("players", "table"), [(3, 4), (5, 6), (7, 8)])
def test_an_odd_count_uses_the_next_table_with_the_top_number_as_bye(players: int, table: int) -> None:
    assert berger_table(players) == parse(PUBLISHED[table])


def test_five_players_by_name_sit_out_once_each_as_the_published_table_says() -> None:
    schedule = round_robin(["A", "B", "C", "D", "E"])
    # Published 5-or-6 table, number 6 = bye: round 1 1-6, 2-5, 3-4 -> A sits out, B-E, C-D.
    assert schedule[0].bye == "A" and schedule[0].boards == (("B", "E"), ("C", "D"))
    # round 2 6-4, 5-3, 1-2 -> D sits out, E-C, A-B.
    assert schedule[1].bye == "D" and schedule[1].boards == (("E", "C"), ("A", "B"))
    assert [r.bye for r in schedule] == ["A", "D", "B", "E", "C"]


@given(st.integers(min_value=2, max_value=24))
def test_every_pair_meets_exactly_once_and_nobody_twice_a_round(players: int) -> None:
    schedule = round_robin(list(range(100, 100 + players)))
    meetings = [frozenset(board) for r in schedule for board in r.boards]
    assert sorted(meetings, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(100, 100 + players), 2)), key=sorted
    )
    for scheduled in schedule:
        seated = [e for board in scheduled.boards for e in board] + ([scheduled.bye] if scheduled.bye else [])
        assert sorted(seated) == list(range(100, 100 + players))
    byes = [r.bye for r in schedule if r.bye is not None]
    assert sorted(byes) == (list(range(100, 100 + players)) if players % 2 else [])


@given(st.integers(min_value=2, max_value=24))
def test_sides_are_balanced_within_one_and_never_three_in_a_row(players: int) -> None:
    schedule = round_robin(list(range(players)))
    for player in range(players):
        sides = [0 if board[0] == player else 1 for r in schedule for board in r.boards if player in board]
        assert abs(sides.count(0) - sides.count(1)) <= 1
        assert all(len(set(sides[i:i + 3])) > 1 for i in range(len(sides) - 2))


@given(st.integers(min_value=3, max_value=16))
def test_double_round_robin_reverses_sides_and_avoids_three_in_a_row(players: int) -> None:
    schedule = round_robin(list(range(players)), cycles=2)
    boards = [board for r in schedule for board in r.boards]
    assert sorted(boards) == sorted((a, b) for a in range(players) for b in range(players) if a != b)
    for player in range(players):
        sides = [0 if board[0] == player else 1 for r in schedule for board in r.boards if player in board]
        assert all(len(set(sides[i:i + 3])) > 1 for i in range(len(sides) - 2))


def test_double_round_robin_of_four_swaps_the_first_cycle_only_as_fide_recommends() -> None:
    # Berger 4: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1. First cycle R1 R3 R2; second cycle R1 R2 R3 reversed.
    schedule = round_robin([1, 2, 3, 4], cycles=2)
    assert [r.boards for r in schedule] == [
        ((1, 4), (2, 3)), ((2, 4), (3, 1)), ((4, 3), (1, 2)),
        ((4, 1), (3, 2)), ((3, 4), (2, 1)), ((4, 2), (1, 3))]
    for player in (1, 2, 3, 4):
        sides = [board.index(player) for r in schedule for board in r.boards if player in board]
        assert all(len(set(sides[i:i + 3])) > 1 for i in range(len(sides) - 2)), (player, sides)


def test_withdrawal_forfeits_the_remaining_games_as_losses() -> None:
    schedule = round_robin([1, 2, 3, 4])
    games = withdrawal_forfeits(schedule, 3, from_round=2)
    assert [(g.round, g.seats) for g in games] == [(2, (4, 3)), (3, (3, 1))]
    assert all(g.forfeit and g.points_of(3) == 0.0 for g in games)
    assert total_points(games, [1, 2, 3, 4]) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 1.0}


def test_bad_rounds_are_refused() -> None:
    with pytest.raises(ValueError):
        berger_round(4, 4)
    with pytest.raises(ValueError):
        round_robin([1])
