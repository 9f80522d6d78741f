"""Swiss pairing by the FIDE Dutch system (C.04.3, the 2017 text; the bye as in the 2025 text) for 2-player games.

Written from the handbook's text; bbpPairings (the FIDE-endorsed reference program) was read only for how
it settles places the text leaves open. The round is paired bracket by bracket from the top:

- **Brackets (A.3, A.9).** A scoregroup's players (residents) plus the players moved down from above
  (MDPs). In a heterogeneous bracket S1 holds the MDPs that are paired (the highest first), the others
  wait in Limbo and float on; S2 holds the residents; the residents left form a homogeneous remainder.
- **Candidates (D.1-D.3)** are generated in the handbook's order: transpositions of S2 by the
  lexicographic value of its first BSNs, exchanges between S1 and S2 by the D.2 keys (fewest players,
  smallest BSN-sum difference, highest BSNs out of S1, lowest out of S2), and MDP sets in lexicographic
  order. The first candidate meeting every criterion is taken; when none does, the best by the quality
  criteria in their order (ties: the earlier candidate).
- **Absolute criteria (C.1-C.3):** no rematch, no second pairing-allocated bye (nor one after a forfeit
  win), no two non-topscorers with the same absolute colour preference.
- **Completion (C.4):** a candidate must leave the players still unpaired (its downfloaters and every
  lower bracket) pairable under C.1-C.3, with a bye-eligible player left over when the count is odd;
  checked by a maximum matching, so the round is always completed when it can be.
- **Quality (C.5-C.19), in order:** most pairs; smallest pairing score differences (A.8, compared from
  the largest); the next bracket's pairs and PSD (C.7, below); topscorers' colour differences beyond ±2
  and three same colours running (last round only); colour preferences not met, then strong ones; the
  same downfloat or upfloat as the previous round, then as two rounds before; then the score
  differences of those repeated floats (C.16/C.18 count everyone the bracket moves down, MDPs too).
  Where the bye is decided, the 2025 text's C.9 ranks after C.7: the bye to the player with the fewest
  unplayed games.
- **Floats (A.4):** between players of different scores; an unplayed round is a downfloat when it scored
  (bye, forfeit win, half-point bye) and nothing otherwise, as bbpPairings reads it.
- **Colours (E.1-E.5):** both preferences; the stronger (both absolute: the wider colour difference);
  alternate from the latest round in which the two had different colours, comparing played games only
  and skipping unplayed rounds (C.04.2 D.5); the higher ranked player's preference (rank = score, then
  pairing number); the higher ranked player gets the initial colour (the first seat) on an odd pairing
  number, the other on an even one.

- **Look-ahead (C.7)**, ranked after C.6: the downfloaters are chosen so that the next bracket, built as
  it would be paired (them as MDPs, its residents, the players below), has the most pairs and then the
  smallest PSD while the round can still be completed (C.4, the bye only to a player allowed one). The
  handbook says "just in the following bracket"; bbpPairings weighs the same two things for the next
  bracket inside its one matching of the round. Not applied in the last bracket (nothing follows it).

A bracket stops looking after ``MAX_CANDIDATES`` candidates and takes the best seen (a large bracket with no
perfect candidate); C.7 weighs at most ``MAX_LOOKAHEAD_SETS`` downfloater sets to know the best value a
level can reach, and a next bracket tries at most ``LOOKAHEAD_CANDIDATES`` candidates a level. When no
pairing meets C.1 and C.2 at all, ``NoLegalPairing`` says what the organiser may allow: a rematch, or a
second bye.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, islice
from math import comb

from host.tournaments.pairing.matching import maximum_matching
from host.tournaments.pairing.model import WIN, Bye, EntrantId, Result

MAX_CANDIDATES = 3000
"""Candidates a bracket compares when it has no perfect one, before it settles for the best one seen."""
MAX_LOOKAHEAD_SETS = 60
"""Downfloater sets a bracket weighs for the best C.7 value of a level; beyond it C.7 still ranks the
candidates seen, but no longer bounds which one counts as perfect."""
LOOKAHEAD_CANDIDATES = 200
"""Candidates of one level the next bracket tries, for C.7, before it counts the level as out of reach."""
SPREAD = 40
"""When a bracket's candidates in the D order run past ``MAX_CANDIDATES``, a second pass takes at most this
many remainders of each MDP pairing (transpositions of each exchange), so that every MDP pairing and
exchange is weighed; the better of the two passes is kept (ties: the D order's)."""
MAX_STEPS = 200_000
"""Pairs the pruned search for a perfect candidate may try in one level of a bracket."""
REMATCH, SECOND_BYE = "rematch", "second_bye"
WHITE, BLACK = 1, -1


class NoLegalPairing(Exception):
    """No pairing keeps C.1 (no rematch) and C.2 (no second bye): the organiser decides what to allow."""

    def __init__(self, options: tuple[tuple[str, ...], ...]) -> None:
        self.options = options
        """The ways out, each enough alone: ``((REMATCH,), (SECOND_BYE,))``, or ``((REMATCH, SECOND_BYE),)``
        when only both together make a pairing possible."""
        said = " or ".join(" and ".join(WORDS[o] for o in way) for way in options)
        super().__init__(f"no pairing without {said}")


WORDS = {REMATCH: "a rematch", SECOND_BYE: "a second bye"}


@dataclass(frozen=True)
class Preference:
    direction: int
    """WHITE, BLACK or 0 (none)."""
    strength: int
    """3 absolute, 2 strong, 1 mild, 0 none (A.6)."""


@dataclass
class Player:
    id: EntrantId
    number: int
    """Pairing number (1 = seed 1)."""
    score: float
    colours: list[int]
    """Colours of played games, oldest first (unplayed rounds skipped, C.04.2 D.5)."""
    floats: dict[int, str]
    """Round -> ``down`` or ``up``."""
    met: set[EntrantId]
    byes: int
    """Pairing-allocated byes had, plus forfeit wins (C.2 counts both)."""
    topscorer: bool = False
    forbidden: frozenset[EntrantId] = frozenset()
    """Players this one must never meet (the organiser's forbidden pairings): absolute, like C.1."""
    rank: int = 0
    """Position in the A.2 order (score, then pairing number), 0 = first."""

    @cached_property
    def difference(self) -> int:
        """Whites minus blacks. Cached, like ``preference``: a pairing asks millions of times, and the
        colours are complete before it starts (``players_of``)."""
        return sum(self.colours)

    @cached_property
    def preference(self) -> Preference:
        played, cd = self.colours, self.difference
        if not played:
            return Preference(0, 0)
        if cd < -1 or played[-2:] == [BLACK, BLACK]:
            return Preference(WHITE, 3)
        if cd > 1 or played[-2:] == [WHITE, WHITE]:
            return Preference(BLACK, 3)
        if cd:
            return Preference(-cd, 2)
        return Preference(-played[-1], 1)


@dataclass(frozen=True)
class DutchRound:
    round: int
    boards: tuple[tuple[EntrantId, EntrantId], ...]
    """``(first seat, second seat)`` per board, in board order."""
    bye: EntrantId | None
    rematches: int
    second_byes: int


# ----- the players' histories ---------------------------------------------------------------------


def players_of(entrants: Sequence[EntrantId], results: Sequence[Result], round_: int,
               withdrawn: Collection[EntrantId] = (), rounds: int | None = None) -> list[Player]:
    """The active players before round ``round_``, with scores, played colours, floats and byes."""
    number = {e: i + 1 for i, e in enumerate(entrants)}
    done = sorted((r for r in results if r.round < round_), key=lambda r: r.round)
    score = dict.fromkeys(entrants, 0.0)
    players = {e: Player(e, number[e], 0.0, [], {}, set(), 0) for e in entrants}
    for r in sorted({r.round for r in done}):
        before = dict(score)
        for result in (x for x in done if x.round == r):
            if isinstance(result, Bye):
                player = players[result.entrant]
                score[result.entrant] += result.points
                if result.points >= WIN:  # a pairing-allocated bye (a zero "bye" is an absence)
                    player.byes += 1
                if result.points > 0:  # A.4: an unplayed round that scored is a downfloat
                    player.floats[r] = "down"
                continue
            if len(result.seats) != 2:
                raise ValueError("the Dutch system pairs 2-player games")
            a, b = result.seats
            for seat, entrant in enumerate(result.seats):
                score[entrant] += result.points[seat]
            if result.forfeit:  # unplayed: a downfloat to whoever scored (A.4), never an upfloat
                for entrant in result.seats:
                    if result.points_of(entrant) > 0:
                        players[entrant].floats[r] = "down"
                    if result.points_of(entrant) > 0 and result.points_of(entrant) >= max(result.points) \
                            and len(set(result.points)) > 1:
                        players[entrant].byes += 1
                continue
            if before[a] != before[b]:
                high, low = (a, b) if before[a] > before[b] else (b, a)
                players[high].floats[r], players[low].floats[r] = "down", "up"
            players[a].colours.append(WHITE)
            players[b].colours.append(BLACK)
            players[a].met.add(b)
            players[b].met.add(a)
    gone = set(withdrawn)
    active = [players[e] for e in entrants if e not in gone]
    for p in active:
        p.score = score[p.id]
        if rounds is not None and round_ == rounds:
            p.topscorer = p.score > rounds * WIN / 2
    active.sort(key=lambda p: (-p.score, p.number))
    for i, p in enumerate(active):
        p.rank = i
    return active


# ----- colours (E.1-E.5) ----------------------------------------------------------------------------


def allocate(a: Player, b: Player) -> tuple[Player, Player]:
    """(white, black) for a pair by E.1-E.5. "Higher ranked" is the A.2 order: score, then pairing number."""
    higher, lower = (a, b) if a.rank < b.rank else (b, a)
    ph, pl = higher.preference, lower.preference
    if ph.direction != pl.direction or ph.direction == 0:  # E.1 both granted (or only one has a wish)
        if ph.direction == WHITE or (ph.direction == 0 and pl.direction == BLACK):
            return higher, lower
        if ph.direction == BLACK or pl.direction == WHITE:
            return lower, higher
        return _by_history(higher, lower)
    if ph.strength != pl.strength:  # E.2 the stronger preference
        winner = higher if ph.strength > pl.strength else lower
        return (winner, _other(winner, higher, lower)) if winner.preference.direction == WHITE \
            else (_other(winner, higher, lower), winner)
    if ph.strength == 3 and abs(higher.difference) != abs(lower.difference):  # E.2 both absolute
        winner = higher if abs(higher.difference) > abs(lower.difference) else lower
        return (winner, _other(winner, higher, lower)) if winner.preference.direction == WHITE \
            else (_other(winner, higher, lower), winner)
    return _by_history(higher, lower)


def _other(p: Player, a: Player, b: Player) -> Player:
    return b if p is a else a


def _by_history(higher: Player, lower: Player) -> tuple[Player, Player]:
    """E.3 alternate from the latest played games that differ, E.4 the higher's wish, E.5 the pairing number."""
    for back in range(1, min(len(higher.colours), len(lower.colours)) + 1):
        ch, cl = higher.colours[-back], lower.colours[-back]
        if ch != cl:
            return (higher, lower) if ch == BLACK else (lower, higher)
    wish = higher.preference.direction
    if wish:
        return (higher, lower) if wish == WHITE else (lower, higher)
    return (higher, lower) if higher.number % 2 == 1 else (lower, higher)


# ----- the pairing ----------------------------------------------------------------------------------


Pair = tuple[Player, Player]


@dataclass
class _Rules:
    allow_rematch: bool = False
    allow_second_bye: bool = False
    colour_rule: bool = True
    """C.3; dropped only when the round cannot be paired with it (see ``pair_dutch``)."""

    def compatible(self, a: Player, b: Player) -> bool:
        if b.id in a.forbidden:
            return False
        if b.id in a.met and not self.allow_rematch:
            return False
        if self.colour_rule and not (a.topscorer or b.topscorer):
            pa, pb = a.preference, b.preference
            if pa.strength == 3 and pb.strength == 3 and pa.direction == pb.direction:
                return False
        return True

    bye_score: float | None = None
    """The lowest score a bye can go to while the round is completed: only players on it may get it."""

    def bye_ok(self, p: Player) -> bool:
        return (p.byes == 0 or self.allow_second_bye) and (self.bye_score is None or p.score == self.bye_score)


def completable(players: Sequence[Player], rules: _Rules, budget: int | None = None) -> bool:
    """C.4: can these players all be paired (one bye-eligible player left over when odd)?

    ``budget``: with rematches allowed, at most this many more pairs may be rematches.
    """
    n = len(players)
    if n == 0:
        return True
    adjacent: list[list[int]] = [[] for _ in range(n + n % 2)]
    fresh: list[list[int]] = [[] for _ in range(n + n % 2)]
    for i in range(n):
        for j in range(i + 1, n):
            if rules.compatible(players[i], players[j]):
                adjacent[i].append(j)
                adjacent[j].append(i)
                if players[j].id not in players[i].met:
                    fresh[i].append(j)
                    fresh[j].append(i)
    if n % 2:
        for i, p in enumerate(players):
            if rules.bye_ok(p):
                adjacent[i].append(n)
                adjacent[n].append(i)
                fresh[i].append(n)
                fresh[n].append(i)
    size = sum(1 for v, u in enumerate(maximum_matching(adjacent)) if u > v)
    if size < (n + n % 2) // 2:
        return False
    if budget is not None and rules.allow_rematch:
        fresh_size = sum(1 for v, u in enumerate(maximum_matching(fresh)) if u > v)
        return (n + n % 2) // 2 - fresh_size <= budget
    return True


def _transpositions(s1: Sequence[Player], s2: Sequence[Player], ok: Callable[[Player, Player], bool]
                    ) -> Iterator[tuple[list[Pair], list[Player]]]:
    """S1[i] against a member of S2, S2 taken in lexicographic order of its first len(S1) BSNs (D.1)."""
    used = [False] * len(s2)
    chosen: list[Pair] = []

    def walk(i: int) -> Iterator[tuple[list[Pair], list[Player]]]:
        if i == len(s1):
            yield list(chosen), [p for j, p in enumerate(s2) if not used[j]]
            return
        for j, b in enumerate(s2):
            if not used[j] and ok(s1[i], b):
                used[j] = True
                chosen.append((s1[i], b))
                yield from walk(i + 1)
                chosen.pop()
                used[j] = False

    yield from walk(0)


def _exchanges(s1: Sequence[Player], s2: Sequence[Player]) -> Iterator[tuple[list[Player], list[Player]]]:
    """(new S1, new S2) for the original split, then every exchange in the D.2 order."""
    yield list(s1), list(s2)
    bsn = {id(p): i + 1 for i, p in enumerate([*s1, *s2])}
    for k in range(1, min(len(s1), len(s2)) + 1):
        options = []
        for out in combinations(s1, k):
            for into in combinations(s2, k):
                b_out, b_in = [bsn[id(p)] for p in out], [bsn[id(p)] for p in into]
                key = (abs(sum(b_in) - sum(b_out)), [-x for x in sorted(b_out, reverse=True)], sorted(b_in))
                options.append((key, out, into))
                if len(options) > MAX_CANDIDATES:
                    break
            if len(options) > MAX_CANDIDATES:
                break
        options.sort(key=lambda o: o[0])
        for _, out, into in options:
            gone = {id(p) for p in out}
            came = {id(p) for p in into}
            new1 = sorted([p for p in s1 if id(p) not in gone] + list(into), key=lambda p: bsn[id(p)])
            new2 = sorted([p for p in s2 if id(p) not in came] + list(out), key=lambda p: bsn[id(p)])
            yield new1, new2


def _homogeneous(players: Sequence[Player], pairs: int, ok: Callable[[Player, Player], bool], spread: int = 0
                 ) -> Iterator[tuple[list[Pair], list[Player]]]:
    """Candidates of ``pairs`` pairs in a homogeneous bracket (or remainder): exchanges, then transpositions.

    ``spread``: at most this many transpositions of each exchange (0: all), so that a bounded search
    reaches every exchange.
    """
    if pairs == 0:
        yield [], list(players)
        return
    for s1, s2 in _exchanges(players[:pairs], players[pairs:]):
        found = _transpositions(s1, s2, ok)
        yield from islice(found, spread) if spread else found


def _heterogeneous(mdps: Sequence[Player], residents: Sequence[Player], pairs: int, paired_mdps: int,
                   ok: Callable[[Player, Player], bool], spread: int = 0
                   ) -> Iterator[tuple[list[Pair], list[Player]]]:
    """MDP sets in lexicographic order (D.3), then the MDP pairing's transpositions, then the remainder's
    (``spread``: at most this many remainders for each MDP pairing; 0: all)."""
    for s1 in combinations(mdps, paired_mdps):
        limbo = [p for p in mdps if p not in s1]
        for mdp_pairs, remainder in _transpositions(s1, residents, ok):
            rests = _homogeneous(remainder, pairs - paired_mdps, ok, spread)
            for rest, left in islice(rests, spread) if spread else rests:
                yield mdp_pairs + rest, limbo + left


UNREACHED: tuple[int, tuple[float, ...]] = (1, ())
"""C.7's value when the next bracket found no completing candidate within its bounds: worse than any other."""


class _Bracket:
    """One bracket's candidates, scored by the quality criteria."""

    def __init__(self, mdps: list[Player], residents: list[Player], below: list[Player], rules: _Rules,
                 round_: int, last: bool, budget: int, ahead: bool = True) -> None:
        self.mdps, self.residents, self.below, self.rules = mdps, residents, below, rules
        self.round, self.last, self.budget = round_, last, budget
        everyone = mdps + residents
        self.lowest = min(p.score for p in everyone)
        top_below = max((p.score for p in below), default=None)
        self.next_residents = [p for p in below if p.score == top_below]
        self.ahead = ahead and not last
        """C.7 applies (not in the last bracket, nor in a next bracket weighed for C.7 itself)."""
        self._ahead: dict[frozenset[EntrantId], tuple[int, tuple[float, ...]]] = {}
        self.bounded = False
        """``best`` stopped at ``MAX_CANDIDATES`` without a perfect candidate: a better one may lie beyond."""

    def lookahead(self, floaters: Sequence[Player]) -> tuple[int, tuple[float, ...]] | None:
        """C.7 for these downfloaters: what the next bracket makes of them (None when C.7 does not apply).

        The next bracket is built as it would be paired (these MDPs, its residents, the rest below it)
        and asked for its most pairs and then its smallest PSD among candidates that complete the round
        (C.4), as bbpPairings weighs the next bracket inside its one matching of the whole round.
        """
        if not self.ahead:
            return None
        key = frozenset(p.id for p in floaters)
        if key not in self._ahead:
            below = [p for p in self.below if p.score < self.next_residents[0].score]
            following = _Bracket(sorted(floaters, key=lambda p: p.rank), self.next_residents, below, self.rules,
                                 self.round, not below, self.budget, ahead=False)
            self._ahead[key] = following.outcome() or UNREACHED
        return self._ahead[key]

    def outcome(self) -> tuple[int, tuple[float, ...]] | None:
        """(minus the most pairs, the smallest PSD) this bracket can reach while the round is completed."""
        for pairs, m in self.levels():
            ideal, found = self.ideal_psd(pairs, m), None
            for seen, (chosen, left) in enumerate(self.candidates(pairs, m, self.rules.compatible)):
                if seen >= LOOKAHEAD_CANDIDATES:
                    break
                if self.completes(chosen, left):
                    psd = self.psd(chosen, left)
                    found = psd if found is None else min(found, psd)
                    if ideal is None or psd == ideal:  # homogeneous: every candidate of a level has one PSD
                        break
            if found is not None:
                return -pairs, found
        return None

    def ideal_psd(self, pairs: int, m: int) -> tuple[float, ...] | None:
        """The PSD of a level when its best MDPs are paired (None in a homogeneous bracket: all equal)."""
        if not self.mdps:
            return None
        same = (self.residents[0], self.residents[0])
        return self.psd([(p, self.residents[0]) for p in self.mdps[:m]] + [same] * (pairs - m),
                        self.mdps[m:] + self.residents[: len(self.residents) - (2 * pairs - m)])

    def ideal_lookahead(self, pairs: int, m: int) -> tuple[int, tuple[float, ...]] | None:
        """The best C.7 value of any downfloater set at this level (None: too many sets to weigh)."""
        if not self.ahead:
            return None
        left = len(self.residents) - (2 * pairs - m)
        if comb(len(self.mdps), m) * comb(len(self.residents), left) > MAX_LOOKAHEAD_SETS:
            return None
        least = sorted(p.score for p in self.mdps[m:])  # the Limbo of the smallest PSD (C.6 ranks first)
        values = [self.lookahead([*limbo, *rest]) for limbo in combinations(self.mdps, len(self.mdps) - m)
                  if sorted(p.score for p in limbo) == least for rest in combinations(self.residents, left)]
        return min((v for v in values if v is not None), default=None)

    def psd(self, pairs: list[Pair], floaters: list[Player]) -> tuple[float, ...]:
        diffs = [abs(a.score - b.score) for a, b in pairs] + [p.score - (self.lowest - 1) for p in floaters]
        return tuple(sorted(diffs, reverse=True))

    def quality(self, pairs: list[Pair], floaters: list[Player]) -> tuple[object, ...]:
        rematches = sum(1 for a, b in pairs if b.id in a.met)
        second_byes = 0
        if self.last and floaters:
            second_byes = sum(1 for p in floaters if p.byes)
        c8 = c9 = c10 = c11 = 0
        for a, b in pairs:
            pa, pb = a.preference, b.preference
            if pa.direction and pa.direction == pb.direction:
                c10 += 1
                c11 += min(pa.strength, pb.strength) >= 2
            if a.topscorer or b.topscorer:
                white, black = allocate(a, b)
                for p, colour in ((white, WHITE), (black, BLACK)):
                    c8 += abs(p.difference + colour) > 2
                    c9 += p.colours[-2:] == [colour, colour]
        prev, prev2 = self.round - 1, self.round - 2
        resident = {id(p) for p in self.residents}
        down = [p for p in floaters if id(p) in resident or self.last]  # the last bracket: the bye is a downfloat
        ups = [(b if a.score > b.score else a, abs(a.score - b.score)) for a, b in pairs if a.score != b.score]
        # C.16/C.18 weigh every player this bracket gives a downfloat: MDPs paired here (the score difference
        # they play) and everyone it moves down, MDPs too (A.8's difference to one point below the bracket),
        # so a repeated downfloater is paired as high as he can be (bbpPairings: "minimize the scores of
        # downfloaters repeated", weighing MDPs paired in the bracket).
        downs_paired = [(a if a.score > b.score else b, abs(a.score - b.score)) for a, b in pairs
                        if a.score != b.score] + [(p, p.score - (self.lowest - 1)) for p in floaters]
        c12 = sum(p.floats.get(prev) == "down" for p in down)
        c13 = sum(p.floats.get(prev) == "up" for p, _ in ups)
        c14 = sum(p.floats.get(prev2) == "down" for p in down)
        c15 = sum(p.floats.get(prev2) == "up" for p, _ in ups)
        c16 = tuple(sorted((d for p, d in downs_paired if p.floats.get(prev) == "down"), reverse=True))
        c17 = tuple(sorted((d for p, d in ups if p.floats.get(prev) == "up"), reverse=True))
        c18 = tuple(sorted((d for p, d in downs_paired if p.floats.get(prev2) == "down"), reverse=True))
        c19 = tuple(sorted((d for p, d in ups if p.floats.get(prev2) == "up"), reverse=True))
        return (rematches, second_byes, -len(pairs), self.psd(pairs, floaters), self.lookahead(floaters) or (),
                self.bye_unplayed(floaters), c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19)

    def bye_unplayed(self, floaters: list[Player]) -> int:
        """The 2025 text's C.9: the bye assignee has the fewest unplayed games (minus his played games).

        Weighed where the bye is decided: in the last bracket, or where the single downfloater is the only
        player left who may have the bye (bbpPairings: ``isSingleDownfloaterTheByeAssignee``).
        """
        if len(floaters) != 1 or not self.rules.bye_ok(floaters[0]):
            return 0
        if self.last or self.residents[0].score == self.rules.bye_score:
            return -len(floaters[0].colours)
        return 0

    def completes(self, pairs: list[Pair], floaters: list[Player]) -> bool:
        if self.last:
            if len(floaters) > 1:
                return False
            return not floaters or self.rules.bye_ok(floaters[0])
        used = sum(1 for a, b in pairs if b.id in a.met)
        return completable(floaters + self.below, self.rules, self.budget - used)

    def levels(self) -> Iterator[tuple[int, int]]:
        """(pairs, paired MDPs), best first: most pairs (C.5), then most MDPs paired (C.6)."""
        n = len(self.mdps) + len(self.residents)
        for pairs in range(n // 2, -1, -1):
            if self.last and n - 2 * pairs > 1:
                return
            top = min(len(self.mdps), len(self.residents), pairs)
            for m in range(top, -1, -1):
                if pairs - m <= (len(self.residents) - m) // 2:
                    yield pairs, m

    def clean(self, a: Player, b: Player) -> bool:
        """A pair that costs nothing in C.8-C.15, C.17 and C.19 (and keeps C.1-C.3)."""
        if not self.rules.compatible(a, b):
            return False
        if self.rules.allow_rematch and b.id in a.met:
            return False
        pa, pb = a.preference, b.preference
        if pa.direction and pa.direction == pb.direction:
            return False
        if a.topscorer or b.topscorer:
            white, black = allocate(a, b)
            for p, colour in ((white, WHITE), (black, BLACK)):
                if abs(p.difference + colour) > 2 or p.colours[-2:] == [colour, colour]:
                    return False
        if a.score != b.score:
            low = b if a.score > b.score else a
            if "up" in (low.floats.get(self.round - 1), low.floats.get(self.round - 2)):
                return False
        return True

    def pruned_check(self) -> Callable[[Player, Player], bool]:
        """``clean``, counting its calls: past ``MAX_STEPS`` the search for a perfect candidate gives up."""
        steps = [0]

        def pruned(a: Player, b: Player) -> bool:
            steps[0] += 1
            if steps[0] > MAX_STEPS:
                raise _GiveUp
            return self.clean(a, b)

        return pruned

    def ideal_floats(self, m: int) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
        """The best (C.16, C.18) of a level with ``m`` MDPs paired, when no resident repeats a downfloat.

        Only the MDPs count then: paired, they play one score group down; left in Limbo, they go on down
        (A.8's difference). None when the MDP sets are too many to weigh (C.16/C.18 then do not bound
        which candidate is perfect).
        """
        if not self.mdps or comb(len(self.mdps), m) > MAX_LOOKAHEAD_SETS:
            return None
        least = sorted(p.score for p in self.mdps[m:])  # the Limbo of the smallest PSD (C.6 ranks first)
        best: tuple[tuple[float, ...], tuple[float, ...]] | None = None
        for limbo in combinations(self.mdps, len(self.mdps) - m):
            if sorted(p.score for p in limbo) != least:
                continue
            values = []
            for back in (1, 2):
                values.append(tuple(sorted(
                    (p.score - self.lowest + (1 if p in limbo else 0) for p in self.mdps
                     if p.floats.get(self.round - back) == "down"), reverse=True)))
            value = (values[0], values[1])
            if best is None or value < best:
                best = value
        return best

    def perfect(self, key: tuple[object, ...], ideal_psd: tuple[float, ...] | None,
                ideal_ahead: tuple[int, tuple[float, ...]] | None,
                ideal_floats: tuple[tuple[float, ...], tuple[float, ...]] | None = None, ideal_bye: int = 0) -> bool:
        """No rematch or second bye, the ideal PSD, C.7, C.9 (2025: the bye), C.16 and C.18 values, and nothing
        lost in C.8-C.15, C.17, C.19."""
        return (key[0] == 0 and key[1] == 0 and all(not x for x in key[6:14]) and not key[15] and not key[17]
                and (ideal_psd is None or key[3] == ideal_psd) and (ideal_ahead is None or key[4] == ideal_ahead)
                and key[5] == ideal_bye
                and (ideal_floats is None or (key[14], key[16]) == ideal_floats))

    def ideal_bye_unplayed(self, pairs: int) -> int:
        """C.9 (2025) at its best for a level: the bye to the player allowed one who has played the most games."""
        if len(self.mdps) + len(self.residents) - 2 * pairs != 1:
            return 0
        if not (self.last or self.residents[0].score == self.rules.bye_score):
            return 0
        return min((-len(p.colours) for p in self.mdps + self.residents if self.rules.bye_ok(p)), default=0)

    def candidates(self, pairs: int, m: int, ok: Callable[[Player, Player], bool], spread: int = 0
                   ) -> Iterator[tuple[list[Pair], list[Player]]]:
        if self.mdps:
            return _heterogeneous(self.mdps, self.residents, pairs, m, ok, spread)
        return _homogeneous(self.residents, pairs, ok, spread)

    def best(self) -> tuple[list[Pair], list[Player]]:
        """The first perfect candidate of the best level (searched with pruning), else the best one seen."""
        for pairs, m in self.levels():
            ideal_psd = self.ideal_psd(pairs, m)
            ideal_ahead = self.ideal_lookahead(pairs, m)
            ideal_floats = None if self.last else self.ideal_floats(m)
            ideal_bye = self.ideal_bye_unplayed(pairs)
            pruned = self.pruned_check()

            try:
                for chosen, left in self.candidates(pairs, m, pruned):
                    key = self.quality(chosen, left)
                    if self.perfect(key, ideal_psd, ideal_ahead, ideal_floats, ideal_bye) \
                            and self.completes(chosen, left):
                        return chosen, left
            except _GiveUp:
                pass
            best: tuple[tuple[object, ...], list[Pair], list[Player]] | None = None
            for spread in (0, SPREAD):  # the D order; when that is cut short, a sample across all of it
                if spread and not self.bounded:
                    break
                for seen, (chosen, left) in enumerate(self.candidates(pairs, m, self.rules.compatible, spread)):
                    key = self.quality(chosen, left)
                    if (best is None or key < best[0]) and self.completes(chosen, left):
                        best = (key, chosen, left)
                    if seen >= MAX_CANDIDATES:
                        self.bounded = True
                        break
            if best is not None:
                return best[1], best[2]
        raise _NoCandidate("a bracket found no candidate though the round can be completed")


class _GiveUp(Exception):
    """The pruned search for a perfect candidate took too long: settle for the best one seen."""


def pair_dutch(entrants: Sequence[EntrantId], results: Sequence[Result], round_: int,
               withdrawn: Collection[EntrantId] = (), rounds: int | None = None, *,
               allow: Collection[str] = (), forbidden: Collection[tuple[EntrantId, EntrantId]] = (),
               observe: Observer | None = None) -> DutchRound:
    """Pair round ``round_``; ``entrants`` in initial rank order (pairing number 1 first).

    ``forbidden``: pairs that must never meet (e.g. family members), an absolute criterion like C.1 that
    no decision of the organiser lifts; only when no pairing exists at all with them (rematches and second
    byes allowed too) do they give way, so that the event can go on.

    ``rounds``: the event's planned rounds (topscorers exist in the last round only). ``allow``: what the
    organiser permits when no legal pairing exists (``REMATCH``, ``SECOND_BYE``). Raises
    ``NoLegalPairing`` when C.1 and C.2 cannot both hold and the organiser has not decided. ``observe`` is
    told every bracket's choice (the reference comparison uses it to name the criterion behind a difference).
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice")
    players = players_of(entrants, results, round_, withdrawn, rounds)
    apart: dict[EntrantId, set[EntrantId]] = {}
    for a, b in forbidden:
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    for p in players:
        p.forbidden = frozenset(apart.get(p.id, ()))
    if apart and not completable(players, _Rules(allow_rematch=True, allow_second_bye=True, colour_rule=False)):
        for p in players:
            p.forbidden = frozenset()
    rules = _Rules(allow_rematch=REMATCH in allow, allow_second_bye=SECOND_BYE in allow)
    if not completable(players, _Rules(colour_rule=False)):  # C.1 and C.2 alone (C.3 gives way below)
        relaxed = ((REMATCH, _Rules(allow_rematch=True, colour_rule=False)),
                   (SECOND_BYE, _Rules(allow_second_bye=True, colour_rule=False)))
        options = tuple((o,) for o, r in relaxed if completable(players, r)) or ((REMATCH, SECOND_BYE),)
        if not any(set(way) <= set(allow) for way in options):
            raise NoLegalPairing(options)
    if not completable(players, rules):  # only C.3 (absolute colours) stands in the way: it gives way
        rules.colour_rule = False
    least = _least_rematches(players, rules) if rules.allow_rematch else 0
    for budget in range(least, len(players) // 2 + 1):
        # The matching bound on rematches can be too low when the pairs left are few (forbidden pairs make
        # that likelier): a budget no bracket can keep is raised by one until the round is paired.
        try:
            return _pair_round(players, rules, round_, budget, observe)
        except _NoCandidate:
            if not rules.allow_rematch:
                raise
    raise _NoCandidate("no pairing with any number of rematches")


class _NoCandidate(AssertionError):
    """No candidate of a bracket completes the round within the rematch budget."""


Observer = Callable[["_Bracket", list[Pair], list[Player]], None]
"""Told each bracket, the pairs it chose and its downfloaters, in the order the round is paired."""


def _pair_round(players: list[Player], rules: _Rules, round_: int, budget: int,
                observe: Observer | None = None) -> DutchRound:
    rules.bye_score = None
    if len(players) % 2:  # the bye goes to the lowest score it can (then the bracket picks the player)
        for score in sorted({p.score for p in players}):
            rules.bye_score = score
            if completable(players, rules, budget):
                break
    pairs: list[Pair] = []
    bye: Player | None = None
    carried: list[Player] = []
    scores = sorted({p.score for p in players}, reverse=True)
    for index, score in enumerate(scores):
        residents = [p for p in players if p.score == score]
        below = [p for p in players if p.score < score]
        bracket = _Bracket(carried, residents, below, rules, round_, index == len(scores) - 1, budget)
        chosen, carried = bracket.best()
        if observe is not None:
            observe(bracket, chosen, carried)
        budget -= sum(1 for a, b in chosen if b.id in a.met)
        pairs += chosen
        carried.sort(key=lambda p: p.rank)
    if carried:
        bye = carried[0]
    boards = []
    for a, b in sorted(pairs, key=lambda ab: (-max(ab[0].score, ab[1].score), -(ab[0].score + ab[1].score),
                                              min(ab[0].rank, ab[1].rank))):
        white, black = allocate(a, b)
        boards.append((white.id, black.id))
    return DutchRound(round_, tuple(boards), bye.id if bye else None,
                      sum(1 for a, b in pairs if b.id in a.met), int(bye is not None and bye.byes > 0))


def _least_rematches(players: Sequence[Player], rules: _Rules) -> int:
    """The fewest rematches any complete pairing needs (rematches allowed)."""
    for budget in range(len(players) // 2 + 1):
        if completable(players, rules, budget):
            return budget
    return len(players) // 2

