"""A safe first answer under a clock: a two-ply screen that runs before any search when ``budget_s`` is given.

Why: with a small budget (0.05 s of CPU) the tree search finishes a handful of iterations, which neither
see a win in one nor a reply that captures. The screen values every move by one ply (a win in one is taken
at once), then, best first, by the worst the next mover can do to it (a paranoid second ply: a reply that
captures or wins shows as a drop), with alpha-beta cut-offs and refuting replies tried first (killers),
so a refuted move costs one reply. It stops by the clock; the moves it checked within ``MARGIN`` of the
best are the *safe* set the level's search then refines. If the clock ends first, the answer is the best
checked move (or the best by one ply). The search sees a determinized copy only (``Game.determinize``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ai import clock
from ai.evaluate import evaluate
from ai.oneply import made, quick_value
from engines import CHANCE, Game

WIN = 2.0
"""Above any evaluation (those lie in [0, 1])."""

MARGIN = 0.02
"""Moves within this of the best two-ply value stay candidates for the search (a capture drops more)."""

ROLL_OUTCOMES = 6
"""Under a clock, a move followed by a roll of at most this many outcomes (one die: Zodiac's danger rolls, which
can cost the moving piece, the king too) is valued as the average over the roll. Ziggurat's turn roll (64
outcomes) changes no evaluation and stays a leaf; at fixed work the screen is unchanged (hard's measured numbers)."""

CLOCK_EVERY = 8
"""Read the clock every this many positions made."""


def now() -> float:
    """The search clock (``ai/clock.py``): CPU time of this process unless the host chose the wall clock."""
    return clock.now()


class OutOfTime(Exception):
    """The deadline passed."""


@dataclass
class Screened:
    best: str
    """The answer so far: a win in one, else the best two-ply value, else the best one-ply value."""
    safe: list[str]
    """Checked moves within ``MARGIN`` of the best (best first); the search picks among these."""
    won: bool = False
    complete: bool = False
    """Every move was checked to two plies."""
    refuted: frozenset[str] = frozenset()
    """Checked moves more than ``MARGIN`` below the best checked one: worse at two plies, whatever is unchecked."""


class Screen:
    def __init__(self, world: Game, seat: int, deadline: float | None, nodes: int | None = None) -> None:
        self.world = world
        self.seat = seat
        self.deadline = deadline
        self.nodes = nodes
        self.made = 0
        self.killers: list[str] = []
        self.teams = world.teams()

    def count(self) -> None:
        self.made += 1
        if self.nodes is not None and self.made > self.nodes:
            raise OutOfTime
        if self.deadline is not None and self.made % CLOCK_EVERY == 0 and now() >= self.deadline:
            raise OutOfTime

    def value(self, game: Game, who: int, move: str) -> float:
        """The seat's ``leaf`` value after the move: counted as one position, made only when no shortcut applies."""
        self.count()
        quick = quick_value(game, who, move)
        return quick[self.seat] if quick is not None else self.leaf(made(game, who, move))

    def leaf(self, game: Game) -> float:
        outcome = game.outcome()
        if outcome is not None and not outcome.is_draw:
            return WIN if self.seat in outcome.winners else -WIN
        return evaluate(game)[self.seat]

    def reply_value(self, game: Game, floor: float) -> float:
        """The seat's value after the next mover's best reply (its own next move if it moves again).

        A value below ``floor`` is only an upper bound: the first reply that low refutes the move.
        """
        if game.outcome() is not None:
            return self.leaf(game)
        movers = game.to_move()
        if movers == {CHANCE} and self.deadline is not None:
            outcomes = game.chance_outcomes()  # a die that decides the move itself (a Zodiac danger roll)
            if len(outcomes) <= ROLL_OUTCOMES:
                return sum(p * self.value(game, CHANCE, t) for t, p in outcomes)
        if not movers or CHANCE in movers or len(movers) > 1:
            return self.leaf(game)
        who = min(movers)
        replies = game.legal_moves(who)
        if self.teams[who] == self.teams[self.seat]:  # it (or its partner) moves again: their best step
            return max((self.value(game, who, r) for r in replies), default=self.leaf(game))
        present = set(replies)
        first = [k for k in self.killers if k in present]
        worst = WIN * 2
        for r in first + [r for r in replies if r not in first]:
            v = self.value(game, who, r)
            if v < worst:
                worst = v
                if v < floor:
                    if r in self.killers:
                        self.killers.remove(r)
                    self.killers.insert(0, r)
                    del self.killers[4:]
                    break
        return worst if worst < WIN * 2 else self.leaf(game)


def screen(game: Game, seat: int, moves: list[str], deadline: float | None, rng: random.Random,
           nodes: int | None = None) -> Screened:
    """Check ``moves`` by one then two plies until ``deadline`` (a ``now()`` value) or ``nodes`` positions made.

    With ``nodes`` and no deadline the result is fixed work: the same for the same generator.
    """
    world = game.determinize(seat, rng)
    s = Screen(world, seat, deadline, nodes)
    noise = {m: 1e-7 * rng.random() for m in moves}  # ties at random, but reproducibly
    static: dict[str, float] = {}
    try:
        for move in moves:
            value = s.value(world, seat, move)
            if value >= WIN:
                return Screened(move, [move], won=True, complete=True)
            static[move] = value + noise[move]
    except OutOfTime:
        pass
    if not static:
        return Screened(moves[0], list(moves))
    order = sorted(static, key=static.__getitem__, reverse=True)
    values: dict[str, float] = {}
    best = -WIN * 2
    try:
        if len(static) == len(moves):
            for move in order:
                v = s.reply_value(made(world, seat, move), best - MARGIN) + noise[move]
                values[move] = v
                best = max(best, v)
    except OutOfTime:
        pass
    if not values:
        return Screened(order[0], [order[0]])
    safe = sorted((m for m in values if values[m] >= best - MARGIN), key=values.__getitem__, reverse=True)
    refuted = frozenset(m for m in values if values[m] < best - MARGIN)
    return Screened(safe[0], safe, complete=len(values) == len(moves), refuted=refuted)
