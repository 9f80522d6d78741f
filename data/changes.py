"""Committed game changes, heard by every process over one PostgreSQL database (``LISTEN game_changes``).

The games table's trigger (migration 014) runs ``pg_notify`` inside every transaction that bumps a game's
version; PostgreSQL delivers the notification at COMMIT to every listening connection of every process, and
a ROLLBACK drops it, so a listener hears only writes that landed. LISTEN belongs to a session, so a listener
holds a connection of its own (not a pooled one). When that connection dies (a server restart,
``pg_terminate_backend``, a cut network found by a ping) it connects again and calls ``on_connect``: what
was committed while nobody listened is never sent again, so the owner re-reads what it watches.

SQLite serves one process, whose writes its pages hear in memory: ``listen`` returns ``None`` there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from data.db import Database

if TYPE_CHECKING:
    import asyncpg

CHANNEL = "game_changes"
RETRY_FIRST, RETRY_LAST = 0.2, 5.0
"""Seconds between attempts to connect again: doubling from the first to the last."""
PING = 10.0
"""Seconds of silence after which the listener checks its connection (a cut network sends no close)."""
APPLICATION = "zgames-listen"
"""The listener's ``application_name``, to tell its connection from the pool's (``pg_stat_activity``)."""
log = logging.getLogger(__name__)

Heard = Callable[[int, int], None]
"""``heard(game_id, version)``: a change of the game to ``version`` was committed (by any process)."""


def parse(payload: str) -> tuple[int, int] | None:
    """``"<game id>:<version>"`` as two numbers; anything else (another sender on the channel) is None."""
    game, _, version = payload.partition(":")
    return (int(game), int(version)) if game.isdigit() and version.isdigit() else None


class Listener:
    """One LISTEN connection that stays connected: ``heard`` for each committed change, ``on_connect`` after
    each (re)connection."""

    def __init__(self, url: str, heard: Heard, on_connect: Callable[[], None], *, retry: float = RETRY_FIRST,
                 ping: float = PING) -> None:
        self.url = url
        self.heard = heard
        self.on_connect = on_connect
        self.retry = retry
        self.ping = ping
        self.connections = 0
        """How many times it connected: more than once means it recovered from a lost connection."""
        self.pid: int | None = None
        """The server process of the live connection (None while disconnected)."""
        self._up = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return self._up.is_set()

    async def wait_connected(self, timeout: float) -> None:
        await asyncio.wait_for(self._up.wait(), timeout)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        import asyncpg  # only a PostgreSQL process needs the driver

        wait = self.retry
        while True:
            try:
                conn = await asyncpg.connect(self.url, timeout=5.0, server_settings={"application_name": APPLICATION})
            except Exception as error:  # refused, a bad login, a server starting up: all wait and try again
                log.warning("cannot listen for game changes (%s); trying again in %.1f s", error, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RETRY_LAST)
                continue
            wait = self.retry
            try:
                await self._listen_on(conn)
                log.warning("the game-change listener lost its connection; connecting again")
            except Exception as error:  # the connection broke mid-call (a ping, LISTEN itself)
                log.warning("the game-change listener failed (%s); connecting again", error)
            finally:
                self._up.clear()
                self.pid = None
                conn.terminate()

    async def _listen_on(self, conn: asyncpg.Connection) -> None:
        """LISTEN on ``conn`` until it is gone."""
        lost = asyncio.Event()
        conn.add_termination_listener(lambda _conn: lost.set())
        await conn.add_listener(CHANNEL, self._notified)
        self.connections += 1
        self.pid = conn.get_server_pid()
        self._up.set()
        self._call(self.on_connect)
        await self._watch(conn, lost)

    async def _watch(self, conn: asyncpg.Connection, lost: asyncio.Event) -> None:
        """Return once the connection is gone: closed by the server, or silent to a ping."""
        while not lost.is_set():
            try:
                await asyncio.wait_for(lost.wait(), self.ping)
            except TimeoutError:
                await asyncio.wait_for(conn.execute("SELECT 1"), self.ping)

    def _notified(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        change = parse(payload)
        if change is not None:
            self._call(lambda: self.heard(*change))

    @staticmethod
    def _call(callback: Callable[[], None]) -> None:
        try:
            callback()
        except Exception:  # one failing subscriber must not stop the listening
            log.exception("a game-change subscriber failed")


def listen(db: Database, heard: Heard, on_connect: Callable[[], None] = lambda: None, *,
           retry: float = RETRY_FIRST, ping: float = PING) -> Listener | None:
    """Start listening for ``db``'s committed game changes (on the running loop); ``None`` on SQLite."""
    url = getattr(db, "url", None)
    if db.dialect != "postgres" or not url:
        return None
    listener = Listener(url, heard, on_connect, retry=retry, ping=ping)
    listener.start()
    return listener
