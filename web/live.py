"""Push: every page open on a game hears of each committed change within a second.

A write of this process is announced right after its commit (the session's commit hook), before the host goes
on to draw the move's report, so the push is the first thing a move costs; the message carries the new ply, so
the page fetches the right board at once. On PostgreSQL the host's change feed (``host.changes``:
LISTEN/NOTIFY) brings every committed change of the other processes sharing the database; a rolled-back
write sends nothing.

A sweep reads the version of every watched game every ``SWEEP`` seconds and announces any change not yet
announced: on SQLite, writes that run no commit hook (an abort, a timeout's bare write); on PostgreSQL, a
safety net, and the feed's reconnection runs one at once (what was committed while it was away). Each
version is announced once, whichever path finds it first.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from aiohttp import web

log = logging.getLogger(__name__)
SWEEP = 2.0
"""Seconds between two reads of every watched game's version (one row read per watched game)."""
SPECTATOR_DELAY = 0.1
"""Seconds the spectators' pages are told after the players' pages: a change reloads every page at once, and
the players' reloads (the next move waits on them) then do not queue behind a crowd's (bench/bench_web.py)."""


class Feed(Protocol):
    """The host's feed of committed changes (``host/play/feed.py``)."""

    @property
    def live(self) -> bool: ...

    def subscribe(self, heard: Callable[[int, int], None], resync: Callable[[], None]
                  ) -> Callable[[], Awaitable[None]]: ...


class Hub:
    """The WebSockets open on each game, and the announcement of each committed change to them."""

    def __init__(self, version: Callable[[int], Awaitable[int]], feed: Feed | None = None) -> None:
        """``version``: the game row's committed version (read outside any transaction); ``feed``: the
        committed changes of every process (None: this process's change hook and the sweep only)."""
        self.version = version
        self.feed = feed
        self.pages: dict[int, set[web.WebSocketResponse]] = {}
        self.seen: dict[int, int] = {}
        """The newest version announced (or found by the sweep) per watched game."""
        self.players: set[web.WebSocketResponse] = set()
        """Pages of seated players: told first, so their reloads are not queued behind the spectators'."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], Awaitable[None]] | None = None
        self.spectator_delay = SPECTATOR_DELAY

    def start(self, every: float = SWEEP) -> None:
        """Start the sweep and hear the feed (on the running loop: the app's start-up)."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep(every))
        if self.feed is not None:
            self._unsubscribe = self.feed.subscribe(self.heard, self.resync)

    async def _sweep(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sweep_once()

    async def sweep_once(self) -> None:
        """Announce every watched game whose committed version passed the one announced."""
        for game_id in list(self.pages):
            try:
                version = await self.version(game_id)
            except Exception:  # a game that cannot be read now is read again next sweep
                log.debug("sweep could not read game %s", game_id, exc_info=True)
                continue
            if version > self.seen.get(game_id, version):
                await self.announce(game_id, version)

    def heard(self, game_id: int, version: int) -> None:
        """The feed: ``game_id`` reached ``version``, committed (by any process)."""
        if game_id in self.pages and version > self.seen.get(game_id, version):
            self._spawn(self.announce(game_id, version))

    def resync(self) -> None:
        """The feed (re)connected: what was committed while it was away was not heard; read it now."""
        self._spawn(self.sweep_once())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def join(self, game_id: int, socket: web.WebSocketResponse, *, player: bool = False) -> None:
        """Watch ``game_id`` for ``socket`` (``player``: a seated player's page): from the version now on (the
        page reloads its view on opening)."""
        if game_id not in self.seen:
            self.seen[game_id] = await self.version(game_id)
        self.pages.setdefault(game_id, set()).add(socket)
        if player:
            self.players.add(socket)

    def leave(self, game_id: int, socket: web.WebSocketResponse) -> None:
        self.players.discard(socket)
        sockets = self.pages.get(game_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.pages[game_id]
                self.seen.pop(game_id, None)

    def committed(self, game_id: int, version: int, ply: int | None = None) -> None:
        """The commit hook: this process committed ``game_id`` at ``version`` (``ply``: its ply, when known)."""
        if game_id in self.pages and version > self.seen.get(game_id, version):
            self._spawn(self.announce(game_id, version, ply))

    async def announce(self, game_id: int, version: int, ply: int | None = None) -> None:
        """Tell every page on ``game_id`` to reload its view, once per version (with its ``ply`` when known: the
        page fetches that board beside the view instead of guessing); a page that cannot be reached is dropped."""
        if game_id in self.pages:
            if version <= self.seen.get(game_id, -1):
                return  # announced already (the feed, the hook's watcher and the sweep may all find it)
            self.seen[game_id] = version
        change = {"type": "changed", "game_id": game_id, "version": version}
        message = json.dumps(change if ply is None else {**change, "ply": ply})
        sockets = self.pages.get(game_id, set())
        players = [socket for socket in sockets if socket in self.players]
        spectators = [socket for socket in sockets if socket not in self.players]
        await self._send(game_id, players, message)
        if players and spectators and self.spectator_delay > 0:
            self._spawn(self._send(game_id, spectators, message, after=self.spectator_delay))
        else:
            await self._send(game_id, spectators, message)

    async def _send(self, game_id: int, sockets: list[web.WebSocketResponse], message: str, after: float = 0.0
                    ) -> None:
        if after:
            await asyncio.sleep(after)
        for socket in sockets:
            try:
                await socket.send_str(message)
            except (ConnectionError, RuntimeError):
                self.leave(game_id, socket)

    async def close(self) -> None:
        if self._unsubscribe is not None:
            await self._unsubscribe()
            self._unsubscribe = None
        if self._sweeper is not None:
            self._sweeper.cancel()
        for task in list(self._tasks):
            task.cancel()
        for sockets in list(self.pages.values()):
            for socket in list(sockets):
                await socket.close()
        self.pages.clear()
