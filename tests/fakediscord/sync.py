"""Event-driven waiting: no fixed sleeps, every wait re-checks its condition when the fake's state changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# Names discord.py gives the tasks that run user code for an incoming event.
HANDLER_TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: on_interaction",
    "discord.py: on_message",
    "discord.py: on_app_command",
    "discord.py: on_command",
    "discord.py: on_thread",
)


class Notifier:
    """A broadcast 'something changed' signal."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Return the first truthy ``predicate()`` result, re-evaluated after every change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            event = self._event
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                pass


def handler_tasks(extra_prefixes: tuple[str, ...] = ()) -> set[asyncio.Task[object]]:
    prefixes = HANDLER_TASK_PREFIXES + extra_prefixes
    current = asyncio.current_task()
    return {t for t in asyncio.all_tasks() if t is not current and not t.done() and t.get_name().startswith(prefixes)}


async def wait_handlers_idle(
    timeout: float, extra_prefixes: tuple[str, ...] = (), ignore: set[asyncio.Task[Any]] | None = None
) -> None:
    """Wait until no discord.py event-handler task (command, view, dynamic item, modal...) is running.

    Tasks in ``ignore`` (snapshot taken before the event was sent) are not waited for, so a handler still
    blocked on an earlier interaction (``await view.wait()``) does not stall later actions.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while tasks := handler_tasks(extra_prefixes) - (ignore or set()):
        remaining = deadline - loop.time()
        if remaining <= 0:
            names = sorted(t.get_name() for t in tasks)
            raise TimeoutError(
                f"bot handlers still running after {timeout}s: {names} "
                "(if the handler waits for a later event, use wait='response')"
            )
        await asyncio.wait(tasks, timeout=remaining)
