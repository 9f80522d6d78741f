"""Ziggurat hard: expectimax over the mover's whole turn, every end of turn valued after the opponent's best step.

Why (issue 27): the tree search with random rollouts lost to the classical baseline (two die uses of alpha-beta,
expectimax over the dice). A Ziggurat turn is a roll and then up to two or three die uses, so a position's value
is decided by the best *combination* of them (move then tip, tip then move), and the random rollouts blur the
exact race arithmetic. This search lists every way the mover can finish its turn (a Redo's reroll is a chance
node: the average over its faces), and values each end of turn by the opponent's next roll, averaged over all
its faces, and its best single die use against it (a tip that sends pieces home shows as a drop). The value is
the race itself: squares travelled by the seat's colours minus the best opponent's (``ai.evaluate``'s
Ziggurat scores), a win or loss far outside it.

Fixed work (``nodes`` positions made), so the move is the same for a seed; with a deadline it stops by the clock.
The ends of turn are valued best first by their value before the reply, which bounds the value after it (the
opponent may always just end its turn), so most of them are never replied to.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ai import clock
from ai.evaluate import ziggurat_scores
from engines import CHANCE, Game

WIN = 10_000.0
"""Above any race difference (three pieces home travel 183 squares)."""

CLOCK_EVERY = 16
"""With a deadline, read the clock every this many positions made."""

ROLL_INDEPENDENT = ("tip", "swap", "dig", "leap")
"""Die uses whose result does not depend on the movement die (their position is shared by the rolls)."""


class OutOfWork(Exception):
    """The positions or the clock ran out."""


@dataclass
class Turn:
    """A position inside the mover's turn: ``children`` empty at an end of turn."""

    game: Game
    upper: float = 0.0
    """Expectimax of the value before any reply: an upper bound of the value after the reply."""
    chance: bool = False
    children: list[tuple[str, float, Turn]] = field(default_factory=list)
    """(move or roll, its probability at a chance node, the position after it)."""


class Search:
    """One turn search's budget (positions made, or the clock) and its table of the opponent's best replies."""

    def __init__(self, seat: int, nodes: int | None, deadline: float | None) -> None:
        self.seat = seat
        self.nodes = nodes
        self.deadline = deadline
        self.made = 0
        self.replies: dict[tuple[object, ...], float] = {}

    def count(self) -> None:
        self.made += 1
        if self.nodes is not None and self.made > self.nodes:
            raise OutOfWork
        if self.deadline is not None and self.made % CLOCK_EVERY == 0 and clock.now() >= self.deadline:
            raise OutOfWork

    def after(self, game: Game, who: int, move: str) -> Game:
        self.count()
        twin = game.clone()
        twin.play(who, move)
        return twin

    def static(self, game: Game) -> float:
        """The race for the seat: its squares travelled minus the best opposing seat's; a finished game far outside."""
        outcome = game.outcome()
        if outcome is not None:
            if outcome.is_draw:
                return 0.0
            return WIN if self.seat in outcome.winners else -WIN
        scores = ziggurat_scores(game) or [0.0] * game.num_players
        teams = game.teams()
        rivals = [scores[s] for s in range(game.num_players) if teams[s] != teams[self.seat]]
        return scores[self.seat] - (max(rivals) if rivals else 0.0)

    def build(self, game: Game, turn: tuple[int, int]) -> Turn:
        """The rest of the mover's turn as a tree, each node with its value before the reply (``upper``)."""
        node = Turn(game)
        movers = game.to_move()
        if not movers or (game.round, game.index) != turn:  # type: ignore[attr-defined]
            node.upper = self.static(game)
            return node
        if CHANCE in movers:  # a Redo's reroll inside the turn
            node.chance = True
            for text, p in game.chance_outcomes():
                node.children.append((text, p, self.build(self.after(game, CHANCE, text), turn)))
            node.upper = sum(p * child.upper for _, p, child in node.children)
            return node
        who = min(movers)
        for move in game.legal_moves(who):
            node.children.append((move, 1.0, self.build(self.after(game, who, move), turn)))
        node.upper = max(child.upper for _, _, child in node.children)
        return node

    def value(self, node: Turn) -> float:
        """The value after the opponent's reply: exact at chance nodes, best first with the bound at choices."""
        if not node.children:
            return self.reply(node.game)
        if node.chance:
            return sum(p * self.value(child) for _, p, child in node.children)
        best = -WIN * 2
        for _, _, child in sorted(node.children, key=lambda c: c[2].upper, reverse=True):
            if child.upper <= best:
                break
            best = max(best, self.value(child))
        return best

    def reply(self, game: Game) -> float:
        """The average over the next roll of the next mover's best single die use (its worst for the seat)."""
        movers = game.to_move()
        if not movers or movers != {CHANCE}:
            return self.static(game)
        key = (tuple(map(tuple, game.board)), game.index, game.round)  # type: ignore[attr-defined]
        if key in self.replies:
            return self.replies[key]
        stay = self.static(game)
        done: dict[tuple[str, int | None], float] = {}
        total = 0.0
        for text, p in game.chance_outcomes():
            rolled = self.after(game, CHANCE, text)
            movers = rolled.to_move()
            if not movers or CHANCE in movers:
                total += p * self.static(rolled)
                continue
            who = min(movers)
            friend = game.teams()[who] == game.teams()[self.seat]
            best = stay
            for move in rolled.legal_moves(who):
                verb = move.split()[0]
                if verb in ("end", "redo"):
                    continue
                key2 = (move, None if verb in ROLL_INDEPENDENT else rolled.movement)  # type: ignore[attr-defined]
                v = done.get(key2)
                if v is None:
                    v = done[key2] = self.static(self.after(rolled, who, move))
                best = max(best, v) if friend else min(best, v)
            total += p * best
        self.replies[key] = total
        return total


def choose(game: Game, seat: int, moves: list[str], nodes: int | None, rng: random.Random,
           deadline: float | None = None) -> str | None:
    """The move starting the best turn, or None if the work ran out before one root move was valued."""
    search = Search(seat, nodes, deadline)
    noise = {m: 1e-6 * rng.random() for m in moves}  # ties at random, but reproducibly
    turn = (game.round, game.index)  # type: ignore[attr-defined]
    try:
        children = [(m, search.build(search.after(game, seat, m), turn)) for m in moves]
    except OutOfWork:
        return None
    order = sorted(children, key=lambda c: c[1].upper + noise[c[0]], reverse=True)
    best, pick = -WIN * 3, None
    try:
        for move, child in order:
            if child.upper + noise[move] <= best:
                break
            v = search.value(child) + noise[move]
            if v > best:
                best, pick = v, move
    except OutOfWork:
        pass
    return pick
