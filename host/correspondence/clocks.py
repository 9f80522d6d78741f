"""Time controls as data: parsing, per-seat turn clocks, deadlines, reminders and vacation pauses.

Pure functions over small dataclasses, so the rules of time are tested without a database or
Discord. Times are UNIX seconds (floats); the host passes its injectable ``now`` in.

A clock state remembers when each seat to move began its turn (``started``) and, for live clocks,
how much time each seat had left at that moment (``remaining``). Seats moving simultaneously each
run their own clock.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0
CHOICES = ("none", "1d", "2d", "3d", "7d", "14d", "5m", "10m+5s", "30m")
"""The time controls players can pick; the slash command offers exactly these."""
VACATION_DAYS_PER_YEAR = 14
REMINDER_FRACTION = 0.25
"""A reminder goes out when this fraction of the move time is left."""

Vacation = tuple[float, float]
"""A pause of a player's per-move clocks: (start, end)."""


@dataclass(frozen=True)
class TimeControl:
    """``none``; days per move (``per_move``); or a live clock (``initial`` per player plus ``increment``)."""

    text: str = "none"
    per_move: float | None = None
    initial: float | None = None
    increment: float = 0.0

    @property
    def kind(self) -> str:
        if self.per_move is not None:
            return "days"
        return "live" if self.initial is not None else "none"

    def describe(self) -> str:
        """How the control is named in captions, e.g. ``2 days per move`` or ``10 min + 5 s live clock``."""
        if self.per_move is not None:
            days = round(self.per_move / DAY)
            return f"{days} day{'s' if days != 1 else ''} per move"
        if self.initial is not None:
            extra = f" + {self.increment:g} s" if self.increment else ""
            return f"{self.initial / MINUTE:g} min{extra} live clock"
        return "no clock"


NO_CLOCK = TimeControl()
_PATTERN = re.compile(r"^(?:(?P<days>\d+)d|(?P<minutes>\d+)m(?:\+(?P<inc>\d+)s)?)$")


def parse(text: str | None) -> TimeControl:
    """Read a time control; anything but the offered ``CHOICES`` is refused with the list."""
    cleaned = (text or "none").strip().lower().replace(" ", "")
    match = _PATTERN.match(cleaned)
    if cleaned not in CHOICES or (cleaned != "none" and match is None):
        raise ValueError(f"clock must be one of {', '.join(CHOICES)}, not {text!r}")
    if cleaned == "none" or match is None:
        return NO_CLOCK
    if match["days"]:
        return TimeControl(cleaned, per_move=int(match["days"]) * DAY)
    return TimeControl(cleaned, initial=int(match["minutes"]) * MINUTE, increment=float(match["inc"] or 0))


@dataclass(frozen=True)
class ClockState:
    """When each seat to move began its turn, and live time left per seat at that moment."""

    started: dict[int, float] = field(default_factory=dict)
    remaining: dict[int, float] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({"started": {str(s): t for s, t in self.started.items()},
                           "remaining": {str(s): t for s, t in self.remaining.items()}})

    @classmethod
    def from_json(cls, text: str | None) -> ClockState:
        if not text:
            return cls()
        data = json.loads(text)
        return cls({int(s): float(t) for s, t in data.get("started", {}).items()},
                   {int(s): float(t) for s, t in data.get("remaining", {}).items()})


def advance(tc: TimeControl, state: ClockState, *, movers: Iterable[int], acted: Iterable[int], seats: int,
            now: float) -> ClockState:
    """The state after a change: seats that moved or stopped moving are charged; new turns start now.

    A seat still to move that did not act keeps its turn start (simultaneous moves); a seat that
    acted and is to move again starts a new turn. Live clocks charge the time used and add the increment.
    """
    movers, acted = set(movers), set(acted)
    remaining = dict(state.remaining)
    if tc.initial is not None:
        for seat in range(seats):
            remaining.setdefault(seat, tc.initial)
    started: dict[int, float] = {}
    for seat, since in state.started.items():
        if seat in movers and seat not in acted:
            started[seat] = since
        elif tc.initial is not None:
            remaining[seat] = remaining[seat] - (now - since) + (tc.increment if seat in acted else 0.0)
    for seat in movers:
        started.setdefault(seat, now)
    return ClockState(started, remaining if tc.initial is not None else {})


def paused_deadline(turn_start: float, per_move: float, vacations: Sequence[Vacation]) -> float:
    """``turn_start + per_move``, pushed back by every vacation that begins before the clock runs out.

    Time covered by several vacations at once (two requests that raced, say) pauses the clock once: each
    vacation adds only what it adds beyond the ones before it."""
    deadline = turn_start + per_move
    paused_until = turn_start
    for start, end in sorted(vacations):
        start = max(start, paused_until)
        if start < deadline and end > start:
            deadline += end - start
            paused_until = end
    return deadline


def seat_deadline(tc: TimeControl, state: ClockState, seat: int, vacations: Sequence[Vacation] = ()) -> float | None:
    """When ``seat`` runs out of time on its current turn; ``None`` without a clock or off turn."""
    since = state.started.get(seat)
    if since is None:
        return None
    if tc.per_move is not None:
        return paused_deadline(since, tc.per_move, vacations)
    if tc.initial is not None:
        return since + state.remaining.get(seat, tc.initial)
    return None


def reminder_time(tc: TimeControl, state: ClockState, seat: int, vacations: Sequence[Vacation] = ()) -> float | None:
    """When a quarter of the move time is left. Live games get none: their players are at the board."""
    deadline = seat_deadline(tc, state, seat, vacations)
    if deadline is None or tc.per_move is None:
        return None
    return deadline - tc.per_move * REMINDER_FRACTION


def time_left(tc: TimeControl, state: ClockState, seat: int, now: float,
              vacations: Sequence[Vacation] = ()) -> float | None:
    """Seconds before ``seat`` runs out (for a live seat off turn: its banked time)."""
    deadline = seat_deadline(tc, state, seat, vacations)
    if deadline is not None:
        return deadline - now
    if tc.initial is not None:
        return state.remaining.get(seat, tc.initial)
    return None


def year_of(when: float) -> int:
    """Vacation allowances are per calendar year (UTC) of the day the vacation starts."""
    return datetime.fromtimestamp(when, UTC).year


def check_vacation(days: int, used_that_year: int, year: int) -> None:
    """Refuse a vacation that is not 1-14 days or would go over the allowance of the ``year`` it starts in."""
    if not 1 <= days <= VACATION_DAYS_PER_YEAR:
        raise ValueError(f"A vacation is 1 to {VACATION_DAYS_PER_YEAR} days.")
    left = VACATION_DAYS_PER_YEAR - used_that_year
    if days > left:
        raise ValueError(f"You have {max(left, 0)} vacation day(s) left in {year}; {days} is too many.")


def format_duration(seconds: float) -> str:
    """Two units at most, rounded down: ``2d 3h``, ``5h 12m``, ``4m 05s``; negative shows as ``0s``."""
    total = max(int(seconds), 0)
    days, rest = divmod(total, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    minutes, secs = divmod(rest, int(MINUTE))
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"
