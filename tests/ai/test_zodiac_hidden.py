"""Zodiac Chess: the AI never uses what its seat cannot know.

For 100 positions from seeded games, a twin game is built by replaying the history with every secret
of the other seat changed (its duel pick, its king, the square its last ink move really went to)
while everything the AI's seat sees stays the same; the AI must choose the same move in both.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import ai
from ai import levels
from engines import CHANCE, IllegalMove
from engines.zodiac import Zodiac
from engines.zodiac.core import KINGABLE

DUEL = ("Tree", "Crane", "Wolf", "Rhino", "Snake")


@pytest.fixture(autouse=True)
def small_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.WORK, "hard", levels.Work(iterations=12, solve=3, solve_nodes=200, prior_visits=0))
    monkeypatch.setitem(levels.WORK, "easy", levels.Work(iterations=6, solve=0, solve_nodes=0, explore=1.4))
    monkeypatch.setitem(levels.ROLLOUT_DEPTH, "zodiac", 4)


def replay(history: list[tuple[int, str]], options: dict) -> Zodiac | None:
    game = Zodiac.new(2, options)
    try:
        for seat, text in history:
            game.play(seat, text)
    except IllegalMove:
        return None
    return game


def ink_squares(game: Zodiac, side: int) -> list[str]:
    obs = game.observation(None)
    return sorted(cell["sq"] for cell in obs["board"] for p in cell["stack"] if p.get("ink")
                  and p["side"] == ("Light", "Dark")[side])


def twins(game: Zodiac, seat: int, options: dict, rng: random.Random) -> Zodiac | None:
    """The game replayed with all of the other seat's secrets changed, seen identically by ``seat``."""
    other = 1 - seat
    history = list(game.history)
    changed = False
    last_pick = max((i for i, (s, t) in enumerate(history) if s == other and t.startswith("pick ")), default=None)
    if game.phase == "duel" and other in game.picks and last_pick is not None:
        old = history[last_pick][1].split()[1]
        history[last_pick] = (other, f"pick {rng.choice([d for d in DUEL if d != old])}")
        changed = True
    ink_at = max((i for i, (s, t) in enumerate(history) if s == other and " ink " in t), default=None)
    if game.phase == "play" and ink_at is not None:
        squares = ink_squares(game, game.side_of(other))
        real = history[ink_at][1].rsplit(" ", 1)[1]
        others = [sq for sq in squares if sq != real]
        if real in squares and others:
            history[ink_at] = (other, f"{history[ink_at][1].rsplit(' ', 1)[0]} {rng.choice(others)}")
            changed = True
    king_at = next((i for i, (s, t) in enumerate(history) if s == other and t.startswith("king ")), None)
    candidates = [k for k in KINGABLE if king_at is None or k != history[king_at][1].split()[1]]
    rng.shuffle(candidates)
    seen = game.observation(seat)
    for king in candidates if king_at is not None else [None]:
        trial = list(history)
        if king is not None:
            trial[king_at] = (other, f"king {king}")  # type: ignore[index]
        twin = replay(trial, options)
        if twin is not None and twin.observation(seat) == seen and (changed or king is not None):
            return twin
    return None


def positions(count: int) -> Iterator[tuple[Zodiac, Zodiac, int, dict]]:
    found = 0
    for seed in range(200):
        options = {"sides": ("duel", "seat1", "seat2")[seed % 3]}
        rng = random.Random(seed)
        game = Zodiac.new(2, options)
        ply = 0
        while game.outcome() is None and ply < 400:
            movers = sorted(game.to_move())
            if CHANCE in movers:
                texts, weights = zip(*game.chance_outcomes(), strict=True)
                game.play(CHANCE, rng.choices(texts, weights)[0])
                continue
            seat = rng.choice(movers)
            inked = game.phase == "play" and bool(ink_squares(game, 1 - game.side_of(seat)))
            if inked or ply % 7 == seed % 7:
                twin = twins(game, seat, options, rng)
                if twin is not None:
                    yield game.clone(), twin, seat, options
                    found += 1
                    if found == count:
                        return
            game.play(seat, rng.choice(game.legal_moves(seat)))
            ply += 1


def test_hidden_elements_never_change_the_choice() -> None:
    checked = inked = 0
    for game, twin, seat, _ in positions(100):
        assert game.to_dict() != twin.to_dict()
        level = ("hard", "easy")[checked % 2]
        assert ai.choose(game, seat, level, seed=checked) == ai.choose(twin, seat, level, seed=checked)
        checked += 1
        inked += game.phase == "play" and bool(ink_squares(game, 1 - game.side_of(seat)))
    assert checked == 100
    assert inked >= 3, "the positions include ink shadows"


def test_determinize_keeps_what_the_seat_sees() -> None:
    for game, _, seat, _ in positions(30):
        world = game.determinize(seat, random.Random(4))
        assert world.observation(seat) == game.observation(seat)
        assert world.legal_moves(seat) == game.legal_moves(seat)
