"""Swiss tables for 3-4 player games (Zarathustra, Ziggurat): similar scores together, few rematches.

1. Table sizes: as many entrants seated as possible, in as few tables as possible, using the sizes the
   event allows (e.g. 4 and 3): 10 players at sizes (4, 3) give 4+3+3; 5 players give 4 and a bye.
2. Byes (only when nobody can be seated otherwise) go to the lowest-ranked players who have had none,
   worth a win as in 2-player Swiss: record ``Bye(round, entrant, win_points(table size))``. Only such
   pairing-allocated byes count as had: a requested half-point bye or a late entrant's zero does not.
   Never a second one: a player who must sit out again (a lone player while everyone else rests, or a
   field that has all had its bye) ``rests``, for half a win, as on a requested bye.
   Players too few for the smallest table size play one smaller table when the game seats them (``fewest``).
3. Players ranked by points then initial rank fill the tables top down; then players are swapped
   between tables while that lowers (first) the number of pairs who sat together before and (then) the
   spread of ranks at each table. The search is deterministic.
4. Seats: each table's seat order is the one where players sit in seats they have had least often,
   ties to the higher-ranked player taking the earlier seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from host.tournaments.pairing.model import Bye, EntrantId, Game, Result, opponents_met, total_points

Met = dict[EntrantId, set[EntrantId]]
Places = dict[EntrantId, int]


@dataclass(frozen=True)
class TablesRound:
    round: int
    tables: tuple[tuple[EntrantId, ...], ...]
    """Each table's entrants in seat order, top table first."""
    byes: tuple[EntrantId, ...]
    """Pairing-allocated byes, worth a win: at most one each in an event."""
    rematches: int
    """Pairs of players at the same table who had met before."""
    rests: tuple[EntrantId, ...] = ()
    """Players who cannot be seated and have had their pairing-allocated bye: they sit the round out for half
    a win (a requested bye's score), not a second bye (docs/tournaments.md, "Byes")."""


def table_sizes(count: int, sizes: Sequence[int]) -> list[int]:
    """Seat the most players in the fewest, most even tables of the allowed sizes; largest first."""
    best: tuple[int, int, int] = (0, 0, 0)
    chosen: list[int] = []
    for combo in _combinations(count, sorted(set(sizes), reverse=True)):
        score = (sum(combo), -len(combo), min(combo, default=0))
        if score > best:
            best, chosen = score, combo
    return chosen


