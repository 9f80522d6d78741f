"""Ziggurat hard's turn search (``ai.ziggurat``): it plays the best whole turn against the reply's roll, exactly.

The positions are hard's decisions in the benchmark game it lost to the classical baseline (``bench.bench_ai``,
hard-classical, game 0, session 9): in each the shipped tree search chose a move (``old_hard``) whose best turn
ends 9-18 squares of the race worse, after the opponent's roll and best die use, than the best move's. Session 10
values each end of turn after the opponent's whole turn (``ziggurat_whole_turn.json``: a decision of session 9's
hard in self-play where that changes the move by 10 squares).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import ai
import engines
from ai import levels, ziggurat
from engines import CHANCE, Game
from tests.once import once

POSITIONS_FILE = Path(__file__).parent / "ziggurat_positions.json"
WHOLE_TURN_FILE = Path(__file__).parent / "ziggurat_whole_turn.json"
POSITIONS = json.loads(POSITIONS_FILE.read_text())
WHOLE_TURN = json.loads(WHOLE_TURN_FILE.read_text())


def load(position: dict) -> Game:
    return engines.from_dict({"game": "ziggurat", "players": 2, "options": {}, "history": position["history"]})


def race(game: Game, seat: int) -> float:
    """The seat's squares travelled minus the opponent's; a finished game far outside."""
    outcome = game.outcome()
    if outcome is not None:
        return ziggurat.WIN if seat in outcome.winners else -ziggurat.WIN
    travelled = [sum(game.progress(c) for c in game.colours if game.owner[c] == s) for s in range(2)]  # type: ignore[attr-defined]
    return travelled[seat] - travelled[1 - seat]


def made(game: Game, who: int, move: str) -> Game:
    twin = game.clone()
    twin.play(who, move)
    return twin


def after_reply(game: Game, seat: int) -> float:
    """Brute force: the average over the opponent's roll of the race after its worst-for-the-seat die use (or none)."""
    if game.to_move() != {CHANCE}:
        return race(game, seat)
    total = 0.0
    for roll, p in game.chance_outcomes():
        rolled = made(game, CHANCE, roll)
        movers = rolled.to_move()
        if not movers or CHANCE in movers:
            total += p * race(rolled, seat)
            continue
        who = min(movers)
        replies = [race(made(rolled, who, m), seat) for m in rolled.legal_moves(who)]
        total += p * min(replies, default=race(rolled, seat))
    return total


def rest_of_turn(game: Game, seat: int, turn: tuple[int, int]) -> float:
    """Brute force: the opponent's best for the rest of its turn (a reroll averaged), the race at its end."""
    if not game.to_move() or (game.round, game.index) != turn:  # type: ignore[attr-defined]
        return race(game, seat)
    if CHANCE in game.to_move():
        return sum(p * rest_of_turn(made(game, CHANCE, r), seat, turn) for r, p in game.chance_outcomes())
    who = min(game.to_move())
    return min(rest_of_turn(made(game, who, m), seat, turn) for m in game.legal_moves(who))


def after_whole_reply(game: Game, seat: int) -> float:
    """Brute force: the average over the opponent's roll of the race after its whole turn, its best for it."""
    if game.to_move() != {CHANCE}:
        return race(game, seat)
    return rest_of_turn(game, seat, (game.round, game.index))  # type: ignore[attr-defined]


def best_turn(game: Game, seat: int, turn: tuple[int, int], ends: dict, reply=after_reply) -> float:
    """Brute force over the rest of the seat's turn (a reroll averaged), each end after the reply."""
    if not game.to_move() or (game.round, game.index) != turn:  # type: ignore[attr-defined]
        key = str(game.board)  # type: ignore[attr-defined]
        if key not in ends:
            ends[key] = reply(game, seat)
        return ends[key]
    if CHANCE in game.to_move():
        return sum(p * best_turn(made(game, CHANCE, r), seat, turn, ends, reply) for r, p in game.chance_outcomes())
    return max(best_turn(made(game, seat, m), seat, turn, ends, reply) for m in game.legal_moves(seat))


def turn_values(kind: str, index: int, seat: int) -> dict[str, float]:
    """Every legal move's brute-force value (``best_turn``) in position ``index`` of ``POSITIONS`` (``kind``
    "single": each end of turn after the reply's single die use) or of ``WHOLE_TURN`` ("whole": after its whole
    turn), for ``seat``. The brute force is 1.5-5 s of CPU a position against 0.1 s for hard's choice, so it runs
    once, and again only when the positions, the engines, ``ai`` (its ``WIN``) or this file change (tests/once.py)."""
    table, reply = (POSITIONS, after_reply) if kind == "single" else (WHOLE_TURN, after_whole_reply)
    inputs = (POSITIONS_FILE, WHOLE_TURN_FILE, Path(__file__), Path(engines.__file__).parent, Path(ai.__file__).parent)

    def compute() -> dict[str, float]:
        game = load(table[index])
        turn = (game.round, game.index)  # type: ignore[attr-defined]
        ends: dict = {}
        return {m: best_turn(made(game, seat, m), seat, turn, ends, reply) for m in game.legal_moves(seat)}

    values = once(f"ziggurat-turn-{kind}-{index}-{seat}", compute, inputs)
    assert sorted(values) == sorted(load(table[index]).legal_moves(seat)), "a value for every legal move"
    return values


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_hard_plays_the_best_turn_where_the_tree_search_lost_squares(index: int) -> None:
    position = POSITIONS[index]
    game = load(position)
    seat = position["seat"]
    move = ai.choose(game, seat, "hard", seed=index)
    values = turn_values("single", index, seat)
    assert values[move] == pytest.approx(max(values.values()))
    assert values[move] >= values[position["old_hard"]] + 8  # the tree search's move: 9-18 squares worse


