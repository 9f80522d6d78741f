"""The plain records every pairing and scoring function shares: played games, forfeits and byes.

An entrant is an ``int`` (a Discord user id or a reserved AI id). A list of entrants is always given
in initial rank order (seed 1 first): that order breaks every tie, so the same inputs always give
the same pairings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

EntrantId = int

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


@dataclass(frozen=True)
class Game:
    """One table's result in one round.

    ``seats`` are in seat order (seat 0 = first player, "white" in a 2-player game); ``points`` are what
    each seat scored (1/½/0 for two players, placing points for 3-4). A ``forfeit`` was never played
    (a withdrawal or removal): the points stand, but it gives no side and Swiss tie-breaks treat it as
    unplayed. Timeouts and resignations are played games, not forfeits.
    """

    round: int
    seats: tuple[EntrantId, ...]
    points: tuple[float, ...]
    forfeit: bool = False

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.points) or len(self.seats) < 2:
            raise ValueError("a game needs at least two seats and one score per seat")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError("an entrant sits at most once at a table")

    def points_of(self, entrant: EntrantId) -> float:
        return self.points[self.seats.index(entrant)]


@dataclass(frozen=True)
class Bye:
    """A round without a game: a pairing bye (worth a win in Swiss) or the round-robin dummy (0)."""

    round: int
    entrant: EntrantId
    points: float = WIN


Result = Game | Bye


def two_player(round_: int, first: EntrantId, second: EntrantId, first_points: float, forfeit: bool = False) -> Game:
    """A 2-player game from the first seat's score (1, ½ or 0): the common case, spelled shortly."""
    if first_points not in (WIN, DRAW, LOSS):
        raise ValueError("a 2-player game scores 1, ½ or 0")
    return Game(round_, (first, second), (first_points, WIN - first_points), forfeit)


def placing_points(ranks: Sequence[int], table_size: int) -> tuple[float, ...]:
    """Points by placing for a table of 2-4, scaled to the event's full ``table_size``.

    ``ranks`` are the engine's places (1 = first, tied seats share a rank). At a full table the points
    are ``size-1, ..., 1, 0`` (3/2/1/0 for four, 2/1/0 for three, 1/0 for two). A smaller table (the
    event could not be split evenly) spreads the same range over fewer places, so first is always worth
    ``table_size - 1``, last 0 and the table average is always half a win: 3/1.5/0 at a table of three
    in a four-player event. Tied places share the points of the places they cover.
    """
    seats = len(ranks)
    if not 2 <= seats <= table_size:
        raise ValueError("a table seats between 2 and the event's table size")
    top = float(table_size - 1)
    step = top / (seats - 1)
    order = sorted(range(seats), key=lambda i: ranks[i])
    points = [0.0] * seats
    place = 0
    while place < seats:
        tied = [i for i in order if ranks[i] == ranks[order[place]]]
        share = sum(top - step * p for p in range(place, place + len(tied))) / len(tied)
        for i in tied:
            points[i] = share
        place += len(tied)
    return tuple(points)


def win_points(table_size: int) -> float:
    """What a win (first place, or a Swiss bye) is worth in an event of this table size."""
    return float(table_size - 1)


def seeded_order(entrants: Sequence[EntrantId], seed: str) -> list[EntrantId]:
    """A reproducible shuffle for unrated events: same entrants and seed, same order, no ``random``."""
    return sorted(entrants, key=lambda e: hashlib.sha256(f"{seed}:{e}".encode()).digest())


def total_points(results: Sequence[Result], entrants: Sequence[EntrantId] = ()) -> dict[EntrantId, float]:
    """Each entrant's points so far (games, forfeits and byes); every listed entrant appears, even on 0."""
    totals = dict.fromkeys(entrants, 0.0)
    for result in results:
        if isinstance(result, Bye):
            totals[result.entrant] = totals.get(result.entrant, 0.0) + result.points
        else:
            for entrant, points in zip(result.seats, result.points, strict=True):
                totals[entrant] = totals.get(entrant, 0.0) + points
    return totals


def opponents_met(results: Sequence[Result]) -> dict[EntrantId, set[EntrantId]]:
    """Who sat at a played table with whom: forfeits are not meetings, so such players may still meet."""
    met: dict[EntrantId, set[EntrantId]] = {}
    for result in results:
        if isinstance(result, Game) and not result.forfeit:
            for entrant in result.seats:
                met.setdefault(entrant, set()).update(e for e in result.seats if e != entrant)
    return met


def forfeit(round_: int, first: EntrantId, second: EntrantId, absent: EntrantId) -> Game:
    """An unplayed 2-player game lost by ``absent`` (withdrawn or removed): a win to the other player."""
    if absent not in (first, second):
        raise ValueError("the absent player must be one of the two")
    return two_player(round_, first, second, LOSS if absent == first else WIN, forfeit=True)
