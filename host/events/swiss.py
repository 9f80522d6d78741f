"""Swiss pairing for 2-player games: score groups, Dutch-style halves, no rematches, balanced sides.

How a round is paired (see docs/tournaments.md for the reasons):

1. Players are ranked by points, then initial rank. Withdrawn players are not paired.
2. An odd count gives a bye (worth a win) to the lowest-ranked player who has had neither a bye nor a
   forfeit win (FIDE C.04.1 d), among those whose absence still lets everyone else be paired without
   a rematch.
3. From the top, the highest-ranked unpaired player takes the best opponent that still leaves the
   rest pairable with the fewest rematches possible (checked with a maximum matching, so a rematch-free
   round is found whenever one exists), and, where that allows, without pairing two players who both
   must have the same side (FIDE's absolute colour rule: 2 more of one side, or the same side twice
   running). "Best" is, in order: not a rematch, the smallest score gap (a lone player floats down to
   the top of the next group), no clash of side preferences, and the Dutch order: in a score group of
   m players, seed i of the top half meets seed i of the bottom half.
4. Sides follow FIDE colour preferences: a player who had black more often (or twice running) gets
   white; on equal claims the colours alternate from the last round the two differed, else the
   higher-ranked player gets his wish. In round 1 the top player of board 1 gets white, alternating by
   board.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from host.events.matching import matching_size, maximum_matching
from host.events.model import Bye, EntrantId, Game, Result, opponents_met, total_points

FIRST = "first"
SECOND = "second"


@dataclass(frozen=True)
class SwissRound:
    """One round's pairings: boards in order, each ``(first seat, second seat)``, and the bye if any."""

    round: int
    boards: tuple[tuple[EntrantId, EntrantId], ...]
    bye: EntrantId | None
    rematches: int
    """Pairs that meet again because no rematch-free pairing existed (0 whenever one does)."""


@dataclass(frozen=True)
class _Preference:
    direction: int  # +1 wants the first seat, -1 the second, 0 no wish
    strength: int  # 3 absolute, 2 strong, 1 mild, 0 none (FIDE C.04.1 e)


def side_history(results: Sequence[Result]) -> dict[EntrantId, dict[int, str]]:
    """Per entrant, round -> FIRST/SECOND for every played 2-player game (forfeits give no side)."""
    sides: dict[EntrantId, dict[int, str]] = {}
    for result in results:
        if isinstance(result, Game) and not result.forfeit and len(result.seats) == 2:
            first, second = result.seats
            sides.setdefault(first, {})[result.round] = FIRST
            sides.setdefault(second, {})[result.round] = SECOND
    return sides


def _preference(history: dict[int, str]) -> _Preference:
    played = [history[r] for r in sorted(history)]
    if not played:
        return _Preference(0, 0)
    difference = played.count(FIRST) - played.count(SECOND)
    if difference <= -2 or played[-2:] == [SECOND, SECOND]:
        return _Preference(+1, 3)
    if difference >= 2 or played[-2:] == [FIRST, FIRST]:
        return _Preference(-1, 3)
    if difference:
        return _Preference(-difference, 2)
    return _Preference(+1 if played[-1] == SECOND else -1, 1)


def _clash(a: _Preference, b: _Preference) -> int:
    """How badly two players want the same side (0 = they can both be satisfied)."""
    if a.direction and a.direction == b.direction:
        return min(a.strength, b.strength)
    return 0


def _a_goes_first(
    a: EntrantId, b: EntrantId, sides: dict[EntrantId, dict[int, str]], board: int
) -> bool:
    """Sides for a pair where ``a`` is the higher-ranked player."""
    pa, pb = _preference(sides.get(a, {})), _preference(sides.get(b, {}))
    if pa.direction != pb.direction:
        return pa.direction == +1 or (pa.direction == 0 and pb.direction == -1)
    if pa.direction == 0:
        return board % 2 == 0
    if pa.strength != pb.strength:
        stronger_is_a = pa.strength > pb.strength
        return (pa.direction == +1) == stronger_is_a
    history_a, history_b = sides.get(a, {}), sides.get(b, {})
    for round_ in sorted(set(history_a) & set(history_b), reverse=True):
        if history_a[round_] != history_b[round_]:
            return history_a[round_] == SECOND
    return pa.direction == +1


