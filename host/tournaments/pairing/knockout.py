"""Knockout: a seeded bracket with byes to the top seeds, and how a drawn match is settled.

- The bracket size is the next power of two. Seeds are placed in the standard order (1, 8, 4, 5, 2, 7,
  3, 6 for eight), so seeds 1 and 2 can meet only in the final, 1-4 only in a semi-final, and so on.
  Missing seeds (above the entrant count) are byes, which therefore fall to the top seeds.
- A match is 1, 2 or 3 games (``games``), the sides alternating with the better seed first in game 1; it
  stops as soon as one player cannot be caught. Level after its games, one **tie-break game** follows,
  the sides still alternating (so a one-game match replays a draw with the sides swapped); a drawn
  tie-break game sends the better seed through. Timeouts and resignations are ordinary losses.
- A third-place match (optional) pairs the semi-finals' losers in the final round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host.tournaments.pairing.model import DRAW, LOSS, WIN, EntrantId

MAX_GAMES = 2
"""A one-game match with its tie-break game."""
MATCH_GAMES = (1, 2, 3)


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seed numbers in bracket order: neighbours meet first; 1 and 2 sit in opposite halves."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size is a power of two")
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, span - top)]
    return order


@dataclass(frozen=True)
class KnockoutPair:
    """One match: ``high`` is the better seed; ``low`` is ``None`` for a bye (``high`` goes through)."""

    high: EntrantId
    low: EntrantId | None


def first_round(entrants: Sequence[EntrantId]) -> list[KnockoutPair]:
    """Round 1 in bracket order; ``entrants`` in seed order (seed 1 first)."""
    if len(entrants) < 2 or len(set(entrants)) != len(entrants):
        raise ValueError("a knockout needs two or more distinct entrants")
    order = seeding_order(bracket_size(len(entrants)))
    pairs = []
    for a, b in zip(order[::2], order[1::2], strict=True):
        high, low = min(a, b), max(a, b)
        pairs.append(KnockoutPair(entrants[high - 1], entrants[low - 1] if low <= len(entrants) else None))
    return pairs


def next_round(winners: Sequence[EntrantId | None], seeds: Sequence[EntrantId]) -> list[KnockoutPair | None]:
    """Pair the previous round's winners (in bracket order) neighbour with neighbour.

    A ``None`` winner is a match that sent nobody on (two withdrawn players): its neighbour goes through on a
    walkover (a pair with ``low`` None, like a bye); two such neighbours leave the match empty (``None``), so
    the bracket keeps its positions."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("the next round needs an even number of winners, two or more")
    rank = {entrant: index for index, entrant in enumerate(seeds)}
    pairs: list[KnockoutPair | None] = []
    for a, b in zip(winners[::2], winners[1::2], strict=True):
        if a is None or b is None:
            pairs.append(None if a is None and b is None else KnockoutPair(a if b is None else b, None))
            continue
        high, low = (a, b) if rank[a] < rank[b] else (b, a)
        pairs.append(KnockoutPair(high, low))
    return pairs


@dataclass(frozen=True)
class MatchState:
    """Either the next game to play (``seats``) or the ``winner``; ``by_seed`` when two draws decided it. Neither
    (both None): decided with nobody through (a match of two withdrawn players)."""

    seats: tuple[EntrantId, EntrantId] | None
    winner: EntrantId | None
    by_seed: bool = False

    @property
    def decided(self) -> bool:
        """No game is owed: the match has its winner, or sends nobody on."""
        return self.seats is None


def match_state(pair: KnockoutPair, high_points: Sequence[float], games: int = 1) -> MatchState:
    """Where a match of ``games`` games (plus a tie-break game) stands after games in which the better seed
    scored ``high_points`` (1, ½ or 0 each)."""
    if games not in MATCH_GAMES:
        raise ValueError("a knockout match is 1, 2 or 3 games")
    if pair.low is None:
        return MatchState(None, pair.high)
    if len(high_points) > games + 1 or any(points not in (WIN, DRAW, LOSS) for points in high_points):
        raise ValueError(f"a knockout match of {games} is at most {games + 1} games scored 1, ½ or 0")
    high = low = 0.0
    for played, points in enumerate(high_points, start=1):
        high, low = high + points, low + WIN - points
        left = max(games - played, 0)
        if played > games or abs(high - low) > left * WIN:
            if high != low:
                return MatchState(None, pair.high if high > low else pair.low)
            if played > games:  # the tie-break game drawn too
                return MatchState(None, pair.high, by_seed=True)
    seats = (pair.high, pair.low) if len(high_points) % 2 == 0 else (pair.low, pair.high)
    return MatchState(seats, None)


def third_place(semi_finals: Sequence[KnockoutPair], semi_winners: Sequence[EntrantId],
                seeds: Sequence[EntrantId]) -> KnockoutPair | None:
    """The semi-finals' losers paired for third place, the better seed first (None after a bye)."""
    losers = [p.low if w == p.high else p.high for p, w in zip(semi_finals, semi_winners, strict=True)]
    if len(losers) != 2 or None in losers:
        return None
    rank = {entrant: index for index, entrant in enumerate(seeds)}
    a, b = (e for e in losers if e is not None)
    return KnockoutPair(a, b) if rank[a] < rank[b] else KnockoutPair(b, a)


def exit_place(entrants: int, round_lost: int) -> int:
    """The place shared by everyone knocked out in ``round_lost`` (1-based); the final's loser is 2nd.

    Losers of the semi-finals share 3rd, of the quarter-finals 5th, and so on (no play-off for places).
    """
    rounds = bracket_size(entrants).bit_length() - 1
    if not 1 <= round_lost <= rounds:
        raise ValueError("no such round in this bracket")
    return 2 ** (rounds - round_lost) + 1
