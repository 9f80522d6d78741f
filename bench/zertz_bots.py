"""Boardspace-style ZÈRTZ robots for the benchmarks (issue 27): measuring tools, not levels.

Written from the public description of boardspace.net's robot (ddyer0/boardspace.net, ``zertz/common``):
alpha-beta over whole turns with depth counted in placement turns only, so every capture sequence is
searched to its end; its evaluation is the difference in marbles still needed for the nearest winning set
(whole marbles, small fractions for having several sets near, a win about 100 marbles) plus a tiny shape
term over rings and marbles by their number of neighbouring rings. Dumbot searches 2 placement turns
(its own and the reply), SmartBot 3; both randomize their first two moves among the best 30 or so by the
static value, and are deterministic after that.

Differences from the Java robot, all for speed in Python: the move maker and the search frame are
``ai.zertz``'s (checked against the engine); below the root the reply side's quiet placements (no capture
on afterwards, nothing isolated: the material stays) are one stand-pat value instead of each being made,
valued and sorted (they differ only in the tiny shape term); the shape term breaks ties at the root only;
and the robot has none of hard's extras (the
forced-win search before the search, the win-in-one check at the horizon).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

import ai
from ai import zertz
from ai.zertz import Pos, Rules
from engines import Game
from engines.zrtz import Zrtz

WIN_MARBLES = 100.0
RING_WEIGHTS = (-1.0, -0.5, -0.25, 0.0, 0.0, 0.0, 0.0)
"""Shape: a ring by its number of neighbouring rings (few: about to go)."""
MARBLE_WEIGHTS = (-2.0, -1.0, -0.5, -0.4, -0.3, -0.2, 0.0)
"""Shape: a marble by its number of neighbouring rings (few: easy to isolate)."""
SHAPE_WEIGHT = 0.0007
RANDOM_FIRST = 30
DUMBOT_NODES = 60_000
"""Dumbot's work: a full depth 2 took up to 212 000 positions (4 s) in Python; past this many positions it plays
the best move of its partly searched depth 2 (weaker than the Java robot, which always completes it)."""
SMARTBOT_NODES = 150_000
"""SmartBot's work: depth 2 always completes, depth 3 as far as this many positions (Java's: 20 s)."""


def marbles_needed(rules: Rules, caught: list[int]) -> float:
    """Marbles still needed for the nearest set, a little less when several sets are near; -WIN_MARBLES when won."""
    key = (id(rules), *caught)
    found = _NEEDED.get(key)
    if found is None:
        found = _NEEDED[key] = _marbles_needed(rules, caught)
    return found


def _marbles_needed(rules: Rules, caught: list[int]) -> float:
    if rules.won(caught):
        return -WIN_MARBLES
    needs = [max(0, g - c) for g, c in zip(rules.goal, caught, strict=True)]
    needs.append(sum(max(0, rules.each - c) for c in caught))
    nearest = min(needs)
    near_sets = sum(0.02 / (1 + n - nearest) for n in needs)
    worth = sum(caught) / 1000.0  # more marbles in hand is a hair better
    return nearest + 1.0 - near_sets - worth


_NEEDED: dict[tuple, float] = {}
_RINGS: dict[tuple[int, int], tuple[float, tuple[float, ...]]] = {}


def _board_terms(rules: Rules, rings: int) -> tuple[float, tuple[float, ...]]:
    """For one board: the rings' shape sum, and each ring's marble weight (by its number of neighbouring rings)."""
    key = (rules.n, rings)
    found = _RINGS.get(key)
    if found is None:
        total, per = 0.0, []
        for r in range(rules.n):
            around = sum(1 for x in rules.nb[r] if x >= 0 and rings >> x & 1)
            if rings >> r & 1:
                total += RING_WEIGHTS[around]
            per.append(MARBLE_WEIGHTS[around])
        if len(_RINGS) > 200_000:
            _RINGS.clear()
        found = _RINGS[key] = (total, tuple(per))
    return found


def shape(rules: Rules, pos: Pos) -> float:
    total, per = _board_terms(rules, pos.rings)
    cells = pos.cells
    return (total + sum(per[r] for r in range(rules.n) if cells[r] >= 0)) * SHAPE_WEIGHT


def evaluation(rules: Rules):
    def value(pos: Pos, seat: int) -> float:
        if pos.winner is not None:
            return 0.0 if pos.winner < 0 else (WIN_MARBLES if pos.winner == seat else -WIN_MARBLES)
        return marbles_needed(rules, pos.cap[1 - seat]) - marbles_needed(rules, pos.cap[seat])
    return value


def robot(depth: int, nodes: int, name: str):
    def play(game: Game, seat: int, rng: random.Random) -> str:
        texts = game.legal_moves(seat)
        if len(texts) == 1:
            return texts[0]
        rules = zertz.rules_for(game)
        value = evaluation(rules)
        placements_made = sum(1 for who, text in game.history if who == seat and "x" not in text)
        if placements_made < 2 and not any("x" in t for t in texts):
            pos = rules.from_game(game)
            scored = sorted(texts, key=lambda t: -value(rules.play(pos, rules.parse(t)), seat))
            return rng.choice(scored[:RANDOM_FIRST])
        pos = rules.from_game(game)
        # the shape term as the tie-break between moves of equal material (in Python, inside the search it
        # would cost most of the time and, being tiny, only reorder equal moves)
        tie = {t: shape(rules, rules.play(pos, rules.parse(t))) for t in texts}
        return zertz.choose(game, seat, texts, nodes, depth, tie.__getitem__, None, value, leaf_wins=False,
                            forced=False)
    play.__name__ = name
    return play


dumbot = robot(2, DUMBOT_NODES, "dumbot")
smartbot = robot(3, SMARTBOT_NODES, "smartbot")


# ----- matches: ``python -m bench.zertz_bots --pairs hard-dumbot,hard-smartbot,medium-dumbot --rings 37,61`` -----

BOTS = {"dumbot": dumbot, "smartbot": smartbot}


def match_game(job: tuple[str, str, int, int]) -> tuple[float, list[float]]:
    """One game (a process-pool job): the level's score (1 win, 0 loss, 0.5 draw) and its CPU seconds per move."""
    level, bot, rings, index = job
    rng = random.Random(f"zrtz{level}{bot}{rings}{index}")
    game = Zrtz.new(2, {"rings": rings})
    seat_level = index % 2  # colours alternate
    cpu: list[float] = []
    while game.outcome() is None and len(game.history) < 400:
        seat = game.turn
        if seat == seat_level:
            start = time.process_time()
            move = ai.choose(game, seat, level, seed=rng.randrange(1 << 30))
            cpu.append(time.process_time() - start)
        else:
            move = BOTS[bot](game, seat, rng)
        game.play(seat, move)
    outcome = game.outcome()
    if outcome is None or outcome.is_draw:
        return 0.5, cpu
    return (1.0 if seat_level in outcome.winners else 0.0), cpu


