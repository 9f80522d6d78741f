"""Time controls as pure data: parsing, turn starts, live clocks, vacations, formatting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from host.correspondence import clocks
from host.correspondence.clocks import DAY, MINUTE, ClockState, parse

T0 = 1_800_000_000.0


def test_every_offered_choice_parses_and_others_are_refused() -> None:
    assert parse("none").kind == "none" and parse(None).kind == "none"
    assert parse("2d").per_move == 2 * DAY and parse("2d").kind == "days"
    assert parse(" 14D ").per_move == 14 * DAY
    live = parse("10m+5s")
    assert live.kind == "live" and live.initial == 10 * MINUTE and live.increment == 5
    assert parse("30m").increment == 0
    for bad in ("4d", "0d", "1h", "10m+", "fast", "5m+5s"):
        with pytest.raises(ValueError, match="clock must be one of"):
            parse(bad)
    assert [parse(c).text for c in clocks.CHOICES] == list(clocks.CHOICES)


def test_descriptions_name_the_time_that_runs_out() -> None:
    assert parse("1d").describe() == "1 day per move"
    assert parse("7d").describe() == "7 days per move"
    assert parse("10m+5s").describe() == "10 min + 5 s live clock"
    assert parse("5m").describe() == "5 min live clock"


def test_per_move_deadline_starts_when_the_turn_begins() -> None:
    tc = parse("2d")
    state = clocks.advance(tc, ClockState(), movers=[0], acted=[], seats=2, now=T0)
    assert clocks.seat_deadline(tc, state, 0) == T0 + 2 * DAY
    assert clocks.seat_deadline(tc, state, 1) is None
    assert clocks.reminder_time(tc, state, 0) == T0 + 1.5 * DAY
    later = clocks.advance(tc, state, movers=[1], acted=[0], seats=2, now=T0 + 3600)
    assert later.started == {1: T0 + 3600}
    assert clocks.seat_deadline(tc, later, 1) == T0 + 3600 + 2 * DAY


def test_simultaneous_movers_keep_their_own_turn_start() -> None:
    tc = parse("1d")
    state = clocks.advance(tc, ClockState(), movers=[0, 1], acted=[], seats=2, now=T0)
    after_bid = clocks.advance(tc, state, movers=[1], acted=[0], seats=2, now=T0 + 500)
    assert after_bid.started == {1: T0}
    again = clocks.advance(tc, after_bid, movers=[1], acted=[1], seats=2, now=T0 + 900)
    assert again.started == {1: T0 + 900}


def test_live_clocks_charge_the_mover_and_add_the_increment() -> None:
    tc = parse("10m+5s")
    state = clocks.advance(tc, ClockState(), movers=[0], acted=[], seats=2, now=T0)
    assert state.remaining == {0: 600, 1: 600}
    state = clocks.advance(tc, state, movers=[1], acted=[0], seats=2, now=T0 + 100)
    assert state.remaining == {0: 505, 1: 600}
    assert clocks.seat_deadline(tc, state, 1) == T0 + 100 + 600
    assert clocks.time_left(tc, state, 0, T0 + 150) == 505  # off turn: banked time
    state = clocks.advance(tc, state, movers=[0], acted=[1], seats=2, now=T0 + 400)
    assert state.remaining == {0: 505, 1: 305}
    assert clocks.seat_deadline(tc, state, 0) == T0 + 400 + 505
    assert clocks.reminder_time(tc, state, 0) is None


def test_state_round_trips_through_json() -> None:
    tc = parse("5m")
    state = clocks.advance(tc, ClockState(), movers=[0, 2], acted=[], seats=3, now=T0)
    assert ClockState.from_json(state.to_json()) == state
    assert ClockState.from_json(None) == ClockState()


def test_a_vacation_pushes_the_deadline_back_by_its_overlap() -> None:
    turn = T0
    assert clocks.paused_deadline(turn, DAY, []) == turn + DAY
    # Taken half-way through the turn: the rest of the turn waits for the vacation to end.
    assert clocks.paused_deadline(turn, DAY, [(turn + DAY / 2, turn + 3 * DAY)]) == turn + 3.5 * DAY
    # Already running when the turn began: only the part after the turn start counts.
    assert clocks.paused_deadline(turn, DAY, [(turn - DAY, turn + DAY)]) == turn + 2 * DAY
    # Over before the turn began, or starting after the deadline: no effect.
    assert clocks.paused_deadline(turn, DAY, [(turn - 3 * DAY, turn - DAY)]) == turn + DAY
    assert clocks.paused_deadline(turn, DAY, [(turn + 2 * DAY, turn + 4 * DAY)]) == turn + DAY


def test_overlapping_vacations_pause_a_clock_once() -> None:
    """Two requests that raced left two identical rows: the clock is paused for the days, not twice over."""
    turn = T0
    twice = [(turn, turn + 14 * DAY), (turn, turn + 14 * DAY)]
    assert clocks.paused_deadline(turn, DAY, twice) == turn + 15 * DAY
    # Partly overlapping, and one inside another: only the time they cover between them counts.
    assert clocks.paused_deadline(turn, DAY, [(turn, turn + 2 * DAY), (turn + DAY, turn + 3 * DAY)]) == turn + 4 * DAY
    assert clocks.paused_deadline(turn, DAY, [(turn, turn + 3 * DAY), (turn + DAY, turn + 2 * DAY)]) == turn + 4 * DAY
    # Back to back (a vacation continuing a running one): both count in full.
    assert clocks.paused_deadline(turn, DAY, [(turn, turn + DAY), (turn + DAY, turn + 2 * DAY)]) == turn + 3 * DAY


def test_live_clocks_ignore_vacations() -> None:
    tc = parse("30m")
    state = clocks.advance(tc, ClockState(), movers=[0], acted=[], seats=2, now=T0)
    assert clocks.seat_deadline(tc, state, 0, [(T0, T0 + 5 * DAY)]) == T0 + 1800


def test_vacation_allowance_is_fourteen_days_a_year() -> None:
    clocks.check_vacation(14, 0, 2027)
    clocks.check_vacation(4, 10, 2027)
    with pytest.raises(ValueError, match="4 vacation day"):
        clocks.check_vacation(5, 10, 2027)
    with pytest.raises(ValueError, match="1 to 14"):
        clocks.check_vacation(0, 0, 2027)
    with pytest.raises(ValueError, match="1 to 14"):
        clocks.check_vacation(15, 0, 2027)
    assert clocks.year_of(T0) == 2027


def test_durations_show_two_units() -> None:
    assert clocks.format_duration(2 * DAY + 3 * 3600 + 59) == "2d 3h"
    assert clocks.format_duration(5 * 3600 + 12 * 60) == "5h 12m"
    assert clocks.format_duration(245) == "4m 05s"
    assert clocks.format_duration(-3) == "0s"


@given(st.lists(st.tuples(st.floats(0, 10 * DAY), st.floats(0, 10 * DAY)), max_size=4),
       st.floats(DAY, 14 * DAY))
def test_a_vacation_never_shortens_a_turn_nor_adds_more_than_its_length(spans: list[tuple[float, float]],
                                                                         per_move: float) -> None:
    vacations = [(T0 + min(a, b), T0 + max(a, b)) for a, b in spans]
    deadline = clocks.paused_deadline(T0, per_move, vacations)
    assert T0 + per_move <= deadline <= T0 + per_move + sum(end - start for start, end in vacations) + 1e-6
