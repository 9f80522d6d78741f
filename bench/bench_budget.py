"""Every level under a small CPU budget against uniform random play: the anytime contract of issue 27.

Run from the repository root, niced (it is CPU-bound): ``nice -n 19 .venv/bin/python -m bench.bench_budget``.
Options: ``--budget S`` CPU seconds a move (default 0.05), ``--games N`` per cell (default 40), ``--only``
some games, ``--levels`` some levels, ``--players`` some player counts (default two), ``--jobs N`` processes,
``--option rings=61`` a game option (as ``bench_ai``'s; the default options keep their seeds).
Each cell plays ``ai.choose(..., budget_s=S)`` in one seat (rotating) against random in the others and
prints the score (share of opposing seats beaten, ties half) with a Wilson 95% interval, and the CPU time
per AI move (p50 / p95 / max): the budget must hold on a loaded machine too, since it counts CPU, not wall.
Targets: at least 0.95 in every game (Ziggurat 0.90).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

import ai
import engines
from bench.bench_ai import interval, play_match_game, random_agent
from bench.common import add_option_argument, game_options, percentile
from engines import Game

Job = tuple[str, int, str, float, int, dict]


def budget_game(job: Job) -> tuple[float, list[float]]:
    name, players, level, budget, index, options = job
    cpu: list[float] = []

    def agent(game: Game, seat: int, rng: random.Random) -> str:
        start = time.process_time()
        move = ai.choose(game, seat, level, seed=rng.randrange(1 << 30), budget_s=budget)
        cpu.append((time.process_time() - start) * 1000)
        return move

    rng = random.Random(f"budget{name}{players}{level}{index}{sorted(options.items()) if options else ''}")
    score = play_match_game(engines.get(name), players, agent, random_agent, index % players, rng, options)
    return score, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--only", default="")
    parser.add_argument("--levels", default=",".join(ai.LEVELS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    add_option_argument(parser)
    args = parser.parse_args()
    options = game_options(args.option)
    names = args.only.split(",") if args.only else list(engines.GAMES)
    print(f"budget {args.budget} s CPU a move, {args.games} games a cell, load {os.getloadavg()[0]:.1f}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for name in names:
            for level in args.levels.split(","):
                start = time.perf_counter()
                jobs = [(name, args.players, level, args.budget, g, options) for g in range(args.games)]
                results = []
                for g, result in enumerate(pool.map(budget_game, jobs)):
                    results.append(result)  # each game as it is in: a run cut short still says what it saw
                    print(f"  {name} {level} game {g}: {result[0]:.2f}, cpu ms max {max(result[1]):.0f}", flush=True)
                p, lo, hi = interval([s for s, _ in results])
                cpu = [c for _, spent in results for c in spent]
                print(f"{name:<12} {args.players}p {options or ''} {level:>6} vs random  score {p:5.2f}"
                      f"  95% CI [{lo:4.2f}, {hi:4.2f}]"
                      f"  n={args.games}  cpu ms p50 {percentile(cpu, 50):.0f} p95 {percentile(cpu, 95):.0f}"
                      f" max {max(cpu):.0f}  ({time.perf_counter() - start:.0f} s, load {os.getloadavg()[0]:.1f})",
                      flush=True)


if __name__ == "__main__":
    main()
