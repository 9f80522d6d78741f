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
    """A broadcast 'something changed' signal. Each change checks the waiting predicates once, on the next turn
    of the loop, and wakes only the waiters whose predicate came true: waking every waiter on every change cost
    the fake a task switch per waiter per change (64 players waiting on replies: hundreds per move, in the bench
    of moves a second)."""

    def __init__(self) -> None:
        self._waiters: dict[asyncio.Future[Any], Callable[[], Any]] = {}
        self._check_due = False

    def notify(self) -> None:
        if not self._waiters or self._check_due:
            return
        self._check_due = True
        asyncio.get_running_loop().call_soon(self._check)

    def _check(self) -> None:
        self._check_due = False
        for future, predicate in list(self._waiters.items()):
            if future.done():
                continue
            try:
                result = predicate()
            except Exception as error:  # raised in the waiter, as when it checked for itself
                future.set_exception(error)
                continue
            if result:
                future.set_result(result)

    async def wait_until(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Return the first truthy ``predicate()`` result, re-evaluated after every change."""
        result = predicate()
        if result:
            return result
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiters[future] = predicate
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            result = predicate()  # a change in the last moment
            if result:
                return result
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None
        finally:
            del self._waiters[future]


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
