"""Game-playing AI over the engine contract: one entry point for the host, the tests and the benchmarks.

``choose`` searches a fixed amount of work per level (``ai.levels.WORK``), so the same state, level
and seed give the same move; ``budget_s`` caps it by the clock (CPU time of this process): a two-ply
screen (``ai.anytime``) gives a safe first answer, and the level's search refines it until its fixed
work is done or the time is up (ZÈRTZ: its own search, by the clock alone).
The search only ever sees
determinized copies of the game (``Game.determinize``), never the other seats' secrets. See docs/ai.md.
"""

from __future__ import annotations

import random

from ai import alphabeta, anytime, book, clock, levels, mcts, solve, zertz, ziggurat
from ai.levels import work_for
from engines import CHANCE, Game

LEVELS = ("easy", "medium", "hard")


def _rng(game: Game, level: str, seed: int, salt: str = "") -> random.Random:
    """Seeded from public facts only (the move number, never the history texts, which hold secrets)."""
    return random.Random(f"{seed}:{level}:{game.name}:{len(game.history)}:{salt}")


def _check(game: Game, seat: int, level: str) -> list[str]:
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError("the seat has no legal move")
    return moves


def choose(game: Game, seat: int, level: str, *, seed: int, budget_s: float | None = None) -> str:
    """One of ``game.legal_moves(seat)``: deterministic for the same state, level and seed when ``budget_s`` is None.

    With ``budget_s`` it returns within about that much CPU time (plus a few ms), at every level.
    """
    moves = _check(game, seat, level)
    if len(moves) == 1:
        return moves[0]
    rng = _rng(game, level, seed)
    if book.simultaneous_pick(game, seat):
        return rng.choice(moves)  # a rock-paper-scissors duel: the uniform pick cannot be exploited
    work = work_for(level, game.name, game.num_players)
    moves = book.filter_opening(game, seat, moves)
    if len(moves) == 1:
        return moves[0]
    if work.noise and rng.random() < work.noise:  # a beginner's level: now and then a move without thought
        if budget_s is not None and game.name in levels.TACTICAL:
            return _careless(game, seat, moves, rng, clock.now() + budget_s)
        return rng.choice(moves)  # (levels.LEVEL_NOISE)
    if work.tactical and game.name in levels.TACTICAL:  # its own win search and forced sequences (ai/zertz.py)
        ties = {m: 1e-6 * rng.random() for m in moves}  # ties at random, but reproducibly
        # fixed work, per board (levels.tactical_nodes); with a budget the clock alone stops it (ai/clock.py)
        rings = game.options.get("rings", 37)
        nodes = levels.tactical_nodes(level, work.tactical_nodes, rings) if budget_s is None else 1 << 40
        until = None if budget_s is None else clock.now() + budget_s
        return zertz.choose(game, seat, moves, nodes, work.tactical, ties.__getitem__, until,
                            wide=(level, rings) in levels.WIDE_SEARCH)
    if budget_s is not None:
        return _anytime(game, seat, level, moves, work, rng, anytime.now() + budget_s)
    found = solve.winning_move(game, seat, moves, work.solve, work.solve_nodes)
    if found is not None:
        return found
    if work.screen and (game.name, game.num_players) in levels.SCREENED:  # fixed work: the screen counts
        # positions (same move for a seed); the tree search samples the replies, the screen reads them all
        screened = anytime.screen(game, seat, moves, None, rng, work.screen)
        if screened.won or (screened.complete and len(screened.safe) == 1):
            return screened.best
        # cut short (wide openings): the moves checked and refuted go, the unchecked ones stay candidates
        moves = screened.safe if screened.complete else [m for m in moves if m not in screened.refuted]
    if work.alphabeta and game.name in levels.ALPHABETA and solve.applies(game):
        return alphabeta.choose(game, seat, moves, work.alphabeta, rng)
    if work.turn and (game.name, game.num_players) in levels.TURN_SEARCH:  # a whole turn and the reply's roll
        found = ziggurat.choose(game, seat, moves, work.turn, rng)
        if found is not None:
            return found
    root = mcts.search_with(game, seat, moves, levels.tree(level, game.name, game.num_players), rng, None)
    return mcts.best_move(root, moves)


