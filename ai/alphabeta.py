"""Alpha-beta over the engine contract for two-player games without dice or secrets (ZÈRTZ, Zaic).

Iterative deepening minimax with alpha-beta cut-offs, the per-game evaluation (``ai.evaluate``) at the
horizon, and a budget in positions played (fixed work, so the result is deterministic). Who moves next
is read from the game, so a player who moves again (a ZÈRTZ capture chain) is handled like any ply.
Moves are ordered best-first by their one-ply value at interior nodes, and at the root by the previous
depth's values. When the budget runs out inside a depth, the root moves searched to that depth count
once the previous depth's best move is among them (it is searched first). docs/ai.md has the
measured comparison with the tree search.
"""

from __future__ import annotations

import random

from ai import clock
from ai.evaluate import evaluate
from engines import CHANCE, Game

WIN = 2.0
"""Above any evaluation (those lie in [0, 1]); a quicker win scores a little more."""


class OutOfNodes(Exception):
    """The search met its position budget."""


class Search:
    def __init__(self, seat: int, nodes: int, deadline: float | None) -> None:
        self.seat = seat
        self.left = nodes
        self.deadline = deadline
        self.made: dict[int, list[tuple[float, Game]]] = {}
        """Each interior position's ordered children, kept across the deepening (keyed by the position's id:
        every position searched below the root is one of these children, so it stays alive)."""

    def child(self, game: Game, who: int, move: str) -> Game:
        self.left -= 1
        if self.left < 0 or (self.deadline is not None and self.left % 16 == 0
                             and clock.now() >= self.deadline):
            raise OutOfNodes
        twin = game.clone()
        twin.play(who, move)
        return twin

    def value(self, game: Game, depth: int) -> float | None:
        """The position's worth to ``seat``: exact if over, else the evaluation; None while play goes on."""
        outcome = game.outcome()
        if outcome is not None:
            if outcome.is_draw:
                return 0.5
            won = self.seat in outcome.winners
            return WIN + 0.01 * depth if won else -WIN - 0.01 * depth
        if depth <= 0:
            return evaluate(game)[self.seat]
        return None

    def ordered(self, game: Game, who: int) -> list[tuple[float, Game]]:
        """Every child with its static value to ``seat``, best first for the mover (made once per search)."""
        known = self.made.get(id(game))
        if known is not None:
            return known
        children = []
        for move in game.legal_moves(who):
            twin = self.child(game, who, move)
            static = self.value(twin, 0)
            children.append((static if static is not None else 0.5, twin))
        children.sort(key=lambda c: c[0], reverse=who == self.seat)
        self.made[id(game)] = children
        return children

    def minimax(self, game: Game, depth: int, alpha: float, beta: float) -> float:
        exact = self.value(game, depth)
        if exact is not None:
            return exact
        movers = game.to_move()
        if CHANCE in movers or not movers:
            return evaluate(game)[self.seat]
        who = min(movers)
        maximize = who == self.seat
        if depth == 1:
            best = -WIN * 2 if maximize else WIN * 2
            for move in game.legal_moves(who):
                v = self.value(self.child(game, who, move), 0)
                assert v is not None
                best = max(best, v) if maximize else min(best, v)
                if maximize:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
                if alpha >= beta:
                    break
            return best
        best = -WIN * 2 if maximize else WIN * 2
        for _, twin in self.ordered(game, who):
            v = self.minimax(twin, depth - 1, alpha, beta)
            if maximize:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if alpha >= beta:
                break
        return best


def choose(game: Game, seat: int, moves: list[str], nodes: int, rng: random.Random, deadline: float | None = None,
           max_depth: int = 12) -> str:
    """The best move found by iterative deepening within ``nodes`` positions and by ``deadline`` (``seat`` to move)."""
    return search(game, seat, moves, nodes, rng, deadline, max_depth)[0]


def search(game: Game, seat: int, moves: list[str], nodes: int, rng: random.Random, deadline: float | None = None,
           max_depth: int = 12) -> tuple[str, int]:
    """``choose``'s move and the depth it rests on (0: one ply only; 1: the replies too; ...).

    ``deadline`` is a ``clock.now()`` value.
    """
    ab = Search(seat, nodes, deadline)
    noise = {m: 1e-7 * rng.random() for m in moves}  # ties at random, but reproducibly
    scores: dict[str, float] = {}
    reached = 0
    try:
        children = []
        for move in moves:
            twin = ab.child(game, seat, move)
            static = ab.value(twin, 0)
            scores[move] = (static if static is not None else 0.5) + noise[move]
            children.append((move, twin))
        for depth in range(1, max_depth):
            order = sorted(children, key=lambda c: scores[c[0]], reverse=True)
            if scores[order[0][0]] >= WIN:
                break  # a won line is already in hand
            fresh: dict[str, float] = {}
            alpha = -WIN * 2
            try:
                for move, twin in order:
                    v = ab.minimax(twin, depth, alpha, WIN * 2) + noise[move]
                    fresh[move] = v
                    alpha = max(alpha, v)
            except OutOfNodes:
                if order[0][0] in fresh:  # the previous best was searched deeper: the best so far is sound
                    return max(fresh, key=fresh.__getitem__), depth
                raise
            scores = {m: fresh.get(m, -WIN * 2) for m in scores}
            reached = depth
    except OutOfNodes:
        pass
    return max(moves, key=lambda m: scores.get(m, -WIN * 3)), reached
