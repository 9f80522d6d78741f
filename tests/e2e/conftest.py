"""End-to-end: the real bot from ``create_bot`` against the project's fake Discord on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from host import offload
from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.fixtures import fake_discord  # noqa: F401 (a fixture)
from tests.fakediscord.logs import ErrorLogCollector
from zbot import Config, ZBot, create_bot

BOT_LOGGERS = ("discord", "zgames", "cogs", "host", "data")
WAIT_S = 30.0
"""How long the fake's waits (a message, a condition, idle handlers) allow. A wait returns as soon as its
condition holds, so a passing test is no slower; 5 s was too short for a correct bot when ``make test`` runs
a worker on every core of a loaded machine (a Swiss round timed out at load 17). Discord's own 3-second
deadline for answering an interaction is a separate check and stays."""


@pytest.fixture(autouse=True)
def patient_fake(request: pytest.FixtureRequest) -> None:
    """Every e2e test's fake Discord waits up to ``WAIT_S`` unless the test itself sets its own timeout."""
    if "fake_discord" in request.fixturenames:
        fake: FakeDiscord = request.getfixturevalue("fake_discord")
        fake.timeout = max(fake.timeout, WAIT_S)


async def _no_warm_up() -> None:
    """Nothing: the import lane's child starts when the first import asks for it (host/offload.py)."""


@pytest.fixture(autouse=True)
def import_lane_starts_on_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot starts the import lane's child at start-up (cogs/zrtz.py ``cog_load``), so that a person's first
    import is not slower: a process importing the renderers, about 0.3 s of CPU. The e2e tests start about 150
    bots in this process and a handful import a record, so here the child starts on first use instead, as it
    does in any bot whose warm-up has not finished; the import tests (tests/e2e/test_fair.py,
    tests/e2e/test_import_limits.py, tests/e2e/test_records.py) still run it. A bot run as ``python bot.py``
    (tests/e2e/test_crash.py) warms up as in production."""
    monkeypatch.setattr(offload, "warm", _no_warm_up)


@pytest.fixture
def discord_error_logs() -> Iterator[ErrorLogCollector]:
    """Any ERROR from discord.py or from the bot's own code fails the test (the fake checks at teardown)."""
    collector = ErrorLogCollector(loggers=BOT_LOGGERS).install()
    try:
        yield collector
    finally:
        collector.uninstall()
    collector.check()


@dataclass
class BotHarness:
    """Starts (and restarts) the project's bot over one database file."""

    fake: FakeDiscord
    database_path: Path
    rate_burst: float = 0
    """The per-user budget (cogs/_limits.py) is off here: a test presses as fast as the bot answers, far
    faster than a person; tests/e2e/test_rate_limits.py turns it on, and tests/e2e/test_builder.py's whole games
    (with a person's clock)."""

    board_processes: int = 0
    """Boards drawn in a thread here: the suite starts a few hundred bots, and two spawned interpreters each
    (a second or two of CPU apiece) cost minutes. The worker processes are tested in tests/host/test_painter.py
    and by every test that runs ``bot.py`` as its own process (the browser games, the crash tests)."""

    def make_bot(self) -> ZBot:
        config = Config(token="fake-token", database_path=self.database_path, api_base=self.fake.api_base,
                        gateway_url=self.fake.gateway_url, sync=True, guild_ready_timeout=0,
                        rate_burst=self.rate_burst, board_processes=self.board_processes)
        return create_bot(config)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[ZBot]:
        # Follow-ups of a move (the Zodiac DMs) run as discord.py event tasks: wait for them too.
        if "discord.py: on_game_report" not in self.fake.extra_idle_prefixes:
            self.fake.extra_idle_prefixes = (*self.fake.extra_idle_prefixes, "discord.py: on_game_report")
        bot = self.make_bot()
        async with running_bot(self.fake, bot):
            yield bot

    def user_id(self, name: str) -> int:
        return int(self.fake.user(name).id)

    def name_of(self, user_id: int) -> str:
        return next(u.name for u in self.fake.world.users.values() if int(u.id) == user_id)


@pytest.fixture
def harness(fake_discord: FakeDiscord, tmp_path: Path) -> BotHarness:  # noqa: F811
    return BotHarness(fake_discord, tmp_path / "e2e.sqlite3")
