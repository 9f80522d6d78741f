"""ZÈRTZ search that sees forced sequences: alpha-beta over whole turns, depth in placement turns only.

A compact copy of the position (cells, pool, captures, turn) with its own move maker, checked against
``engines.zrtz`` move for move in tests/ai/test_zertz_search.py, because the engine's text moves cost
about 160 microseconds each (parsing, history, repetition table) and a search needs tens of thousands.

The search (negamax with alpha-beta):

- depth counts **placement turns**; a capture turn (compulsory, a whole chain is one move) uses none, so
  every forced capture sequence is searched to its end (capture quiescence);
- at the root every legal move is searched; below it a placement node searches its *active* moves
  (placements after which a capture is on, or that isolate marbles, with the removals that can matter:
  free rings next to a marble, the ones that cut the board, and one other) and stands pat on its quiet
  moves, whose material is the same: the mover may always play quietly instead (null-move style), unless
  no quiet move exists (then every move is searched: zugzwang endings);
- children are made, valued statically and searched best first; iterative deepening orders the root;
- the evaluation is the difference in marbles still needed for the nearest winning set (4 white, 5 grey,
  6 black or 3 of each, Blitz 3/4/5 or 2), with small tie-breaks for several near goals, plus a tiny
  shape term (marbles and rings by their number of neighbours); a win is worth ``WIN`` (about 100 marbles).

Work is counted in positions made (fixed work: deterministic), or stopped by a deadline.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ai import clock
from engines import Game
from engines.zrtz.board import board as board_of

NO_RING, VACANT = -2, -1
COLOURS = "wgb"
WIN = 100.0


STATS: dict[str, int] = {}
"""The depth the last ``choose`` completed, and ``searched``: root moves valued at the depth the work cut short
(for the benchmarks)."""


class OutOfWork(Exception):
    """The node budget or the deadline is spent."""


class Pos:
    __slots__ = ("cap", "cells", "multi", "passes", "pool", "rings", "turn", "winner")

    def __init__(self, cells: list[int], pool: list[int], cap: list[list[int]], turn: int, winner: int | None,
                 multi: bool, passes: int = 0, rings: int = 0) -> None:
        self.cells = cells
        self.pool = pool
        self.cap = cap
        self.turn = turn
        self.winner = winner  # -1 draw, seat, or None while the game goes on
        self.multi = multi  # the board is in several pieces (isolation checks need a full walk)
        self.passes = passes
        self.rings = rings  # bit r set: ring r is still on the board

    def copy_turn(self) -> Pos:
        """The same position with the other side to move (what it threatens)."""
        twin = self.copy()
        twin.turn = 1 - self.turn
        return twin

    def copy(self) -> Pos:
        return Pos(list(self.cells), list(self.pool), [list(self.cap[0]), list(self.cap[1])], self.turn,
                   self.winner, self.multi, self.passes, self.rings)


class Rules:
    """One board size and marble set: neighbours, goals, and the move maker."""

    def __init__(self, rings: int, goal: tuple[int, ...], each: int) -> None:
        b = board_of(rings)
        self.names = b.names
        self.index = b.index
        self.nb = b.neighbours
        self.n = len(b.names)
        self.goal = tuple(goal)
        self.each = each
        self._edge: dict[int, tuple[int, ...]] = {}
        self._pieces: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._cuts: dict[int, tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]] = {}
        self._needed: dict[tuple[int, ...], float] = {}
        self.jumps = [tuple((x, self.nb[x][d]) for d, x in enumerate(self.nb[r]) if x >= 0 and self.nb[x][d] >= 0)
                      for r in range(self.n)]
        """Per ring, (the ring jumped over, the landing ring) in every direction that stays on the full board."""
        self._won: dict[tuple[int, ...], bool] = {}
        near = [{r} | {x for x in self.nb[r] if x >= 0} for r in range(self.n)]
        self.close = [frozenset(set().union(*(near[x] for x in near[r]))) for r in range(self.n)]
        """Rings within two steps of each ring."""

    # ----- from and to the engine ---------------------------------------------------------

    def from_game(self, game: Game) -> Pos:
        g = game
        cells = list(g.cells)  # type: ignore[attr-defined]
        outcome = g.outcome()
        winner = None if outcome is None else (-1 if outcome.is_draw else min(outcome.winners))
        pos = Pos(cells, list(g.pool), [list(c) for c in g.captured],  # type: ignore[attr-defined]
                  g.turn, winner, False, g.passes)  # type: ignore[attr-defined]
        pos.rings = sum(1 << r for r in range(self.n) if cells[r] != NO_RING)
        pos.multi = len(self.pieces(pos.rings)) > 1
        return pos

    def text(self, move: tuple) -> str:
        if move[0] == "x":
            return "x".join(self.names[c] for c in move[1])
        if move[0] == "pass":
            return "pass"
        _, colour, at, removed = move
        return f"{COLOURS[colour]}{self.names[at]}" + (f" {self.names[removed]}" if removed >= 0 else "")

    def parse(self, text: str) -> tuple:
        if text == "pass":
            return ("pass",)
        if "x" in text:
            return ("x", tuple(self.index[p] for p in text.split("x")))
        parts = text.split()
        return ("p", COLOURS.index(parts[0][0]), self.index[parts[0][1:]],
                self.index[parts[1]] if len(parts) > 1 else -1)

    # ----- rules --------------------------------------------------------------------------

    def won(self, caught: list[int]) -> bool:
        key = tuple(caught)
        found = self._won.get(key)
        if found is None:
            found = self._won[key] = (any(c >= g for c, g in zip(caught, self.goal, strict=True))
                                      or min(caught) >= self.each)
        return found

    def edge(self, rings: int) -> tuple[int, ...]:
        """Rings of the board ``rings`` that could slide out if vacant (two neighbouring positions in a row empty)."""
        found = self._edge.get(rings)
        if found is None:
            out = []
            for r in range(self.n):
                if not rings >> r & 1:
                    continue
                gone = [x < 0 or not rings >> x & 1 for x in self.nb[r]]
                if any(gone[d] and gone[d - 1] for d in range(6)):
                    out.append(r)
            found = self._edge[rings] = tuple(out)
        return found

    def free(self, pos: Pos) -> list[int]:
        cells = pos.cells
        return [r for r in self.edge(pos.rings) if cells[r] == VACANT]

    def pieces(self, rings: int) -> tuple[tuple[int, ...], ...]:
        """The connected parts of the board ``rings`` (cached: the board changes far less often than the marbles)."""
        found = self._pieces.get(rings)
        if found is None:
            nb = self.nb
            seen = 0
            out = []
            for start in range(self.n):
                if not rings >> start & 1 or seen >> start & 1:
                    continue
                group, stack = [], [start]
                seen |= 1 << start
                while stack:
                    r = stack.pop()
                    group.append(r)
                    for x in nb[r]:
                        if x >= 0 and rings >> x & 1 and not seen >> x & 1:
                            seen |= 1 << x
                            stack.append(x)
                out.append(tuple(group))
            found = self._pieces[rings] = tuple(out)
        return found

    def captures(self, cells: list[int]) -> list[tuple[int, ...]]:
        """Every complete capture chain, as the rings the jumping marble stands on."""
        jumps = self.jumps
        out: list[tuple[int, ...]] = []

        def extend(path: list[int], jumped: set[int]) -> None:
            at = path[-1]
            moved = False
            for over, land in jumps[at]:
                if cells[over] < 0 or over in jumped:
                    continue
                if cells[land] == VACANT:
                    moved = True
                    jumped.add(over)
                    path.append(land)
                    extend(path, jumped)
                    path.pop()
                    jumped.discard(over)
            if not moved and len(path) > 1:
                out.append(tuple(path))

        for start in range(self.n):
            colour = cells[start]
            if colour < 0 or not any(cells[over] >= 0 and cells[land] == VACANT for over, land in jumps[start]):
                continue
            cells[start] = VACANT
            try:
                extend([start], set())
            finally:
                cells[start] = colour
        return out

    def any_capture(self, cells: list[int]) -> bool:
        jumps = self.jumps
        for at, colour in enumerate(cells):
            if colour >= 0:
                for over, land in jumps[at]:
                    if cells[over] >= 0 and cells[land] == VACANT:
                        return True
        return False

    def source(self, pos: Pos) -> list[int]:
        return pos.pool if any(pos.pool) else pos.cap[pos.turn]

    def play(self, pos: Pos, move: tuple) -> Pos:
        child = pos.copy()
        kind = move[0]
        seat = pos.turn
        if kind == "x":
            path = move[1]
            cells = child.cells
            colour = cells[path[0]]
            cells[path[0]] = VACANT
            nb = self.nb
            for a, b in itertools.pairwise(path):
                for d in range(6):
                    over = nb[a][d]
                    if over >= 0 and nb[over][d] == b:
                        child.cap[seat][cells[over]] += 1
                        cells[over] = VACANT
                        break
            cells[path[-1]] = colour
            child.passes = 0
        elif kind == "pass":
            child.passes += 1
            child.turn = 1 - seat
            if child.passes >= 2:
                child.winner = -1
            return child
        else:
            _, colour, at, removed = move
            cells = child.cells
            source = child.pool if any(child.pool) else child.cap[seat]
            source[colour] -= 1
            cells[at] = colour
            child.passes = 0
            if removed >= 0:
                cells[removed] = NO_RING
                child.rings &= ~(1 << removed)
            if VACANT not in cells:
                for r in range(self.n):
                    if cells[r] >= 0:
                        child.cap[seat][cells[r]] += 1
                        cells[r] = NO_RING
                child.rings = 0
                child.winner = seat
                child.turn = 1 - seat
                return child
            groups = self.pieces(child.rings)
            if len(groups) > 1:
                child.multi = True
                for group in groups:
                    if all(cells[r] != VACANT for r in group):
                        for r in group:
                            child.cap[seat][cells[r]] += 1
                            cells[r] = NO_RING
                            child.rings &= ~(1 << r)
        if self.won(child.cap[seat]):
            child.winner = seat
        child.turn = 1 - seat
        return child

    def legal(self, pos: Pos) -> list[tuple]:
        """Every legal move (as the engine lists them, without the repetition rule)."""
        paths = self.captures(pos.cells)
        if paths:
            return [("x", p) for p in paths]
        source = self.source(pos)
        colours = [c for c in range(3) if source[c] > 0]
        if not colours:
            return [("pass",)]
        free = self.free(pos)
        out = []
        for c in colours:
            for r in range(self.n):
                if pos.cells[r] != VACANT:
                    continue
                removals = [q for q in free if q != r]
                if removals:
                    out.extend(("p", c, r, q) for q in removals)
                else:
                    out.append(("p", c, r, -1))
        return out

    # ----- what a placement can do ----------------------------------------------------------

    def creates_capture(self, cells: list[int], r: int) -> bool:
        nb = self.nb
        around = nb[r]
        for d in range(6):
            x = around[d]
            if x >= 0 and cells[x] >= 0:
                beyond = nb[x][d]
                if beyond >= 0 and cells[beyond] == VACANT:
                    return True
                back = around[(d + 3) % 6]
                if back >= 0 and cells[back] == VACANT:
                    return True
        return False

    def isolations(self, pos: Pos) -> list[tuple[int, int, list[int]]]:
        """(ring the placement fills or -1 for any, removed ring or -1 for any, marbles claimed) of every
        placement that isolates marbles: a part of the board (cut off by the removal, or already apart) with
        no vacant ring left, or with one that the placement fills (then the placed marble is claimed too)."""
        cells = pos.cells
        out = []
        parts = [(-1, self.pieces(pos.rings))] if pos.multi else []
        parts += [(q, groups) for q, groups in self.cuts(pos.rings) if cells[q] == VACANT]
        for q, groups in parts:
            if q < 0 and len(groups) < 2:
                continue
            for group in groups:
                vac = [r for r in group if cells[r] == VACANT]
                if len(vac) > 1:
                    continue
                claimed = [0, 0, 0]
                for r in group:
                    if cells[r] >= 0:
                        claimed[cells[r]] += 1
                out.append((vac[0] if vac else -1, q, claimed))
        return out

    def cuts(self, rings: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        """(edge ring, the new parts its removal leaves) for every edge ring of ``rings`` whose removal cuts the
        board (cached per board: most boards have none, so the isolation checks cost a lookup)."""
        found = self._cuts.get(rings)
        if found is None:
            before = self.pieces(rings)
            out = []
            for q in self.edge(rings):
                groups = self.pieces(rings & ~(1 << q))
                if len(groups) > len(before):
                    out.append((q, tuple(g for g in groups if g not in before)))
            found = self._cuts[rings] = tuple(out)
        return found

    def wins_now(self, pos: Pos) -> bool:
        """The mover (at a placement, no capture on) wins at once by isolating marbles or filling the board."""
        cells = pos.cells
        source = self.source(pos)
        colours = [c for c in range(3) if source[c] > 0]
        if not colours:
            return False
        if cells.count(VACANT) == 1:
            return True
        own = pos.cap[pos.turn]
        spent = source is own  # the pool is empty: the placed marble comes from the mover's own captures
        for r, _, claimed in self.isolations(pos):
            for c in colours:
                got = [own[i] + claimed[i] + (i == c) * ((r >= 0) - spent) for i in range(3)]
                if self.won(got):
                    return True
        return False

    def active(self, pos: Pos, wide: bool = False) -> list[tuple]:
        """The placements worth searching below the root (the others are quiet: the search stands pat on them).

        Active: a capture is on afterwards (with every removal within two rings of the placed marble and one
        other), or marbles are isolated. With few vacant rings left, every move. ``wide``: a capture's removals
        also include every free ring next to any marble (a capture can land only there, so removing it can take
        away the opponent's other capture and leave the one that loses: hard lost games on 61 rings that way).
        """
        cells = pos.cells
        source = self.source(pos)
        colours = [c for c in range(3) if source[c] > 0]
        free = self.free(pos)
        vacant = [r for r in range(self.n) if cells[r] == VACANT]
        if len(vacant) <= 4:
            return self.legal(pos)
        moves: list[tuple] = []
        quiet_ring = -1
        touching: set[int] = set()
        if wide:
            nb = self.nb
            for m in range(self.n):
                if cells[m] >= 0:
                    touching.update(nb[m])
        for r in vacant:
            removals = [q for q in free if q != r]
            if self.creates_capture(cells, r):
                if not removals:
                    chosen = [-1]
                else:
                    close = self.close[r]
                    chosen = [q for q in removals if q in close or q in touching]
                    other = next((q for q in removals if q not in close and q not in touching), None)
                    if other is not None:
                        chosen.append(other)
                moves.extend(("p", c, r, q) for c in colours for q in chosen)
            elif quiet_ring < 0:
                quiet_ring = r
        claims: list[tuple] = []  # first: they win material at once
        for r, q, _ in self.isolations(pos):
            rings = [r] if r >= 0 else [v for v in (quiet_ring, *vacant) if v >= 0 and v != q][:1]
            qs = [q] if q >= 0 else ([x for x in free if x != r][:1] or [-1])
            claims.extend(("p", c, at, x) for at in rings for x in qs for c in colours)
        if claims:
            claims = list(dict.fromkeys(claims))
            taken = set(claims)
            return claims + [m for m in moves if m not in taken]
        return moves

    def far_removals(self, pos: Pos, wide: bool = False) -> set[int]:
        """Free rings whose removal cannot matter within two placement turns wherever the marble goes (the
        placed marble's own surroundings aside): more than two steps from every marble, so no capture lands
        there, and neither cutting the board nor making a new cut possible (an isolation). ``wide``: nor
        freeing a ring within two steps of a marble (the reply may remove that one and change the captures)."""
        cells, rings = pos.cells, pos.rings
        near: set[int] = set()
        for r in range(self.n):
            if cells[r] >= 0:
                near |= self.close[r]
        cutting = {q for q, _ in self.cuts(rings)}
        free_now = set(self.edge(rings)) if wide else set()
        out = set()
        for q in self.free(pos):
            if q in near or q in cutting:
                continue
            if {x for x, _ in self.cuts(rings & ~(1 << q))} - cutting:
                continue
            if wide and near.intersection(self.edge(rings & ~(1 << q))) - free_now:
                continue
            out.add(q)
        return out

    def has_quiet(self, pos: Pos) -> bool:
        """A placement after which no capture is on and nothing is isolated (early exit)."""
        cells = pos.cells
        if cells.count(VACANT) <= 4:
            return False
        free = self.free(pos)
        risky = {q for q, _ in self.cuts(pos.rings) if cells[q] == VACANT}
        last = set()
        if pos.multi and len(self.pieces(pos.rings)) > 1:
            for group in self.pieces(pos.rings):
                vac = [r for r in group if cells[r] == VACANT]
                if len(vac) == 1:
                    last.add(vac[0])
        for r in range(self.n):
            if cells[r] != VACANT or r in last or self.creates_capture(cells, r):
                continue
            removals = [q for q in free if q != r]
            if not removals or any(q not in risky for q in removals):
                return True
        return False

    def wins_in_one(self, pos: Pos) -> bool:
        """The mover wins with the next move (a capture chain or a placement)."""
        if self.any_capture(pos.cells):
            return any(self.play(pos, ("x", p)).winner == pos.turn for p in self.captures(pos.cells))
        return self.wins_now(pos)

    # ----- evaluation -----------------------------------------------------------------------

    def needed(self, caught: list[int]) -> float:
        """Marbles still needed for the nearest winning set, less small credits for other near sets."""
        key = tuple(caught)
        found = self._needed.get(key)
        if found is None:
            found = self._needed[key] = self._need(caught)
        return found

    def _need(self, caught: list[int]) -> float:
        needs = [max(0, g - c) for g, c in zip(self.goal, caught, strict=True)]
        needs.append(sum(max(0, self.each - c) for c in caught))
        needs.sort()
        best = needs[0]
        credit = sum(0.3 / (2 ** (n - best + 1)) for n in needs[1:])
        return best - credit + 0.01 * (best == 0)

    def shape(self, cells: list[int]) -> float:
        """Tiny: marbles with few neighbouring rings (easy to isolate) count against nobody in particular,
        so this only breaks ties between quiet moves; both sides see the same board."""
        return 0.0

    def evaluate(self, pos: Pos, seat: int) -> float:
        if pos.winner is not None:
            return 0.0 if pos.winner < 0 else (WIN if pos.winner == seat else -WIN)
        return self.needed(pos.cap[1 - seat]) - self.needed(pos.cap[seat])

    def stand_pat(self, pos: Pos) -> float:
        """The mover's value of a quiet move: the material stays, unless the pool is empty (own marbles)."""
        seat = pos.turn
        if any(pos.pool):
            return self.evaluate(pos, seat)
        best = -WIN * 2
        own = pos.cap[seat]
        for c in range(3):
            if own[c] > 0:
                own[c] -= 1
                best = max(best, self.evaluate(pos, seat))
                own[c] += 1
        return best


class Searcher:
    def __init__(self, rules: Rules, nodes: int, deadline: float | None,
                 evaluate: Callable[[Pos, int], float] | None = None, leaf_wins: bool = True,
                 wide: bool = False) -> None:
        """``leaf_wins``: at the horizon, a side to place that can win at once counts as winning (hard's
        defence against a sacrifice followed by a winning placement); the benchmark robots go without.
        ``wide``: below the root a capture's removals include every free ring next to a marble (``Rules.active``)."""
        self.rules = rules
        self.leaf_wins = leaf_wins
        self.wide = wide
        self.left = nodes
        self.deadline = deadline
        self.evaluate = evaluate or rules.evaluate
        self.made = 0
        self.killers: dict[int, list[tuple]] = {}

    def make(self, pos: Pos, move: tuple) -> Pos:
        self.left -= 1
        self.made += 1
        if self.left < 0:
            raise OutOfWork
        if self.deadline is not None and self.made % 128 == 0 and clock.now() >= self.deadline:
            raise OutOfWork
        return self.rules.play(pos, move)

    def static(self, pos: Pos, seat: int) -> float:
        return self.evaluate(pos, seat)

    def negamax(self, pos: Pos, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Value for the side to move in ``pos``."""
        if pos.winner is not None:
            if pos.winner < 0:
                return 0.0
            return (WIN + 50 - ply) if pos.winner == pos.turn else -(WIN + 50 - ply)
        rules = self.rules
        seat = pos.turn
        best = -WIN * 10
        if rules.any_capture(pos.cells):
            moves: list[tuple] = [("x", p) for p in rules.captures(pos.cells)]
            if len(moves) == 1:
                return -self.negamax(self.make(pos, moves[0]), depth, -beta, -alpha, ply + 1)
        else:
            if not any(rules.source(pos)):
                if depth <= 0:
                    return self.static(pos, seat)
                return -self.negamax(self.make(pos, ("pass",)), depth - 1, -beta, -alpha, ply + 1)
            if depth <= 0:
                if self.leaf_wins and rules.wins_now(pos):
                    return WIN + 49 - ply
                return self.static(pos, seat)
            quiet = rules.has_quiet(pos)
            if quiet:
                best = self.stand_pat(pos)
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            return self._placements(pos, rules.active(pos, self.wide), depth - 1, alpha, beta, ply, best)
        children = [self.make(pos, m) for m in moves]
        children.sort(key=lambda c: self.static(c, seat), reverse=True)
        for child in children:
            v = -self.negamax(child, depth, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _placements(self, pos: Pos, moves: list[tuple], depth: int, alpha: float, beta: float, ply: int,
                    best: float) -> float:
        """A placement node's active moves, each made only when its turn comes: the placements that refuted a
        sibling first (killers: a threat found once is usually the answer to the next root move too), then the
        ones that claim marbles (``Rules.active`` lists them first), then the rest. A placement changes the
        material only by claiming, so sorting by static value (making every child first) bought nothing
        but the cost of making children a cutoff never reaches."""
        killers = self.killers.setdefault(ply, [])
        if killers:
            listed = set(moves)
            first = [k for k in killers if k in listed]
            if first:
                moves = first + [m for m in moves if m not in first]
        for move in moves:
            v = -self.negamax(self.make(pos, move), depth, -beta, -alpha, ply + 1)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if move not in killers:
                            killers.insert(0, move)
                            del killers[2:]
                        break
        return best

    def stand_pat(self, pos: Pos) -> float:
        if self.evaluate is self.rules.evaluate:
            return self.rules.stand_pat(pos)
        return self.static(pos, pos.turn)


def rules_for(game: Game) -> Rules:
    return Rules(game.board.rings, game.goal, game.each)  # type: ignore[attr-defined]


def forced_win(searcher: Searcher, pos: Pos, moves: list[tuple]) -> tuple | None:
    """A move that wins at once, or after which every reply leaves a win in one (most forcing candidates first:
    the opponent must capture, or the mover already threatens a win); None when none is found within the work."""
    rules, me = searcher.rules, pos.turn
    children = []
    for m in moves:
        child = searcher.make(pos, m)
        if child.winner == me:
            return m
        if child.winner is None:
            children.append((m, child))
    forcing = [(m, c) for m, c in children if rules.any_capture(c.cells)]
    threats = [(m, c) for m, c in children if not rules.any_capture(c.cells) and rules.wins_now(c.copy_turn())]
    for m, child in forcing + threats:
        if all(_won_after(searcher, child, reply, me) for reply in rules.legal(child)):
            return m
    return None


def _won_after(searcher: Searcher, pos: Pos, reply: tuple, me: int) -> bool:
    after = searcher.make(pos, reply)
    if after.winner is not None:
        return after.winner == me
    return searcher.rules.wins_in_one(after)


def choose(game: Game, seat: int, texts: list[str], nodes: int, max_depth: int, noise: Callable[[str], float],
           deadline: float | None = None, evaluate: Callable[[Pos, int], float] | None = None,
           leaf_wins: bool = True, forced: bool = True, wide: bool = False) -> str:
    """The best of ``texts`` by iterative deepening to ``max_depth`` placement turns, within ``nodes`` or the deadline.

    ``noise(text)`` is a tiny seeded tie-break. Before any depth completes, the one-ply order (each move's
    static value) is the answer: the search always has a move in hand. ``wide`` (``levels.WIDE_SEARCH``): the
    search below the root tries more removals (``Rules.active``), the root shares fewer (``Rules.far_removals``),
    a bound never wins a tie with a value, and a move proven lost gives way to one not proven lost.
    """
    rules = rules_for(game)
    pos = rules.from_game(game)
    searcher = Searcher(rules, nodes, deadline, evaluate, leaf_wins, wide)
    moves = [rules.parse(t) for t in texts]
    text_of = dict(zip(moves, texts, strict=True))
    scores = {}
    STATS.clear()
    STATS["depth"] = 0
    if forced and max_depth >= 3:
        try:
            share = None if deadline is None else clock.now() + (deadline - clock.now()) / 3
            found = forced_win(Searcher(rules, nodes // 3, share), pos, moves)
        except OutOfWork:
            found = None
        if found is not None:
            return text_of[found]
    try:
        for m in moves:
            child = searcher.make(pos, m)
            scores[m] = searcher.static(child, seat) + noise(text_of[m])
    except OutOfWork:
        pass
    if len(scores) < len(moves):
        return text_of[max(scores, key=scores.__getitem__)] if scores else texts[0]
    far: set[int] = set()
    for depth in range(1, max_depth + 1):
        if depth == 2 and moves[0][0] == "p":
            # a placement's removals far from everything lead to the same play within the horizon: one of them
            # is searched for each colour and ring, the others take its value (a hair less, so a searched move is
            # played). Worked out only once depth 1 is done: on 61 rings it costs about 30 ms, which a 0.05 s
            # clock stopped at depth 1 would otherwise pay unchecked
            far = rules.far_removals(pos, wide)
        order = sorted(moves, key=lambda m: scores[m], reverse=True)
        if scores[order[0]] >= WIN:
            break
        values: dict[tuple, float] = {}
        stand_in: dict[tuple, tuple] = {}
        try:
            alpha = -WIN * 10
            for move in order:
                if depth > 1 and move[0] == "p" and move[3] in far and move[3] not in rules.close[move[2]]:
                    group = move[1], move[2]
                    if group in stand_in:
                        values[move] = values[stand_in[group]] - 1e-5
                        continue
                    stand_in[group] = move
                child = searcher.make(pos, move)
                raw = -searcher.negamax(child, depth - 1, -WIN * 10, -alpha, 1)
                v = raw + noise(text_of[move])
                if wide and raw <= alpha:  # failed low: only a bound, which must not win the tie with alpha's move
                    v -= 1e-3
                values[move] = v
                alpha = max(alpha, v)
        except OutOfWork:
            STATS["searched"] = len(values)
            if order[0] in values:
                best = max(values, key=values.__getitem__)
                if wide and values[best] <= -WIN:  # every move searched loses: one not searched may not,
                    unproven = (m for m in order if m not in values and scores[m] > -WIN)  # unless the depth
                    best = next(unproven, best)  # below proved it lost too
                return text_of[best]
            break
        if wide and depth > 1 and max(values.values()) <= -WIN < max(scores.values()):
            break  # every move loses by force: play the best of the depth below, whose loss is deeper to find
        scores = values
        STATS["depth"] = depth
    return text_of[max(moves, key=lambda m: scores[m])]
