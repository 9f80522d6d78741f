"""Shared fixtures: a real database (a temp SQLite file, or a fresh database on a throwaway PostgreSQL
server: every test that uses ``db`` or ``host`` runs on both), and a host over it with a controllable clock."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import engines
from data.db import Database
from host.app import Host
from tests.engines.toy import DiceNim
from tests.once import SHARED_ENV
from tests.pg import PgServer
from tests.schedule import long_first


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, each worker's first tests are its share of the long ones (tests/schedule.py; the
    slices are those of ``--dist worksteal``, which ``make test`` uses). A worker's config no longer says which
    ``--dist`` was asked for (xdist resets it), and every worker orders the same way, so this needs no check."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
        items[:] = long_first(items, [item.nodeid for item in items], workers)


@pytest.fixture(scope="session", autouse=True)
def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under pytest-xdist, the folder every worker of this run shares (each worker's own temp folder sits in
    it), for inputs computed once per run (tests/once.py)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        os.environ[SHARED_ENV] = str(tmp_path_factory.getbasetemp().parent)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server for the whole session, started on first use. Under ``make test`` every
    pytest-xdist worker is a session of its own, so each worker has its own server in its own folder."""
    server = PgServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_url(pg_server: PgServer) -> AsyncIterator[str]:
    """A fresh, migrated PostgreSQL database for one test."""
    async with pg_server.fresh_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
async def db(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "sqlite":
        database = await Database.open(tmp_path / "test.sqlite3")
        yield database
        await database.close()
        return
    server: PgServer = request.getfixturevalue("pg_server")  # started only when a PostgreSQL test runs
    async with server.fresh_database() as url:
        database = await Database.open(url)
        yield database
        await database.close()


@pytest.fixture(params=["sqlite", "postgres"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``Database.open`` takes, for tests that open one database several times (two processes, or a
    restart): a SQLite file path (WAL), or a fresh database on the test PostgreSQL server."""
    return str(tmp_path / "shared.sqlite3") if request.param == "sqlite" else str(request.getfixturevalue("pg_url"))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def host(db: Database, clock: FakeClock) -> Host:
    return Host(db, games={**engines.GAMES, DiceNim.name: DiceNim}, renderer=text_renderer, now=clock)
