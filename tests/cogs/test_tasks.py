"""``stop_task`` ends a background task for good, even one that swallows a cancellation."""

from __future__ import annotations

import asyncio

import pytest

from cogs._tasks import stop_task


async def test_a_swallowed_cancellation_is_repeated_until_the_task_ends() -> None:
    passes_after_cancel = 0

    async def stubborn() -> None:
        nonlocal passes_after_cancel
        cancelled_once = False
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                if cancelled_once:
                    raise
                cancelled_once = True  # what Python 3.11's wait_for can do when its event fires at once
            passes_after_cancel += 1

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await stop_task(task)
    assert task.done() and task.cancelled()
    assert passes_after_cancel == 1


async def test_a_task_that_will_not_end_is_given_up_after_the_patience(caplog: pytest.LogCaptureFixture) -> None:
    release = asyncio.Event()

    async def immortal() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                pass

    task = asyncio.create_task(immortal(), name="immortal")
    await asyncio.sleep(0)
    await stop_task(task, patience=0.3)
    assert not task.done()
    assert "immortal did not stop" in caplog.text
    release.set()
    task.cancel()
    await asyncio.wait({task}, timeout=1)


async def test_nothing_to_stop_and_an_ended_task_are_fine() -> None:
    await stop_task(None)
    task = asyncio.create_task(asyncio.sleep(0))
    await task
    await stop_task(task)
    assert task.done()