def main() -> None:
    from bench.bench_ai import interval
    from bench.common import percentile
    parser = argparse.ArgumentParser(description="ZÈRTZ levels against the boardspace-style robots")
    parser.add_argument("--pairs", default="hard-dumbot,hard-smartbot,medium-dumbot")
    parser.add_argument("--rings", default="37,61")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to split a match over runs)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="a line per game")
    args = parser.parse_args()
    with ProcessPoolExecutor(args.jobs) as pool:
        for rings in (int(r) for r in args.rings.split(",")):
            for pair in args.pairs.split(","):
                level, bot = pair.split("-")
                start = time.perf_counter()
                scores, cpu = [], []
                jobs = [(level, bot, rings, g) for g in range(args.first, args.first + args.games)]
                for score, spent in pool.map(match_game, jobs):
                    scores.append(score)
                    cpu.extend(spent)
                    if args.verbose:
                        times = " ".join(f"{t:.2f}" for t in spent)
                        print(f"  game {args.first + len(scores)}: {score:g} cpu {times}", flush=True)
                p, lo, hi = interval(scores)
                print(f"{rings} rings {level} vs {bot}: {sum(scores):g}/{len(scores)} = {p:.2f} [{lo:.2f}, {hi:.2f}]"
                      f"  {level} CPU p50 {percentile(cpu, 50):.2f} s p95 {percentile(cpu, 95):.2f} s"
                      f" ({len(cpu)} moves; {time.perf_counter() - start:.0f} s wall, load {os.getloadavg()[0]:.1f})",
                      flush=True)


if __name__ == "__main__":
    main()
