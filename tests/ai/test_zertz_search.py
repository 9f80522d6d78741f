"""The ZÈRTZ forced-sequence search (ai/zertz.py): its move maker against the engine, and the positions of issue 27.

The three positions are from games the hard level lost to a boardspace-style robot: each listed move leaves
the robot a win in one or a forced win in two (it sacrifices a marble, hard must capture, its next placement
wins). Hard and medium must play a move after which the opponent has neither, checked here by brute force.
"""

from __future__ import annotations

import random
import time

import pytest

import ai
from ai import zertz
from engines.zrtz import Zrtz

ISSUE_27 = [
    ("bb4 c6 / ge3 d1 / bd5 a2 / bb2 f1 / wb1 b5 / b1xb3 / b4xb2 / wa3 g3 / wf3 g4 / f3xd3 / wb1 a1 / b1xb3 / "
     "a3xc3xe2", "bc3 a4"),
    ("wf4 e6 / ge2 a2 / be1 g4 / e1xe3 / we2 e1 / e2xe4 / f4xd4 / wa3 c6 / bd5 f1 / d5xd3 / bb3 e2 / a3xc3 / "
     "d3xb3 / bd6 c1 / wd1 d2", "wd4 f2"),
    ("bf3 f1 / wc6 e1 / bd6 e6 / c6xe5 / wg2 a4 / g2xe4 / e5xe3 / wf5 b5 / ge4 e2 / e3xe5 / f5xd5 / bc2 a3 / "
     "gb1 f2 / b1xd3 / wg1 g2", "gf3 c1"),
]


def replay(moves: str) -> Zrtz:
    game = Zrtz.new(2, {"rings": 37})
    for move in moves.split(" / "):
        game.play(game.turn, move)
    return game


def opponent_wins_within_two(rules: zertz.Rules, pos: zertz.Pos) -> bool:
    """``pos`` has the opponent to move: a win in one, or a move after which every reply leaves it a win in one."""
    opp = pos.turn
    for move in rules.legal(pos):
        child = rules.play(pos, move)
        if child.winner == opp:
            return True
        if child.winner is not None:
            continue
        replies = rules.legal(child)
        if all(_opp_wins(rules, rules.play(child, r), opp) for r in replies):
            return True
    return False


def _opp_wins(rules: zertz.Rules, pos: zertz.Pos, opp: int) -> bool:
    if pos.winner is not None:
        return pos.winner == opp
    return any(rules.play(pos, m).winner == opp for m in rules.legal(pos))


@pytest.mark.parametrize(("moves", "losing"), ISSUE_27, ids=["sacrifice-in-two", "isolation-1", "isolation-2"])
@pytest.mark.parametrize("level", ["hard", "medium"])
def test_the_issue_27_positions_are_defended(moves: str, losing: str, level: str) -> None:
    game = replay(moves)
    rules = zertz.rules_for(game)
    pos = rules.from_game(game)
    assert opponent_wins_within_two(rules, rules.play(pos, rules.parse(losing)))  # the move hard played loses
    move = ai.choose(game, game.turn, level, seed=1)
    assert move != losing
    assert not opponent_wins_within_two(rules, rules.play(pos, rules.parse(move)))


def random_positions(count: int, seed: int) -> list[Zrtz]:
    rng = random.Random(seed)
    found: list[Zrtz] = []
    game_index = 0
    while len(found) < count:
        rings = (37, 48, 61)[game_index % 3]
        game = Zrtz.new(2, {"rings": rings, "blitz": game_index % 4 == 0 and rings == 37})
        game_index += 1
        while game.outcome() is None:
            found.append(game.clone())
            game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    return found


def test_the_move_maker_agrees_with_the_engine() -> None:
    """Every legal move as the engine lists it, and after a sample of them the same cells, marbles and result."""
    rng = random.Random(5)
    for game in random_positions(400, seed=4):
        rules = zertz.rules_for(game)
        pos = rules.from_game(game)
        texts = game.legal_moves(game.turn)
        assert sorted(rules.text(m) for m in rules.legal(pos)) == sorted(texts)
        for text in rng.sample(texts, min(3, len(texts))):
            twin = game.clone()
            twin.play(game.turn, text)
            outcome = twin.outcome()
            if outcome is not None and "three times" in outcome.reason:
                continue  # the search does not track repetitions
            child = rules.play(pos, rules.parse(text))
            winner = None if outcome is None else (-1 if outcome.is_draw else min(outcome.winners))
            assert (child.cells, child.cap, child.pool, child.turn, child.winner) == (
                twin.cells, twin.captured, twin.pool, twin.turn, winner)


def test_wins_now_is_exact_and_the_active_moves_hold_every_win() -> None:
    """The leaf check (a win in one by a placement) against trying every move; the search's reduced move list
    below the root keeps every winning placement."""
    wins = 0
    for game in random_positions(500, seed=6):
        rules = zertz.rules_for(game)
        pos = rules.from_game(game)
        if rules.any_capture(pos.cells) or not any(rules.source(pos)):
            continue
        truth = any(rules.play(pos, m).winner == pos.turn for m in rules.legal(pos))
        assert rules.wins_now(pos) == truth
        if truth:
            wins += 1
            assert any(rules.play(pos, m).winner == pos.turn for m in rules.active(pos))
    assert wins >= 5


def test_any_budget_takes_a_win_and_stops_by_the_clock() -> None:
    """With 0.05 s every level with the search still takes a win in one (the one-ply order comes first)."""
    from tests.ai.test_zrtz_tactics import tactics, won

    one, _ = tactics()
    for position in one[:8]:
        for level in ("medium", "hard"):
            start = time.process_time()
            move = ai.choose(position, position.turn, level, seed=2, budget_s=0.05)
            assert time.process_time() - start < 0.5
            twin = position.clone()
            twin.play(position.turn, move)
            assert won(twin, position.turn)


def test_whole_games_are_legal_and_the_same_for_a_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small work (the real amounts are timed in bench/bench_ai.py): every move legal, the game ends, a seed
    gives the same game, on 37 rings and on 61 (Blitz on 37)."""
    from ai import levels

    small = dict(levels.WORK)
    small["hard"] = levels.Work(iterations=2, solve=3, solve_nodes=60, tactical=3, tactical_nodes=1500)
    small["medium"] = levels.Work(iterations=2, solve=1, solve_nodes=30, tactical=2, tactical_nodes=500)
    monkeypatch.setattr(levels, "WORK", small)

    def play(options: dict) -> list:
        game = Zrtz.new(2, options)
        while game.outcome() is None:
            level = ("hard", "medium")[game.turn]
            move = ai.choose(game, game.turn, level, seed=3)
            assert move in game.legal_moves(game.turn)
            game.play(game.turn, move)
        return game.history

    for options in ({"rings": 37}, {"rings": 61}, {"rings": 37, "blitz": True}):
        assert play(options) == play(options)
