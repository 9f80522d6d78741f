"""The host's cap on one AI turn (issue 27): per level, in wall seconds, for a search reading the wall clock."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import ai
import engines
from ai import clock
from data.db import Database
from host.ai_players import worker as ai_worker
from host.ai_players.turns import TURN_SECONDS, parse_turn_seconds
from host.app import Host
from tests.conftest import FakeClock, text_renderer


def test_the_setting_reads_defaults_off_and_levels() -> None:
    assert parse_turn_seconds("") == TURN_SECONDS == {"hard": 6.0, "medium": 2.0, "easy": 0.5}
    assert parse_turn_seconds("off") == {}
    assert parse_turn_seconds("hard=3, easy=0.2") == {"hard": 3.0, "medium": 2.0, "easy": 0.2}
    for bad in ("hard", "hard=fast", "expert=3", "hard=0", "hard=1e9"):
        with pytest.raises(ValueError, match="AI_TURN_SECONDS"):
            parse_turn_seconds(bad)


def test_a_capped_turn_searches_by_the_wall_clock_and_puts_the_clock_back(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float] = []

    def spy(game: Any, seat: int, level: str, *, seed: int, budget_s: float | None = None) -> str:
        seen.append(abs(clock.now() - time.perf_counter()))
        return game.legal_moves(seat)[0]

    monkeypatch.setattr(ai, "choose", spy)
    state = engines.GAMES["zaic"].new(2).to_dict()
    ai_worker.choose(state, 0, "hard", 1, budget_s=0.5)
    assert seen and seen[0] < 0.01, "the search read the wall clock"
    assert abs(clock.now() - time.thread_time()) < 0.01, "the pool's clock is CPU time again after the turn"


def test_a_real_hard_turn_keeps_to_its_cap() -> None:
    """4-player Zarathustra on 7x7 is hard's widest turn (seconds of fixed work): capped at 0.3 s of wall time."""
    game = engines.GAMES["zarathustra"].new(4, {"board": 7})
    started = time.perf_counter()
    move = ai_worker.choose(game.to_dict(), 0, "hard", 5, budget_s=0.3)
    assert move in game.legal_moves(0)
    assert time.perf_counter() - started < 1.5


async def test_the_host_passes_each_levels_cap(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, float | None]] = []

    def choose(state: dict[str, Any], seat: int, level: str, seed: int, delay: float = 0.0,
               budget_s: float | None = None) -> str:
        asked.append((level, budget_s))
        return engines.get(state["game"]).from_dict(state).legal_moves(seat)[0]

    monkeypatch.setattr(ai_worker, "choose", choose)
    with ThreadPoolExecutor(1) as pool:
        host = Host(db, renderer=text_renderer, now=FakeClock(), ai_pool=pool,
                    ai_turn_seconds={"hard": 6.0, "easy": 0.5})
        game = engines.GAMES["zaic"].new(2)
        for level in ("hard", "easy", "medium"):
            await host.ai.think(game, 0, level, 1)
    assert asked == [("hard", 6.0), ("easy", 0.5), ("medium", None)]
