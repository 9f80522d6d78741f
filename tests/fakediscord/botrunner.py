"""Start a real discord.py client against a FakeDiscord and stop it cleanly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from .server import FakeDiscord, point_discord_py_at, restore_discord_py

FAKE_TOKEN = "fake-token"


@asynccontextmanager
async def running_bot(fake: FakeDiscord, bot: discord.Client, *, token: str = FAKE_TOKEN,
                      timeout: float | None = None) -> AsyncIterator[discord.Client]:  # fmt: skip
    """Run ``bot.start(token)`` in a task until the block exits; yields once the bot is ready.

    Build the bot with ``guild_ready_timeout=0`` (or small): discord.py otherwise waits 2 s for more
    GUILD_CREATEs before on_ready. If the client task dies (a payload bug), the error surfaces here.
    """
    old = point_discord_py_at(fake.api_base, fake.gateway_url)
    task = asyncio.create_task(bot.start(token), name="fakediscord-bot")
    fake.bot_tasks.append(task)
    ready = asyncio.create_task(bot.wait_until_ready())
    try:
        done, _ = await asyncio.wait({task, ready}, timeout=timeout or fake.timeout, return_when="FIRST_COMPLETED")
        if task in done:
            task.result()  # re-raise the client's error
            raise AssertionError("bot.start() returned before the bot became ready")
        if ready not in done:
            raise TimeoutError("bot did not become ready against the fake Discord")
        yield bot
        if task.done():
            task.result()
    finally:
        ready.cancel()
        await bot.close()
        try:
            await asyncio.wait_for(task, fake.timeout)
        except (asyncio.CancelledError, discord.ConnectionClosed):
            pass
        restore_discord_py(old)
