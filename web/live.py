"""Push: every page open on a game hears of each committed change within a second.

The host's change hook runs inside the transaction, before it commits; announcing then could make a page
reload the old position (or one a rollback undoes). So the hook only starts a watcher that reads the
row's version until it passes the one the write replaced, and announces after that. The fan-out is in
this process's memory, which is exact on SQLite (one process).

A sweep reads the version of every watched game every ``SWEEP`` seconds and announces any change the hook
did not see: writes that run no change hook (an abort, a timeout's bare write) and, on PostgreSQL with
several processes, moves committed by another process. ``LISTEN/NOTIFY`` is the next step there, to bring
those within a second too.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

log = logging.getLogger(__name__)
COMMIT_WAIT = 5.0
"""Seconds a watcher waits for the write to commit; a write that never commits (rolled back) is dropped."""
POLL = 0.01
SWEEP = 2.0
"""Seconds between two reads of every watched game's version (one row read per watched game)."""


class Hub:
    """The WebSockets open on each game, and the announcement of each committed change to them."""

    def __init__(self, version: Callable[[int], Awaitable[int]]) -> None:
        """``version``: the game row's committed version (read outside any transaction)."""
        self.version = version
        self.pages: dict[int, set[web.WebSocketResponse]] = {}
        self.seen: dict[int, int] = {}
        """The newest version announced (or found by the sweep) per watched game."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def start(self, every: float = SWEEP) -> None:
        """Start the sweep (on the running loop: the app's start-up)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            for game_id in list(self.pages):
                try:
                    version = await self.version(game_id)
                except Exception:  # a game that cannot be read now is read again next sweep
                    log.debug("sweep could not read game %s", game_id, exc_info=True)
                    continue
                if version > self.seen.get(game_id, version):
                    await self.announce(game_id, version)

    async def join(self, game_id: int, socket: web.WebSocketResponse) -> None:
        """Watch ``game_id`` for ``socket``: from the version now on (the page reloads its view on opening)."""
        if game_id not in self.seen:
            self.seen[game_id] = await self.version(game_id)
        self.pages.setdefault(game_id, set()).add(socket)

    def leave(self, game_id: int, socket: web.WebSocketResponse) -> None:
        sockets = self.pages.get(game_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.pages[game_id]
                self.seen.pop(game_id, None)

    def changing(self, game_id: int, version_before: int) -> None:
        """The change hook: a write of ``game_id`` replacing ``version_before`` is committing."""
        if game_id not in self.pages:
            return  # nobody is watching: nothing to read
        task = asyncio.get_running_loop().create_task(self._after_commit(game_id, version_before))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_commit(self, game_id: int, version_before: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + COMMIT_WAIT
        try:
            while (version := await self.version(game_id)) <= version_before:
                if loop.time() > deadline:
                    return
                await asyncio.sleep(POLL)
        except Exception:  # the game vanished or the database is closing: nothing to announce
            log.debug("change watcher of game %s stopped", game_id, exc_info=True)
            return
        await self.announce(game_id, version)

    async def announce(self, game_id: int, version: int) -> None:
        """Tell every page on ``game_id`` to reload its view; a page that cannot be reached is dropped."""
        if game_id in self.pages:
            self.seen[game_id] = max(version, self.seen.get(game_id, 0))
        message = json.dumps({"type": "changed", "game_id": game_id, "version": version})
        for socket in list(self.pages.get(game_id, ())):
            try:
                await socket.send_str(message)
            except (ConnectionError, RuntimeError):
                self.leave(game_id, socket)

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._tasks):
            task.cancel()
        for sockets in list(self.pages.values()):
            for socket in list(sockets):
                await socket.close()
        self.pages.clear()