def test_hard_plays_the_best_turn_after_the_opponents_whole_turn() -> None:
    """Session 9's hard moved b3 (the best after the reply's single die use), 10 squares worse than g2 after its
    whole turn."""
    position = WHOLE_TURN[0]
    game = load(position)
    seat = position["seat"]
    move = ai.choose(game, seat, "hard", seed=1)
    values = turn_values("whole", 0, seat)
    assert values[move] == pytest.approx(max(values.values()))
    assert values[move] >= values[position["old_hard"]] + 8


@pytest.mark.parametrize("seed", [2, 5, 9])
def test_the_whole_turn_reply_is_the_brute_force_over_the_opponents_turn(seed: int) -> None:
    """Every roll of the opponent, every order of its die uses, Wild and Redo: the shared boards lose nothing."""
    rng = random.Random(seed)
    game = engines.get("ziggurat").new(2, {})
    while len(game.history) < 60 + 20 * seed or game.to_move() != {CHANCE} or game.turn_moves:  # type: ignore[attr-defined]
        movers = game.to_move()
        assert movers, "the game ended before the position"
        if CHANCE in movers:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
        else:
            game.play(min(movers), rng.choice(game.legal_moves(min(movers))))
    seat = 1 - game.owner[game.colour]  # type: ignore[attr-defined]
    search = ziggurat.Search(seat, None, None)
    assert search.answer(game) == pytest.approx(after_whole_reply(game, seat))
    assert search.answer(game) <= search.reply(game) + 1e-9  # the single die use's value bounds it


def test_the_turn_search_is_what_hard_plays_in_two_player_ziggurat_only() -> None:
    assert levels.work_for("hard", "ziggurat", 2).turn > 0
    assert ("ziggurat", 2) in levels.TURN_SEARCH and ("ziggurat", 3) not in levels.TURN_SEARCH


def test_the_turn_search_cut_short_answers_none_or_a_legal_move() -> None:
    game = load(POSITIONS[0])
    moves = game.legal_moves(0)
    assert ziggurat.choose(game, 0, moves, 5, random.Random(1)) is None  # not even the turn listed
    picked = ziggurat.choose(game, 0, moves, 2000, random.Random(1))
    assert picked is None or picked in moves


def test_under_a_clock_hard_plays_the_best_turn_too() -> None:
    game = load(POSITIONS[2])
    move = ai.choose(game, 0, "hard", seed=1, budget_s=20.0)  # far more than the search needs: it completes
    values = turn_values("single", 2, 0)
    assert values[move] == pytest.approx(max(values.values()))


def test_hard_plays_a_short_game_legally_and_reproducibly_and_beats_random() -> None:
    rng = random.Random(4)
    game = engines.get("ziggurat").new(2, {"round_limit": 30})
    while game.to_move():
        movers = game.to_move()
        if CHANCE in movers:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
            continue
        seat = min(movers)
        moves = game.legal_moves(seat)
        if seat == 1:
            game.play(seat, rng.choice(moves))
            continue
        move = ai.choose(game, seat, "hard", seed=len(game.history))
        assert move in moves
        if len(game.history) % 25 == 0:
            assert ai.choose(game, seat, "hard", seed=len(game.history)) == move
        game.play(seat, move)
    outcome = game.outcome()
    assert outcome is not None and outcome.winners == frozenset({0})


def test_the_classical_baseline_answers_an_endgame_of_dead_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll with nothing to use passes the turn; chains of them used no depth, and this move never came back."""
    from bench import baselines

    made_by_baseline = baselines.Classical.after
    count = [0]

    def counted(self: baselines.Classical, game: Game, who: int, move: str) -> Game:
        count[0] += 1
        assert count[0] < 200_000, "the baseline's search does not end"
        return made_by_baseline(self, game, who, move)

    monkeypatch.setattr(baselines.Classical, "after", counted)
    position = json.loads((Path(__file__).parent / "ziggurat_dead_rolls.json").read_text())
    game = load(position)
    move = baselines.classical(game, position["seat"], random.Random(1))
    assert move in game.legal_moves(position["seat"])


def test_in_the_last_round_the_reply_is_the_single_die_use_that_sees_the_limit_end_the_game() -> None:
    """The whole-turn reply values bare boards; in the last round a roll may end the game by the round limit."""
    rng = random.Random(7)
    game = engines.get("ziggurat").new(2, {"round_limit": 30})
    while game.to_move() and not (game.round >= 30 and game.to_move() == {CHANCE}):  # type: ignore[attr-defined]
        movers = game.to_move()
        if CHANCE in movers:
            texts, weights = zip(*game.chance_outcomes(), strict=True)
            game.play(CHANCE, rng.choices(texts, weights)[0])
        else:
            game.play(min(movers), rng.choice(game.legal_moves(min(movers))))
    assert game.to_move() == {CHANCE}, "the random game reached its last round"
    search = ziggurat.Search(0, None, None)
    assert search.answer(game) == search.reply(game)
