"""One render per game version and viewer seat, however many board pages ask for it at once.

Every page open on a game reloads its view and PNG on each change, all in the same moment: with a dozen
spectators that was a dozen identical renders (36 ms each) queued behind one another, and the players' pages
waited at the back (bench/bench_web.py). What a page is shown depends only on the game's version and the
viewer's seat (``observation(seat)``), so the first request of a key renders and every other one, arriving
meanwhile or later, awaits the same result. A failed render is forgotten, so the next request tries again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")
Key = Hashable
"""What the result depends on: (game id, version, seat; None for a spectator) for a view, a digest of the
observation for an image, an imported record's id for the record as read (host/records/replay.py)."""
SIZE = 512
"""Results kept: a few per watched game (each seat and the public view of its newest version)."""


class SharedRenders(Generic[T]):
    """A bounded LRU of pending or finished results, keyed by ``Key``."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self.made = 0
        """How many times ``make`` ran (the rest were shared)."""
        self._results: OrderedDict[Key, asyncio.Future[T]] = OrderedDict()

    async def get(self, key: Key, make: Callable[[], Awaitable[T]]) -> T:
        """The result for ``key``: made now by ``make`` if no one made or is making it. The render runs as a
        task of its own, so a page that gives up (closed, timed out) cancels nobody else's wait."""
        task = self._results.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._results[key] = task
            self.made += 1
            task.add_done_callback(lambda done: self._forget_failed(key, done))
            while len(self._results) > self.size:
                self._results.popitem(last=False)
        else:
            self._results.move_to_end(key)
        return await asyncio.shield(task)

    def done(self, key: Key) -> T | None:
        """The finished result for ``key``, else ``None`` (not asked for, still being made, failed or forgotten):
        a caller that has it serves it without reading anything."""
        task = self._results.get(key)
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        self._results.move_to_end(key)
        return task.result()

    def keep(self, key: Key, result: T) -> None:
        """Remember a result made elsewhere (a row read for a view) under ``key``."""
        task: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        task.set_result(result)
        self._results[key] = task
        self._results.move_to_end(key)
        while len(self._results) > self.size:
            self._results.popitem(last=False)

    def _forget_failed(self, key: Key, task: asyncio.Future[T]) -> None:
        if (task.cancelled() or task.exception() is not None) and self._results.get(key) is task:
            del self._results[key]
