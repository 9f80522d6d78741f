"""Classical baselines for Zarathustra, Zaic, Zodiac Chess and Ziggurat: measuring tools, not levels (issue 27).

``classical`` is a depth-2 alpha-beta on our evaluation (``ai.evaluate``) over two-player games: two
decision plies, then the evaluation. Dice inside the depth are expectimax nodes (the average over
``chance_outcomes``, no depth used; at the horizon the evaluation), so Zodiac's rolls and Ziggurat's are
searched exactly within two plies (a roll that leaves nothing to use passes the turn and counts as a ply:
before session 9 chains of such rolls used no depth, and a Ziggurat endgame move took hours). At the
horizon a quiescence search goes on while the position is not quiet: a forced step (the mover has one
legal move, e.g. Ziggurat's ``end``) is played, and in Zodiac a capture (a move onto a square an enemy
piece stands on) is searched, the mover standing pat on its quiet
moves, up to ``QUIESCENCE`` extra plies. Zarathustra's placements all fight and Zaic has no capture, so
there the horizon is two plies. Children are ordered by their static value at the root and the replies
that refuted a sibling first (killers). Zodiac is searched on a determinized copy: the baseline never
reads a secret. Ziggurat's plies are die uses, so two plies are often one turn of the mover.
"""

from __future__ import annotations

import random

from ai.evaluate import evaluate
from engines import CHANCE, Game
from engines.zodiac.core import sq_parse

WIN = 2.0
DEPTH = 2
QUIESCENCE = 4


def captures(game: Game, who: int, moves: list[str]) -> list[str]:
    """Zodiac moves onto an enemy piece (the other games: none)."""
    if game.name != "zodiac" or getattr(game, "phase", "") != "play":
        return []
    st = game.st  # type: ignore[attr-defined]
    side = game.side_of(who)  # type: ignore[attr-defined]
    out = []
    for m in moves:
        words = m.split()
        if len(words) < 2 or "-" not in words[1]:
            continue
        sq = sq_parse(words[1].split("-")[-1])
        cell = st.cells.get(sq) if sq is not None else None
        top = cell.top() if cell is not None else None
        if top is not None and top.side != side and not top.shadow:
            out.append(m)
    return out


class Classical:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.killers: dict[int, list[str]] = {}

    def leaf(self, game: Game) -> float:
        outcome = game.outcome()
        if outcome is not None and not outcome.is_draw:
            return WIN if self.seat in outcome.winners else -WIN
        return evaluate(game)[self.seat]

    def after(self, game: Game, who: int, move: str) -> Game:
        twin = game.clone()
        twin.play(who, move)
        return twin

    def value(self, game: Game, depth: int, alpha: float, beta: float, quiet: int = QUIESCENCE) -> float:
        if game.outcome() is not None:
            return self.leaf(game)
        movers = game.to_move()
        if not movers or len(movers) > 1:
            return self.leaf(game)
        if CHANCE in movers:  # expectimax over the dice, within the depth (at the horizon: the evaluation)
            if depth <= 0:
                return self.leaf(game)
            total = 0.0
            for t, p in game.chance_outcomes():
                child = self.after(game, CHANCE, t)
                # a roll with nothing to use ends the turn at once (Ziggurat) and the next roll follows: that pass
                # is a ply, else a chain of such rolls never uses depth (64 outcomes a link: hours in an endgame)
                rest = depth - 1 if CHANCE in child.to_move() else depth
                total += p * self.value(child, rest, -WIN * 2, WIN * 2, quiet)
            return total
        who = min(movers)
        moves = game.legal_moves(who)
        maximize = who == self.seat
        if depth <= 0:
            return self.quiesce(game, who, moves, alpha, beta, quiet)
        killers = self.killers.setdefault(len(game.history), [])
        present = set(moves)
        first = [k for k in killers if k in present]
        best = -WIN * 2 if maximize else WIN * 2
        for m in first + [m for m in moves if m not in first]:
            v = self.value(self.after(game, who, m), depth - 1, alpha, beta, quiet)
            if maximize:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if alpha >= beta:
                if m in killers:
                    killers.remove(m)
                killers.insert(0, m)
                del killers[2:]
                break
        return best

    def quiesce(self, game: Game, who: int, moves: list[str], alpha: float, beta: float, quiet: int) -> float:
        """The horizon: forced steps are played and captures searched (standing pat on the quiet moves)."""
        if quiet <= 0:
            return self.leaf(game)
        if len(moves) == 1:
            return self.value(self.after(game, who, moves[0]), 0, alpha, beta, quiet - 1)
        stand = self.leaf(game)
        hot = captures(game, who, moves)
        if not hot:
            return stand
        maximize = who == self.seat
        best = stand
        for m in hot:
            if (maximize and best >= beta) or (not maximize and best <= alpha):
                break
            v = self.value(self.after(game, who, m), 0, alpha, beta, quiet - 1)
            if maximize:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
        return best


def classical(game: Game, seat: int, rng: random.Random) -> str:
    """The baseline's move (a bench agent): depth-2 alpha-beta / expectimax with quiescence, ties at random."""
    world = game.determinize(seat, rng)
    moves = world.legal_moves(seat)
    if len(moves) == 1:
        return moves[0]
    search = Classical(seat)
    noise = {m: 1e-7 * rng.random() for m in moves}
    children = {m: search.after(world, seat, m) for m in moves}
    order = sorted(moves, key=lambda m: search.leaf(children[m]) + noise[m], reverse=True)
    best, pick = -WIN * 3, order[0]
    for m in order:
        v = search.value(children[m], DEPTH - 1, best, WIN * 2) + noise[m]
        if v > best:
            best, pick = v, m
    return pick
