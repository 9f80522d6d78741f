"""Push: every page open on a game hears of each committed change within a second.

A write of this process is announced right after its commit (the session's commit hook), before the host goes
on to draw the move's report, so the push is the first thing a move costs; the message carries the new ply, so
the page fetches the right board at once. On PostgreSQL the host's change feed (``host.changes``:
LISTEN/NOTIFY) brings every committed change of the other processes sharing the database; a rolled-back
write sends nothing.

A sweep reads the version of every watched game every ``SWEEP`` seconds and announces any change not yet
announced: on SQLite, writes that run no commit hook (a bare write of the store); on PostgreSQL, a
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
RELOAD_WAIT = 2.0
"""Seconds at most that work which can wait (a page's move posted in Discord) waits for the players' pages to
have reloaded the change (``players_reloaded``)."""
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
        self.players: dict[web.WebSocketResponse, int] = {}
        """Pages of seated players, and whose: told first, so their reloads are not queued behind the spectators'."""
        self.reloaded: dict[tuple[int, int], int] = {}
        """(game, user) -> the newest announced version whose view that user was served (the players' count)."""
        self._reload_waiters: dict[int, list[tuple[int, asyncio.Future[None]]]] = {}
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

    async def join(self, game_id: int, socket: web.WebSocketResponse, *, player: int | None = None) -> None:
        """Watch ``game_id`` for ``socket`` (``player``: the user, when the page is a seated player's): from the
        version now on (the page reloads its view on opening)."""
        if game_id not in self.seen:
            self.seen[game_id] = await self.version(game_id)
        self.pages.setdefault(game_id, set()).add(socket)
        if player is not None:
            self.players[socket] = player

    def viewed(self, game_id: int, user: int, version: int) -> None:
        """``user`` was served their view of ``game_id`` as of the announced ``version``."""
        key = (game_id, user)
        if user not in self._watching_players(game_id):
            return  # a spectator, or the game's last page left while the view was made: nothing waits on it
        if version > self.reloaded.get(key, -1):
            self.reloaded[key] = version
            self._wake(game_id)

    def _wake(self, game_id: int) -> None:
        for wanted, done in list(self._reload_waiters.get(game_id, [])):
            if not done.done() and self._caught_up(game_id, wanted):
                done.set_result(None)

    def _watching_players(self, game_id: int) -> set[int]:
        return {self.players[s] for s in self.pages.get(game_id, ()) if s in self.players}

    def _caught_up(self, game_id: int, version: int) -> bool:
        users = self._watching_players(game_id)
        return all(self.reloaded.get((game_id, user), -1) >= version for user in users)

    async def players_reloaded(self, game_id: int, version: int, timeout: float = RELOAD_WAIT) -> None:
        """Return once every player with a page open on ``game_id`` was served its view of ``version`` (or after
        ``timeout``): what can wait (Discord) then runs after the reloads the next move waits on."""
        if self._caught_up(game_id, version):
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self._reload_waiters.setdefault(game_id, [])
        waiting.append((version, done))
        try:
            await asyncio.wait_for(asyncio.shield(done), timeout)
        except TimeoutError:
            pass
        finally:
            waiting.remove((version, done))
            if not waiting:
                del self._reload_waiters[game_id]

    def leave(self, game_id: int, socket: web.WebSocketResponse) -> None:
        self.players.pop(socket, None)
        sockets = self.pages.get(game_id)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.pages[game_id]
                self.seen.pop(game_id, None)
                for key in [key for key in self.reloaded if key[0] == game_id]:
                    del self.reloaded[key]
        self._wake(game_id)  # a player who closed their page is waited for no longer

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