def pair_swiss(
    entrants: Sequence[EntrantId],
    results: Sequence[Result],
    round_: int,
    withdrawn: Collection[EntrantId] = (),
) -> SwissRound:
    """Pair round ``round_`` from the results so far; ``entrants`` in initial rank order (seed 1 first)."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    initial = {entrant: index for index, entrant in enumerate(entrants)}
    points = total_points(results, entrants)
    met = opponents_met(results)
    sides = side_history(results)
    gone = set(withdrawn)
    active = sorted((e for e in entrants if e not in gone), key=lambda e: (-points[e], initial[e]))

    bye: EntrantId | None = None
    if len(active) % 2:
        bye = _choose_bye(active, results, met)
        active.remove(bye)

    pairs, rematches = _pair_players(active, points, met, sides, initial)
    pairs.sort(key=lambda pair: (-max(points[pair[0]], points[pair[1]]), -(points[pair[0]] + points[pair[1]]),
                                 min(initial[pair[0]], initial[pair[1]])))
    boards = []
    for board, (a, b) in enumerate(pairs):
        high, low = (a, b) if initial[a] < initial[b] else (b, a)
        boards.append((high, low) if _a_goes_first(high, low, sides, board) else (low, high))
    return SwissRound(round_, tuple(boards), bye, rematches)


def _no_bye_yet(entrant: EntrantId, results: Sequence[Result]) -> bool:
    """FIDE C.04.1 d: no second bye, and no bye for a player who already scored a point without playing."""
    for result in results:
        if isinstance(result, Bye) and result.entrant == entrant:
            return False
        if isinstance(result, Game) and result.forfeit and entrant in result.seats:
            if result.points_of(entrant) == max(result.points) and len(set(result.points)) > 1:
                return False
    return True


def _choose_bye(active: list[EntrantId], results: Sequence[Result], met: dict[EntrantId, set[EntrantId]]) -> EntrantId:
    """The lowest-ranked eligible player whose bye leaves the fewest rematches (none when possible)."""
    eligible = [e for e in active if _no_bye_yet(e, results)] or list(active)
    graph = _Graph(active, lambda a, b: b not in met.get(a, ()))
    best, best_deficit = eligible[-1], len(active)
    for candidate in reversed(eligible):
        deficit = graph.deficit_without(candidate)
        if deficit == 0:
            return candidate
        if deficit < best_deficit:
            best, best_deficit = candidate, deficit
    return best


class _Graph:
    """The allowed pairs among the unpaired players, with one maximum matching to start searches from."""

    def __init__(self, players: Sequence[EntrantId], allowed: Callable[[EntrantId, EntrantId], bool]) -> None:
        self.index = {e: i for i, e in enumerate(players)}
        self.adjacent = [[self.index[o] for o in players if o != e and allowed(e, o)] for e in players]
        self.mate = maximum_matching(self.adjacent)
        self.size = sum(1 for v, u in enumerate(self.mate) if u > v)
        self.players = len(players)

    def deficit_without(self, *removed: EntrantId) -> int:
        """Pairs short of a full pairing once ``removed`` are taken out: 0 = all can still be paired."""
        if not removed:
            return self.players // 2 - self.size
        gone = [self.index[e] for e in removed]
        size = matching_size(self.adjacent, gone, self.mate)
        return (self.players - len(removed)) // 2 - size


@dataclass(frozen=True)
class _Field:
    """What pairing needs to know about everyone: points, meetings, sides and initial ranks."""

    points: dict[EntrantId, float]
    met: dict[EntrantId, set[EntrantId]]
    preferences: dict[EntrantId, _Preference]
    initial: dict[EntrantId, int]

    def fresh(self, a: EntrantId, b: EntrantId) -> bool:
        return b not in self.met.get(a, ())

    def strict(self, a: EntrantId, b: EntrantId) -> bool:
        """Neither a rematch nor two players who both must have the same side (FIDE absolute criteria)."""
        return self.fresh(a, b) and _clash(self.preferences[a], self.preferences[b]) < 3

    def key(self, top: EntrantId, c: EntrantId, group: list[EntrantId]) -> tuple[float, ...]:
        """How good an opponent ``c`` is for ``top``: lower is better."""
        dutch = abs(group.index(c) - len(group) // 2) if c in group else 0
        clash = _clash(self.preferences[top], self.preferences[c])
        return (not self.fresh(top, c), self.points[top] - self.points[c], clash, dutch, self.initial[c])


def _pair_players(
    ranked: list[EntrantId],
    points: dict[EntrantId, float],
    met: dict[EntrantId, set[EntrantId]],
    sides: dict[EntrantId, dict[int, str]],
    initial: dict[EntrantId, int],
) -> tuple[list[tuple[EntrantId, EntrantId]], int]:
    field = _Field(points, met, {e: _preference(sides.get(e, {})) for e in ranked}, initial)
    unpaired = list(ranked)
    forced = _Graph(unpaired, field.fresh).deficit_without()
    budget = forced
    pairs: list[tuple[EntrantId, EntrantId]] = []
    while unpaired:
        top = unpaired[0]
        chosen = _best_opponent(field, unpaired, budget)
        pairs.append((top, chosen))
        budget -= not field.fresh(top, chosen)
        unpaired = [e for e in unpaired if e not in (top, chosen)]
    return pairs, forced


def _best_opponent(field: _Field, unpaired: list[EntrantId], budget: int) -> EntrantId:
    """The best opponent for ``unpaired[0]`` that keeps rematches (then absolute side clashes) minimal."""
    top = unpaired[0]
    group = [e for e in unpaired if field.points[e] == field.points[top]]
    fresh_graph, strict_graph = _Graph(unpaired, field.fresh), _Graph(unpaired, field.strict)
    strict_deficit = strict_graph.deficit_without()

    def rematches_stay_minimal(c: EntrantId) -> bool:
        rematch = not field.fresh(top, c)
        return (not rematch or budget > 0) and fresh_graph.deficit_without(top, c) <= budget - rematch

    def sides_stay_legal(c: EntrantId) -> bool:
        violation = not field.strict(top, c)
        return violation <= strict_deficit and violation + strict_graph.deficit_without(top, c) <= strict_deficit

    candidates = sorted(unpaired[1:], key=lambda c: field.key(top, c, group))
    chosen = next((c for c in candidates if sides_stay_legal(c) and rematches_stay_minimal(c)), None)
    if chosen is None:  # keeping sides legal would cost a rematch: rematches are avoided first
        chosen = next((c for c in candidates if rematches_stay_minimal(c)), None)
    if chosen is None:  # unreachable: some candidate always keeps the rest pairable within the budget
        raise AssertionError("no pairing found")
    return chosen
