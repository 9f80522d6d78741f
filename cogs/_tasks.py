"""Stopping a cog's background task for good before the bot closes its database.

``Task.cancel()`` alone is not enough: the task only learns of it at its next await, after the bot may
already have closed the database under it, and Python 3.11's ``asyncio.wait_for`` can swallow a
cancellation that arrives just as the awaited event fires (the loop then runs one more pass). So the
task is cancelled again until it has really ended.
"""

from __future__ import annotations

import asyncio
import logging

from discord.ext import tasks

log = logging.getLogger(__name__)
PATIENCE = 10.0
"""Seconds to wait for a task to end before giving up on it (a write it is finishing is worth waiting for)."""


async def stop_task(task: asyncio.Task[object] | asyncio.Task[None] | None, patience: float = PATIENCE) -> None:
    """Cancel ``task`` and wait until it has ended, cancelling again if a cancellation was swallowed."""
    if task is None:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + patience
    while not task.done():
        if loop.time() > deadline:
            log.warning("background task %s did not stop within %.0f s", task.get_name(), patience)
            return
        task.cancel()
        await asyncio.wait({task}, timeout=0.2)
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("background task %s ended with %r", task.get_name(), error)


async def stop_loop(loop: tasks.Loop[object]) -> None:
    """A ``tasks.loop`` stopped for good: no next iteration is scheduled, and the one under way has ended."""
    loop.cancel()
    await stop_task(loop.get_task())