def _combinations(count: int, allowed: list[int]) -> list[list[int]]:
    if not allowed:
        return [[]]
    size, rest = allowed[0], allowed[1:]
    found = []
    for k in range(count // size, -1, -1):
        for tail in _combinations(count - k * size, rest):
            found.append([size] * k + tail)
    return found


def pair_tables(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    round_: int,
    sizes: Sequence[int],
    withdrawn: Collection[EntrantId] = (),
    fewest: int | None = None,
) -> TablesRound:
    """Tables for round ``round_``; ``entrants`` in initial rank order, ``sizes`` the table sizes allowed.

    ``fewest``: the fewest players the game seats. When the allowed sizes seat nobody (two players left in an
    event of fours) but at least ``fewest`` are active, they play one smaller table rather than all sit out."""
    initial = {entrant: index for index, entrant in enumerate(entrants)}
    points = total_points(results, entrants)
    met = opponents_met(results)
    gone = set(withdrawn)
    active = sorted((e for e in entrants if e not in gone), key=lambda e: (-points[e], initial[e]))
    plan = table_sizes(len(active), sizes)
    if not plan and fewest is not None and fewest <= len(active) < min(sizes):
        plan = [len(active)]
    byes, rests = _byes(active, results, len(active) - sum(plan), max(sizes) - 1)
    seated = [e for e in active if e not in byes and e not in rests]
    position = {e: i for i, e in enumerate(seated)}

    tables: list[list[EntrantId]] = []
    start = 0
    for size in plan:
        tables.append(seated[start:start + size])
        start += size
    _improve(tables, met, position)
    tables = _fewest_repeats(tables, met, position)
    seats = _seat_history(results)
    ordered = tuple(_seat_order(table, seats, initial) for table in tables)
    rematches = sum(1 for table in tables for a, b in itertools.combinations(table, 2) if b in met.get(a, set()))
    return TablesRound(round_, ordered, tuple(byes), rematches, tuple(rests))


def _byes(active: list[EntrantId], results: Sequence[Result], count: int, win: float
          ) -> tuple[list[EntrantId], list[EntrantId]]:
    """``count`` players who sit out, lowest-ranked first: ``(byes, rests)``. The byes go to players without a
    pairing-allocated bye (worth ``win``; a requested half-point bye or a late entrant's zero is not one, as C.2
    counts them in 2-player Swiss, so it stops no later bye); when too few are left without one, the lowest of
    the others rest, since no player gets a second (C.2)."""
    had = {r.entrant for r in results if isinstance(r, Bye) and r.points >= win}
    fresh = [e for e in reversed(active) if e not in had]
    again = [e for e in reversed(active) if e in had]
    byes = fresh[:count]
    return byes, again[:count - len(byes)]


def _cost(table: list[EntrantId], met: Met, position: Places) -> tuple[int, int]:
    repeats = sum(1 for a, b in itertools.combinations(table, 2) if b in met.get(a, set()))
    ranks = [position[e] for e in table]
    return repeats, max(ranks) - min(ranks)


def _improve(tables: list[list[EntrantId]], met: Met, position: Places) -> None:
    """Swap players between tables while a swap lowers (rematches, rank spread); first improvement wins."""
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                before = _add(_cost(tables[i], met, position), _cost(tables[j], met, position))
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                after = _add(_cost(tables[i], met, position), _cost(tables[j], met, position))
                if after < before:
                    improved = True
                else:
                    tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
        for table in tables:
            table.sort(key=lambda e: position[e])


SEARCH_STEPS = 40_000
"""How many tables the exact search may weigh before it keeps the best seating found so far."""


def _fewest_repeats(tables: list[list[EntrantId]], met: Met, position: Places) -> list[list[EntrantId]]:
    """The seating with the fewest repeat meetings, then the least rank spread (summed over the tables).

    Swapping two players at a time can get stuck above the minimum (7 players at 3+2+2 in round 3: one
    repeat where none was needed), so a depth-first search over every seating improves on the swaps'
    result: the top unseated player opens a table of each size still to fill, its other players chosen
    nearest in rank first, and a branch is cut once it costs as much as the best seating found. Past
    ``SEARCH_STEPS`` tables weighed it keeps the best found (never worse than the swaps'), so a large
    field whose repeats cannot all be avoided costs a bounded time."""
    best_cost = [(0, 0)]
    for table in tables:
        best_cost[0] = _add(best_cost[0], _cost(table, met, position))
    if best_cost[0][0] == 0:
        return tables
    best = [[list(t) for t in tables]]
    players = sorted((e for t in tables for e in t), key=lambda e: position[e])
    visits = [0]

    def walk(left: list[EntrantId], sizes: list[int], built: list[list[EntrantId]], cost: tuple[int, int]) -> bool:
        if not left:
            if cost < best_cost[0]:
                best_cost[0], best[0] = cost, [list(t) for t in built]
            return True
        first, rest = left[0], left[1:]
        for size in sorted(set(sizes), reverse=True):
            others = list(sizes)
            others.remove(size)
            for mates in itertools.combinations(rest, size - 1):
                visits[0] += 1
                if visits[0] > SEARCH_STEPS:
                    return False
                table = [first, *mates]
                step = _add(cost, _cost(table, met, position))
                if step >= best_cost[0]:
                    continue
                chosen = set(mates)
                if not walk([e for e in rest if e not in chosen], others, [*built, table], step):
                    return False
        return True

    walk(players, [len(t) for t in tables], [], (0, 0))
    found = best[0]
    found.sort(key=lambda t: min(position[e] for e in t))
    return found


def _add(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] + y[0], x[1] + y[1]


def _seat_history(results: Sequence[Result]) -> dict[EntrantId, list[int]]:
    """How often each entrant sat in each seat (played games only)."""
    counts: dict[EntrantId, list[int]] = {}
    for result in results:
        if isinstance(result, Game) and not result.forfeit:
            for seat, entrant in enumerate(result.seats):
                row = counts.setdefault(entrant, [0, 0, 0, 0])
                row[seat] += 1
    return counts


def _seat_order(table: list[EntrantId], seats: dict[EntrantId, list[int]], initial: Places) -> tuple[EntrantId, ...]:
    by_rank = sorted(table, key=lambda e: initial[e])

    def burden(order: tuple[EntrantId, ...]) -> tuple[int, tuple[int, ...]]:
        total = sum(seats.get(e, [0, 0, 0, 0])[seat] for seat, e in enumerate(order))
        return total, tuple(initial[e] for e in order)

    return min(itertools.permutations(by_rank), key=burden)
