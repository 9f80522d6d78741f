"""Information-set Monte Carlo tree search over the engine contract, for any game and player count.

Each iteration searches one determinized copy of the game (``Game.determinize``: the secrets the
seat cannot know re-drawn), so decisions only ever rest on what the seat may know. The tree is keyed
by move texts and shared by all copies (single-observer ISMCTS): a child's ``avail`` counts how often
it was legal when its parent was visited, and UCB uses that instead of the parent's visits. Dice are
open loop: outcomes are drawn from ``chance_outcomes`` and not stored in the tree. Rewards are one
number per seat (``ai.evaluate``), so 3-4 players and teams need nothing special. Rollouts play
random moves for a few plies and then ask the per-game evaluation: long games stay cheap. With
``prior_visits`` (hard), new children are added best-first by a one-ply evaluation instead of at random.
"""

from __future__ import annotations

import math
import random

from ai import clock
from ai.evaluate import evaluate_exposed
from ai.levels import Tree
from ai.oneply import value_after
from engines import CHANCE, Game

WIDEN = 2.0
"""Children a node may have per square root of its visits (see ``search``)."""


class Node:
    __slots__ = ("avail", "children", "prior", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        """Who made the move into this node: its ``value`` is that seat's reward."""
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.value = 0.0
        self.prior: dict[str, float] | None = None
        """One-ply evaluation of the mover's moves (filled lazily, see ``pick_untried``)."""


def actor(game: Game, seat: int) -> int:
    """Who decides now: ``seat`` itself when it is among several to move (simultaneous choices), else the lowest."""
    movers = game.to_move()
    if seat in movers:
        return seat
    return min(movers)


def roll(game: Game, rng: random.Random) -> None:
    outcomes = game.chance_outcomes()
    x = rng.random()
    for text, p in outcomes:
        x -= p
        if x <= 0:
            game.play(CHANCE, text)
            return
    game.play(CHANCE, outcomes[-1][0])


def one_ply(world: Game, who: int, move: str, exposure: float = 0.0) -> float:
    return value_after(world, who, move, exposure)[who]


CLOCK_EVERY = 16
"""With a deadline, the one-ply values look at the clock every this many moves."""


def pick_untried(node: Node, world: Game, who: int, untried: list[str], prior_visits: int,
                 rng: random.Random, root: bool, deadline: float | None = None, exposure: float = 0.0) -> str:
    """The untried move to add: at random, or (the root, or a node visited ``prior_visits`` times) the best by one ply.

    The one-ply values are kept in the node, keyed by move text, so a wide node (1944 ZÈRTZ moves)
    pays for them once; moves first seen in another determinized world or after other dice are
    valued when they appear. Past the deadline the moves not yet valued are skipped: the best of
    those valued (or a random one if none was) is added.
    """
    if prior_visits < 0 or (node.visits < prior_visits and not root):
        return rng.choice(untried)
    prior = node.prior
    if prior is None:
        prior = node.prior = {}
    best, pick = -1.0, ""
    fresh = 0
    for m in untried:
        value = prior.get(m)
        if value is None:
            if deadline is not None and fresh % CLOCK_EVERY == CLOCK_EVERY - 1 and clock.now() >= deadline:
                break
            fresh += 1
            value = prior[m] = one_ply(world, who, m, exposure) + 1e-6 * rng.random()  # ties at random
        if value > best:
            best, pick = value, m
    return pick or rng.choice(untried)


def rollout(game: Game, seat: int, depth: int, rng: random.Random, exposure: float = 0.0) -> list[float]:
    """Random play for ``depth`` plies (dice included), then the exact result or the evaluation."""
    for _ in range(depth):
        movers = game.to_move()
        if not movers:
            break
        if CHANCE in movers:
            roll(game, rng)
            continue
        who = seat if seat in movers else min(movers)
        game.play(who, rng.choice(game.legal_moves(who)))
    return evaluate_exposed(game, exposure)


def search_with(game: Game, seat: int, root_moves: list[str], tree: Tree, rng: random.Random,
                deadline: float | None = None) -> Node:
    """``search`` with one level's settings (``levels.tree``): a move, a draw offer and a game review see the same
    search."""
    return search(game, seat, root_moves, tree.iterations, tree.depth, tree.explore, rng, deadline, tree.prior_visits,
                  tree.exposure)


def search(game: Game, seat: int, root_moves: list[str], iterations: int, depth: int, explore: float,
           rng: random.Random, deadline: float | None, prior_visits: int = -1, exposure: float = 0.0) -> Node:
    """Run the search and return the root: ``iterations``, or fewer if the clock (``deadline``, CPU time) ends first.

    ``prior_visits``: nodes visited that often add their children best-first by a one-ply evaluation
    (-1: never, children are added at random). ``exposure``: the evaluation discounts exposed Zarathustra
    blanks by that much each (``ai.evaluate.evaluate_exposed``; 0: the plain evaluation).

    ``seat`` is the searching seat (whose secrets are kept); ``root_moves`` are the legal moves of
    whoever is to move at the root (``seat`` itself when choosing a move).
    """
    root = Node(seat)
    totals = [0.0] * game.num_players
    legal_root = set(root_moves)
    # a world without secrets or dice at the root lists the same root moves every time: list them once
    fixed_root = None if game.hidden_information or CHANCE in game.to_move() else \
        [m for m in game.legal_moves(actor(game, seat)) if m in legal_root]
    done = 0
    while True:
        if done >= iterations or (deadline is not None and done > 0 and clock.now() >= deadline):
            break
        done += 1
        world = game.determinize(seat, rng)
        node = root
        path = [root]
        expanded = False
        while not expanded:
            movers = world.to_move()
            if not movers:
                break
            if CHANCE in movers:
                roll(world, rng)
                continue
            who = seat if seat in movers else min(movers)
            if node is root and fixed_root:
                moves = fixed_root
            else:
                moves = world.legal_moves(who)
                if node is root and legal_root:
                    moves = [m for m in moves if m in legal_root] or moves
            if not moves:
                break
            children = node.children
            present = [m for m in moves if m in children]
            for m in present:
                children[m].avail += 1
            # Progressive widening: a node with many moves grows its children with its visits,
            # so wide games (ZÈRTZ opens with 1944 moves) still look at some moves more than once.
            room = not present or len(children) < WIDEN * math.sqrt(node.visits + 1)
            untried = [m for m in moves if m not in children] if room else []
            if untried:
                move = pick_untried(node, world, who, untried, prior_visits, rng, node is root, deadline, exposure)
                child = Node(who)
                children[move] = child
                expanded = True
            else:
                best = -1.0
                move = present[0]
                for m in present:
                    c = children[m]
                    score = c.value / c.visits + explore * math.sqrt(math.log(c.avail) / c.visits)
                    if score > best:
                        best, move = score, m
                child = children[move]
            world.play(who, move)
            node = child
            path.append(child)
        rewards = rollout(world, seat, depth, rng, exposure) if expanded else evaluate_exposed(world, exposure)
        for n in path:
            n.visits += 1
            n.value += rewards[n.seat]
        for s, r in enumerate(rewards):
            totals[s] += r
    root.value = totals[seat]
    return root


def best_move(root: Node, moves: list[str]) -> str:
    """Most visited root move (then the best average, then the notation order, so ties are deterministic)."""
    def key(m: str) -> tuple[int, float]:
        c = root.children.get(m)
        return (0, 0.0) if c is None else (c.visits, c.value / c.visits)

    return max(moves, key=key)


def root_value(root: Node) -> float:
    """The searching seat's average reward over the whole search (it need not be the seat to move)."""
    return root.value / root.visits if root.visits else 0.5
