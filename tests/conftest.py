"""Shared fixtures: a real SQLite database in a temp file, and a host over it with a controllable clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engines
from data.db import Database
from host.service import Host
from tests.engines.toy import DiceNim


class FakeClock:
    """Time that moves only when a test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


def text_renderer(observation: dict[str, Any]) -> bytes:
    """Stands in for the PNG renderer in host tests: the bytes show exactly what was rendered."""
    return json.dumps(observation, sort_keys=True).encode()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "test.sqlite3")
    yield database
    await database.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def host(db: Database, clock: FakeClock) -> Host:
    return Host(db, games={**engines.GAMES, DiceNim.name: DiceNim}, renderer=text_renderer, now=clock)
