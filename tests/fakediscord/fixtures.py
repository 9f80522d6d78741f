"""pytest fixtures: ``fake_discord`` (a started FakeDiscord with discord.py pointed at it) and
``discord_error_logs``. Use with ``pytest_plugins = ["tests.fakediscord.fixtures"]`` or import them.

Teardown fails the test if the fake recorded problems (unhandled route, rejected payload, late or double
interaction response) or discord.py logged an ERROR. Call ``fake_discord.errors.clear()`` /
``discord_error_logs.clear()`` in a test that provokes such errors on purpose.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from .logs import ErrorLogCollector
from .server import FakeDiscord, point_discord_py_at, restore_discord_py


@pytest.fixture
def discord_error_logs() -> Iterator[ErrorLogCollector]:
    collector = ErrorLogCollector().install()
    try:
        yield collector
    finally:
        collector.uninstall()
    collector.check()


@pytest_asyncio.fixture
async def fake_discord(discord_error_logs: ErrorLogCollector) -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    fake.log_collector = discord_error_logs
    await fake.start()
    old = point_discord_py_at(fake.api_base, fake.gateway_url)
    try:
        yield fake
    finally:
        restore_discord_py(old)
        await fake.stop()
    fake.check()
