"""Round robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Players are numbered 1..n by draw or seed. With an odd count a dummy n+1 is added; whoever meets the
dummy sits the round out (a round-robin bye scores nothing: everybody gets exactly one). The table:

- player n (the highest number) meets, in round r, player ``(r-1)·n/2 mod (n-1) + 1``, taking the
  first seat ("white") in even rounds and the second in odd rounds;
- every other board k (k = 2..n/2) pairs ``opp + (k-1)`` (first seat) with ``opp - (k-1)``, counted
  cyclically over 1..n-1, where ``opp`` is that round's opponent of player n.

This is the rotation that generates the published tables; tests compare it with them for 4, 5, 6
and 8 players. A double round robin plays the table twice, the second time with sides reversed;
as FIDE recommends (C.05 Annex 1), the last two rounds of the first cycle only are swapped, so nobody
gets the same side three times running (the second cycle keeps the table's order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from host.tournaments.pairing.model import EntrantId, Game, forfeit


def berger_round(players: int, round_: int) -> list[tuple[int, int]]:
    """Board list of round ``round_`` (1-based) for ``players`` numbers, odd counts padded with a dummy."""
    n = players + players % 2
    if n < 2 or not 1 <= round_ <= n - 1:
        raise ValueError("a Berger round needs 2+ players and a round from 1 to n-1")
    cycle = n - 1
    opponent = (round_ - 1) * (n // 2) % cycle + 1
    boards = [(n, opponent) if round_ % 2 == 0 else (opponent, n)]
    for k in range(1, n // 2):
        boards.append(((opponent - 1 + k) % cycle + 1, (opponent - 1 - k) % cycle + 1))
    return boards


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """Every round of the single round robin, by player number (the dummy is ``players + 1`` when odd)."""
    n = players + players % 2
    return [berger_round(players, r) for r in range(1, n)]


@dataclass(frozen=True)
class RoundRobinRound:
    round: int
    boards: tuple[tuple[EntrantId, EntrantId], ...]
    """``(first seat, second seat)`` per board."""
    bye: EntrantId | None


def round_robin(entrants: Sequence[EntrantId], cycles: int = 1) -> list[RoundRobinRound]:
    """The whole schedule; ``entrants`` in draw order (entrant i gets number i+1)."""
    if len(set(entrants)) != len(entrants) or len(entrants) < 2:
        raise ValueError("a round robin needs two or more distinct entrants")
    if cycles not in (1, 2):
        raise ValueError("one or two cycles")
    table = berger_table(len(entrants))
    if cycles == 2:  # the second cycle is the table itself, sides reversed; only the first cycle is swapped
        first = list(table)
        if len(first) >= 2:
            first[-2], first[-1] = first[-1], first[-2]
        table = first + [[(b, a) for a, b in boards] for boards in table]
    schedule = []
    for index, boards in enumerate(table, start=1):
        pairs, bye = [], None
        for a, b in boards:
            if max(a, b) > len(entrants):
                bye = entrants[min(a, b) - 1]
            else:
                pairs.append((entrants[a - 1], entrants[b - 1]))
        schedule.append(RoundRobinRound(index, tuple(pairs), bye))
    return schedule


def withdrawal_forfeits(schedule: Sequence[RoundRobinRound], entrant: EntrantId, from_round: int) -> list[Game]:
    """The games a withdrawn entrant forfeits: every scheduled game from ``from_round`` on, lost to them."""
    return [
        forfeit(scheduled.round, first, second, entrant)
        for scheduled in schedule
        if scheduled.round >= from_round
        for first, second in scheduled.boards
        if entrant in (first, second)
    ]
