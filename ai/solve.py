"""Exact short win search at the root: a win in one move, or a forced win in two (my move, any reply, my win).

Only for two-player games without dice or secrets (ZÈRTZ, Zaic, two-player Zarathustra); it counts
the positions it plays and gives up past ``nodes``, so it costs little where branching is wide and
finds the forcing lines (ZÈRTZ capture chains) where it is narrow.
"""

from __future__ import annotations

from engines import CHANCE, Game


class OutOfNodes(Exception):
    """The search met its node budget."""


class Budget:
    def __init__(self, nodes: int) -> None:
        self.left = nodes

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
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


def win_in_one(game: Game, seat: int, budget: Budget) -> str | None:
    budget.spend(3)  # listing the moves costs about as much as a few plays
    for move in game.legal_moves(seat):
        if won(after(game, seat, move, budget), seat):
            return move
    return None


def forced(game: Game, seat: int, budget: Budget) -> bool:
    """``seat`` wins in one move after every reply of the opponent (to move in ``game``)."""
    movers = game.to_move()
    if not movers or CHANCE in movers:
        return won(game, seat)
    if seat in movers:
        return win_in_one(game, seat, budget) is not None
    opp = min(movers)
    budget.spend(3)
    replies = game.legal_moves(opp)
    positions = [after(game, opp, r, budget) for r in replies]
    if any(p.outcome() is not None and not won(p, seat) for p in positions):
        return False  # a reply that ends the game at once refutes cheaply, so look at those first
    return all(won(p, seat) or win_in_one(p, seat, budget) is not None for p in positions)


def winning_move(game: Game, seat: int, moves: list[str], plies: int, nodes: int) -> str | None:
    """A move that wins within ``plies`` (1 or 3) plies whatever the opponent does, or None (also when out of nodes)."""
    if plies <= 0 or not applies(game):
        return None
    budget = Budget(nodes)
    try:
        children = []
        for move in moves:
            twin = after(game, seat, move, budget)
            if won(twin, seat):
                return move
            children.append((move, twin))
        if plies < 3:
            return None
        for move, twin in children:
            if twin.outcome() is None and forced(twin, seat, budget):
                return move
    except OutOfNodes:
        return None
    return None

