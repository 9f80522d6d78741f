"""``levels.LEVEL_DEPTH``: one level's rollout depth in one game, here medium's half-depth rollouts in Zaic.

Why it exists: Zaic's last plies are exact tactics (who is left without a placement), which hard's two-ply screen
does not see and medium's full 6-ply random rollouts reached; hard beat medium only 0.70 (n = 40). At half depth
medium plays the ending by the evaluation too (docs/ai.md, "Session 11: the ladder's margins").
"""

from __future__ import annotations

import random

import pytest

import ai
from ai import levels, mcts
from engines.zaic import Zaic
from engines.zarathustra import Zarathustra


def played(game: Zaic | Zarathustra, plies: int, seed: int) -> Zaic | Zarathustra:
    rng = random.Random(seed)
    for _ in range(plies):
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    return game


def test_medium_rolls_out_half_depth_in_zaic_and_full_depth_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real medium level (its fixed work): in Zaic the tree search gets 3 rollout plies, in Zarathustra all 4."""
    depths: list[tuple[str, int, int]] = []
    search = mcts.search

    def recording(game, seat, moves, iterations, depth, *args, **kwargs):  # type: ignore[no-untyped-def]
        depths.append((game.name, iterations, depth))
        return search(game, seat, moves, iterations, depth, *args, **kwargs)

    monkeypatch.setattr(mcts, "search", recording)
    zaic = played(Zaic.new(2), 6, seed=1)
    assert zaic.outcome() is None
    assert ai.choose(zaic, zaic.turn, "medium", seed=2) in zaic.legal_moves(zaic.turn)
    zarathustra = played(Zarathustra.new(2), 4, seed=1)
    ai.choose(zarathustra, zarathustra.turn, "medium", seed=2)
    assert depths == [("zaic", 96, 3), ("zarathustra", 80, levels.ROLLOUT_DEPTH["zarathustra"])]
    assert levels.ROLLOUT_DEPTH["zaic"] == 6  # so 3 is half of it


def test_only_medium_in_zaic_is_changed() -> None:
    """Easy keeps its full-depth rollouts and hard its own half depth; no other game's medium changes."""
    assert levels.work_for("medium", "zaic").depth == 0.5
    assert levels.work_for("easy", "zaic").depth == 1.0
    assert levels.work_for("hard", "zaic").depth == levels.WORK["hard"].depth == 0.5
    for game in ("zarathustra", "zrtz", "zodiac", "ziggurat"):
        assert levels.work_for("medium", game).depth == levels.WORK["medium"].depth == 1.0
