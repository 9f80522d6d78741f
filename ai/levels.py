"""How much each level searches: fixed work, so a search is deterministic for a seed.

Tests and benchmarks scale the work down by patching ``WORK`` (the functions read it at each call).
``iterations``: MCTS iterations; ``depth``: plies a rollout plays before the evaluation takes over
(per game below); ``solve``: plies of the exact win search at the root (0 none, 1 a win in one move,
3 a forced win in two moves for the two-player perfect-information games); ``solve_nodes``: the
positions that search may visit before it gives up; ``prior_visits``: nodes visited that often (and
the root) add children best-first by a one-ply evaluation instead of at random (-1: never);
``depth``: multiplier of the game's rollout depth; ``alphabeta``: positions for the alpha-beta search
in the games of ``ALPHABETA`` (0: the tree search there too); ``tactical`` / ``tactical_nodes``: placement
turns and positions of the forced-sequence search in the games of ``TACTICAL`` (0: the tree search there);
``screen``: positions of the two-ply screen (``ai.anytime``) in front of the search at fixed work in the games
of ``SCREENED`` (0: none; with ``budget_s`` every level screens by the clock); ``noise``: the chance that the level
plays a uniformly random legal move instead of searching (drawn from the seeded generator, so still deterministic;
set per game in ``LEVEL_NOISE``); ``turn``: positions of the Ziggurat turn search in the games of ``TURN_SEARCH``
(0: the tree search there); ``exposure``: what the tree search's evaluation takes off a Zarathustra score for each
exposed blank (set per (level, game, players) in ``LEVEL_EXPOSURE``; 0: the plain evaluation).
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Work:
    iterations: int
    solve: int
    solve_nodes: int
    explore: float = 0.7
    prior_visits: int = -1
    depth: float = 1.0
    alphabeta: int = 0
    noise: float = 0.0
    tactical: int = 0
    tactical_nodes: int = 0
    screen: int = 0
    turn: int = 0
    exposure: float = 0.0


WORK: dict[str, Work] = {
    "easy": Work(iterations=24, solve=0, solve_nodes=0, explore=1.4),
    "medium": Work(iterations=160, solve=1, solve_nodes=600, tactical=2, tactical_nodes=8000),
    "hard": Work(iterations=1200, solve=3, solve_nodes=2500, prior_visits=10, depth=0.5, alphabeta=5000,
                 tactical=3, tactical_nodes=120000, screen=8000, turn=60000),
}

TACTICAL: frozenset[str] = frozenset({"zrtz"})
"""Games where a level with ``tactical`` depth uses the forced-sequence search (``ai.zertz``: alpha-beta over whole
turns, depth in placement turns, capture quiescence) instead of the tree search; docs/ai.md has the numbers."""

ALPHABETA: frozenset[str] = frozenset()
"""Games where a level with ``alphabeta`` positions uses alpha-beta instead of the tree search; only two-player games
without dice or secrets qualify. None now: Zaic's alpha-beta beat the classical baseline 0.60 (n = 10), its tree
search behind the screen 0.90 (n = 20, docs/ai.md)."""

SCREENED: frozenset[tuple[str, int]] = frozenset({("zarathustra", 2), ("zodiac", 2), ("zaic", 2)})
"""(game, players) where a level with ``screen`` positions screens at fixed work too: where it was measured to help
against the classical baseline (docs/ai.md). Not Ziggurat (its plies are die uses: the second ply is mostly the
mover's own next step; unmeasured), not 3-4 players (the second ply sees only the next seat); with ``budget_s``
every level screens everywhere."""

TURN_SEARCH: frozenset[tuple[str, int]] = frozenset({("ziggurat", 2)})
"""(game, players) where a level with ``turn`` positions plays the turn search (``ai.ziggurat``: expectimax over its
whole turn, each end of turn after the opponent's best whole turn over its roll) instead of the tree search: two-player
Ziggurat, where the tree search lost to the classical baseline (docs/ai.md). Not 3-4 players (the reply sees only
the next seat; unmeasured)."""

ROLLOUT_DEPTH: dict[str, int] = {"zarathustra": 4, "zaic": 6, "zrtz": 4, "zodiac": 8, "ziggurat": 30}
"""Rollout plies before the evaluation, per game (dice plies count too)."""

GAME_SCALE: dict[tuple[str, int], float] = {
    ("zarathustra", 2): 0.5, ("zarathustra", 3): 0.4, ("zarathustra", 4): 0.25,
    ("zaic", 2): 0.6, ("zrtz", 2): 0.45, ("zodiac", 2): 0.6,
    ("ziggurat", 2): 0.8, ("ziggurat", 3): 0.7, ("ziggurat", 4): 0.8,
}
"""Multiplier of the iterations per (game, players), measured so each level meets its time target
(bench/bench_ai.py; the numbers are in docs/ai.md): a ply of a 4-player Zarathustra on 7x7 costs
several times one of ZÈRTZ."""


LEVEL_SCALE: dict[tuple[str, str], float] = {("hard", "zrtz"): 0.4}
"""A further multiplier for one level in one game: hard's 1200 iterations fit 3 s everywhere but in ZÈRTZ,
whose root priors alone value up to 1944 moves."""


BOARD_SCALE: dict[tuple[str, int], float] = {("medium", 61): 1.75, ("hard", 61): 1.0}
"""ZÈRTZ: the multiplier of ``tactical_nodes`` for (level, rings), in place of the default ``min(1, 48 / rings)``
(a position costs more on the bigger boards: hard's p95 was 3.2 s on 61 rings at the 37-ring amount). Medium on 61
rings at 48/61 of its 8000 positions beat Dumbot only 0.45 (n = 40): the wider board needs more for depth 2 to reach
the moves that matter. 14 000 is between 12 000 (Dumbot 0.475) and 17 311 (hard beat it only 0.60; docs/ai.md,
session 10)."""


WIDE_SEARCH: frozenset[tuple[str, int]] = frozenset({("hard", 37), ("hard", 61)})
"""ZÈRTZ (level, rings) whose forced-sequence search is exact where hard lost to medium on 61 rings (``zertz.choose``'s
``wide``; docs/ai.md, session 12): below the root a capture's removals include every free ring next to a marble (a
far removal took away hard's other capture and left the one that handed over three marbles); at the root a move
that failed low no longer wins the tie-break against the move that set alpha (a lost move's bound equalled the best
value and the noise played it), removals that free a ring near a marble are searched, and when every searched move
loses, an unsearched one (or the depth below's best) is played. On 37 rings too since the end of session 12 (hard vs
medium 31/40 against 29, Dumbot 36/40 against 33, SmartBot 31/40 against 29, CPU p95 unchanged); 48 rings, not
measured, keep the older search."""


def tactical_nodes(level: str, nodes: int, rings: int) -> int:
    """Positions of the forced-sequence search at fixed work: the level's ``nodes`` scaled for the board."""
    return round(nodes * BOARD_SCALE.get((level, rings), min(1.0, 48 / rings)))


LEVEL_NOISE: dict[tuple[str, str], float] = {("easy", "zrtz"): 0.6}
"""``Work.noise`` for one level in one game. ZÈRTZ's easy search beat the greedy one-move player 0.92 (a greedy
placement often hands over a capture two plies later, which even a few rollouts see), so a beginner
could not win; with this share of random moves greedy scores a fair share (docs/ai.md)."""


LEVEL_DEPTH: dict[tuple[str, str], float] = {("medium", "zaic"): 0.5}
"""``Work.depth`` for one level in one game. Zaic ends when the player to move cannot place a tile, and a few plies
before that it is exact tactics (in a replayed game hard lost, 2 of hard's 31 moves won, the others lost within 6
plies); hard's area-greedy screen plays blind there, and medium's full 6-ply rollouts reach the end of the game.
With 3-ply rollouts medium plays the ending by the evaluation too: hard vs medium went from 0.70 to 0.875 (n = 40;
0.84 over 60 games), medium vs easy is 0.90 (n = 40; docs/ai.md, session 11)."""


LEVEL_EXPOSURE: dict[tuple[str, str, int], float] = {("hard", "zarathustra", 3): 0.5, ("hard", "zarathustra", 4): 0.5}
"""``Work.exposure`` for (level, game, players): the tree search's evaluation takes this much off a seat's score for
each blank on its tiles that face an empty square with a blank (``ai.evaluate.zarathustra_exposed``). Every tile is
played, so Zarathustra is decided by the blanks lost; random rollouts and one-ply priors rarely meet the one sword
placement that kills an exposed tile, the opponents find it: in 11 replayed 4-player games 68% of the tiles placed
exposed died, 17% of the others. With 0.5 (about that difference a blank) hard beat medium 40 of 40 with 4 players
(was 0.775, n = 40) and 0.98 with 3 (n = 40; was 0.79 on games 0-19; docs/ai.md, session 12). Medium and easy keep
the plain evaluation, which keeps the levels apart; 2 players have hard's screen instead (unmeasured with it)."""


def work_for(level: str, game: str, players: int = 2) -> Work:
    base = WORK[level]
    scale = GAME_SCALE.get((game, players), 1.0) * LEVEL_SCALE.get((level, game), 1.0)
    return replace(base, iterations=max(1, round(base.iterations * scale)), alphabeta=round(base.alphabeta * scale),
                   noise=LEVEL_NOISE.get((level, game), base.noise), depth=LEVEL_DEPTH.get((level, game), base.depth),
                   exposure=LEVEL_EXPOSURE.get((level, game, players), base.exposure))


@dataclass(frozen=True)
class Tree:
    """What the tree search (``ai.mcts.search``) is given for one level in one game."""

    iterations: int
    depth: int
    """Rollout plies: the game's ``ROLLOUT_DEPTH`` times the level's ``Work.depth``."""
    explore: float
    prior_visits: int
    exposure: float


def tree(level: str, game: str, players: int = 2) -> Tree:
    """The one place the level's tree-search settings are worked out, so a draw offer is weighed with the search
    the level plays with (as cheap and as weak at easy) rather than one of its own."""
    work = work_for(level, game, players)
    return Tree(work.iterations, round(ROLLOUT_DEPTH.get(game, 10) * work.depth), work.explore, work.prior_visits,
                work.exposure)
