"""Exact short win search at the root: a win in one move, or a forced win in two (my move, any reply, my win).

Only for two-player games without dice or secrets (ZÈRTZ, Zaic, two-player Zarathustra); it counts
the positions it plays (and the move lists it reads) and gives up past ``nodes`` or the deadline, so it
costs little where branching is wide and finds the forcing lines (ZÈRTZ capture chains) where it is
narrow. The candidate moves for a win in two are tried most forcing first (fewest opponent replies):
ZÈRTZ captures are compulsory, so a move that offers a capture leaves the opponent one or two replies,
and those are the lines that win; in a wide position the budget would end before reaching them in
notation order.
"""

from __future__ import annotations

from ai import clock
from engines import CHANCE, Game

LISTING = 3
"""Nodes charged for reading a position's legal moves: about as much as a few plays."""

CLOCK_EVERY = 16
"""Look at the clock every this many nodes (reading it each time would cost more than the plays)."""


class OutOfNodes(Exception):
    """The search met its node budget or its deadline."""


class Budget:
    def __init__(self, nodes: int, deadline: float | None = None) -> None:
        self.left = nodes
        self.deadline = deadline
        self.ticks = 0

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise OutOfNodes
        if self.deadline is not None:
            self.ticks += n
            if self.ticks >= CLOCK_EVERY:
                self.ticks = 0
                if clock.now() >= self.deadline:
                    raise OutOfNodes


def applies(game: Game) -> bool:
    return game.num_players == 2 and not game.hidden_information and CHANCE not in game.to_move()


def won(game: Game, seat: int) -> bool:
    outcome = game.outcome()
    return outcome is not None and seat in outcome.winners and not outcome.is_draw


def after(game: Game, seat: int, move: str, budget: Budget) -> Game:
    budget.spend()
    twin = game.clone()
    twin.play(seat, move)
    return twin


def listed(game: Game, seat: int, budget: Budget) -> list[str]:
    budget.spend(LISTING)
    return game.legal_moves(seat)


def win_in_one(game: Game, seat: int, budget: Budget) -> str | None:
    for move in listed(game, seat, budget):
        if won(after(game, seat, move, budget), seat):
            return move
    return None


def replies(game: Game, seat: int, budget: Budget) -> list[str] | None:
    """The opponent's replies in ``game`` (not over), or None when ``seat`` moves again (a capture chain)."""
    movers = game.to_move()
    if not movers or CHANCE in movers or seat in movers:
        return None
    return listed(game, min(movers), budget)


def forced(game: Game, seat: int, budget: Budget, answers: list[str] | None) -> bool:
    """``seat`` wins in one move after every reply ``answers`` of the opponent (None: ``seat`` moves again)."""
    movers = game.to_move()
    if not movers or CHANCE in movers:
        return won(game, seat)
    if answers is None:
        return win_in_one(game, seat, budget) is not None
    opp = min(movers)
    positions = [after(game, opp, r, budget) for r in answers]
    if any(p.outcome() is not None and not won(p, seat) for p in positions):
        return False  # a reply that ends the game at once refutes cheaply, so look at those first
    return all(won(p, seat) or win_in_one(p, seat, budget) is not None for p in positions)


def winning_move(game: Game, seat: int, moves: list[str], plies: int, nodes: int,
                 deadline: float | None = None) -> str | None:
    """A move winning within ``plies`` (1 or 3) plies whatever the opponent does; None (also out of nodes or time)."""
    if plies <= 0 or not applies(game):
        return None
    budget = Budget(nodes, deadline)
    try:
        children = []
        for move in moves:
            twin = after(game, seat, move, budget)
            if won(twin, seat):
                return move
            children.append((move, twin))
        if plies < 3:
            return None
        # Most forcing first: moving again (a capture chain goes on) counts as no reply at all.
        candidates = []
        for order, (move, twin) in enumerate(children):
            if twin.outcome() is None:
                answers = replies(twin, seat, budget)
                candidates.append((0 if answers is None else len(answers), order, move, twin, answers))
        candidates.sort(key=lambda c: (c[0], c[1]))
        for _, _, move, twin, answers in candidates:
            if forced(twin, seat, budget, answers):
                return move
    except OutOfNodes:
        return None
    return None