def _careless(game: Game, seat: int, moves: list[str], rng: random.Random, deadline: float) -> str:
    """A random ZÈRTZ move that offers the opponent neither a capture nor a win in one, if one is met in time.

    Under a clock every level must beat random play (issue 27): uniformly random moves gave a capture away so
    often that easy lost one game in ten. The moves are tried in a seeded random order with ``ai.zertz``'s move
    maker (about 25 us a move); a win met on the way is taken. Without a clock the noise stays uniform.
    """
    order = list(moves)
    rng.shuffle(order)
    rules = zertz.rules_for(game)
    pos = rules.from_game(game)
    for tried, text in enumerate(order):
        if tried % 8 == 7 and clock.now() >= deadline:
            break
        child = rules.play(pos, rules.parse(text))
        if child.winner == seat:
            return text
        if child.winner is None and not rules.any_capture(child.cells) and not rules.wins_now(child):
            return text
    return order[0]


def _anytime(game: Game, seat: int, level: str, moves: list[str], work: levels.Work, rng: random.Random,
             deadline: float) -> str:
    """The screen's safe answer, refined by the level's search over the safe moves while the clock allows.

    The search's answer replaces the screen's only once it rests on more than the screen saw: alpha-beta
    past the replies, the tree search after ``TRUST`` of its fixed iterations (and one per safe move).
    """
    screened = anytime.screen(game, seat, moves, deadline, rng)
    if screened.won or len(screened.safe) == 1 or anytime.now() >= deadline:
        return screened.best
    found = solve.winning_move(game, seat, moves, work.solve, work.solve_nodes, deadline)
    if found is not None:
        return found
    if work.turn and (game.name, game.num_players) in levels.TURN_SEARCH:  # the best turn valued in time
        found = ziggurat.choose(game, seat, moves, work.turn, rng, deadline)
        if found is not None:
            return found
    safe = screened.safe
    if work.alphabeta and game.name in levels.ALPHABETA and solve.applies(game):
        move, reached = alphabeta.search(game, seat, safe, work.alphabeta, rng, deadline)
        return move if reached >= 2 else screened.best
    root = mcts.search_with(game, seat, safe, levels.tree(level, game.name, game.num_players), rng, deadline)
    if root.visits < max(len(safe), TRUST * work.iterations):
        return screened.best
    return mcts.best_move(root, safe)


TRUST = 0.25
"""Share of a level's fixed iterations the tree search must reach under a clock before its answer counts."""


def accepts_draw(game: Game, seat: int, level: str, *, seed: int) -> bool:
    """Accept a draw offer only when the AI's own evaluation says it is not better off playing on.

    The evaluation is the level's own tree search (``levels.tree``: its iterations, rollout depth, priors), so
    easy weighs an offer as cheaply and as weakly as it plays; it once searched every level at the full depth."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; levels: {', '.join(LEVELS)}")
    if game.outcome() is not None or seat not in game.active_seats():
        return False
    movers = game.to_move()
    deciding = sorted(movers - {CHANCE})
    mover = seat if seat in movers else (deciding[0] if deciding else None)
    work = work_for(level, game.name, game.num_players)
    moves = game.legal_moves(mover) if mover is not None else []
    if mover is not None and solve.winning_move(game, mover, moves, work.solve, work.solve_nodes) is not None:
        return game.teams()[mover] != game.teams()[seat]  # the other side wins at once: a draw is a gift
    rng = _rng(game, level, seed, "draw")
    root = mcts.search_with(game, seat, moves, levels.tree(level, game.name, game.num_players), rng, None)
    return mcts.root_value(root) <= DRAW_VALUE


DRAW_VALUE = 0.5
"""A draw on the search's reward scale: level with every opponent."""
