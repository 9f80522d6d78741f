"""Game review (ai/review.py): marks by the drop, the level's own better move, only the mover's knowledge."""

from __future__ import annotations

import random

import pytest

import engines
from ai import levels, review
from engines import CHANCE, Game
from tests.ai.test_zodiac_hidden import positions


@pytest.fixture(autouse=True)
def small_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.WORK, "hard", levels.Work(iterations=12, solve=3, solve_nodes=200, prior_visits=-1,
                                                         alphabeta=60, tactical=1, tactical_nodes=300))
    monkeypatch.setattr(levels, "ROLLOUT_DEPTH", {name: 3 for name in engines.GAMES})


def playout(name: str, players: int, seed: int, plies: int = 400) -> Game:
    rng = random.Random(seed)
    game = engines.GAMES[name].new(players)
    while game.outcome() is None and len(game.history) < plies:
        movers = sorted(game.to_move())
        if CHANCE in movers:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
            continue
        seat = rng.choice(movers)
        game.play(seat, rng.choice(game.legal_moves(seat)))
    return game


def wins_at_once(game: Game, seat: int, move: str) -> bool:
    child = game.clone()
    child.play(seat, move)
    outcome = child.outcome()
    return outcome is not None and seat in outcome.winners


def test_marks_follow_the_documented_drops() -> None:
    assert [review.verdict(d) for d in (0.0, 0.09, 0.1, 0.19, 0.2, 0.29, 0.3, 1.0)] == [
        "", "", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_a_missed_win_in_one_is_judged_against_the_win() -> None:
    """Zaic positions with a winning move and another move: the review's better move is the win, valued 1."""
    found = 0
    for seed in range(60):
        game = playout("zaic", 2, seed, plies=200)
        history = list(game.history)
        replay = engines.GAMES["zaic"].new(2)
        for seat, text in history:
            if seat != CHANCE and replay.outcome() is None:
                moves = replay.legal_moves(seat)
                wins = [m for m in moves if wins_at_once(replay, seat, m)]
                others = [m for m in moves if m not in wins]
                if wins and others:
                    judged = review.judge(replay, seat, others[0], seed=seed)
                    assert judged is not None
                    assert judged.best in wins and judged.best_value == 1.0  # every world: the win is open information
                    assert judged.value < 1.0 and judged.verdict == review.verdict(judged.drop)
                    found += 1
                    break
            replay.apply_record(seat, text)
        if found >= 3:
            break
    assert found >= 3


@pytest.mark.parametrize(("name", "players"), [("zarathustra", 2), ("zaic", 2), ("zrtz", 2), ("zodiac", 2),
                                               ("ziggurat", 3)])
def test_a_whole_game_is_reviewed_reproducibly(name: str, players: int) -> None:
    game = playout(name, players, seed=7, plies=16)
    cls = engines.GAMES[name]
    first = review.review(lambda: cls.new(players), game.history, seed=3)
    assert first == review.review(lambda: cls.new(players), game.history, seed=3)
    choices = [(s, t) for s, t in game.history if s != CHANCE]
    assert 0 < len(first) <= len(choices)
    for item in first:
        seat, text = game.history[item.ply]
        assert (seat, text) == (item.seat, item.played)
        assert 0.0 <= item.value <= item.best_value <= 1.0
        assert item.verdict == review.verdict(item.drop)
        assert review.Judged.from_dict(item.to_dict()) == item
    assert {item.ply for item in first} <= {ply for ply, _, _ in review.choices(game.history)}


def test_a_zodiac_review_never_uses_a_secret_the_mover_did_not_know() -> None:
    """Twin games differ only in the other side's secrets (king, duel pick, ink): every judgement is the same."""
    checked = 0
    for game, twin, seat, _ in positions(12):
        moves = game.legal_moves(seat)
        assert moves == twin.legal_moves(seat)
        if len(moves) < 2:
            continue
        played = moves[checked % len(moves)]
        assert review.judge(game, seat, played, seed=checked) == review.judge(twin, seat, played, seed=checked)
        checked += 1
    assert checked >= 8
