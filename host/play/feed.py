"""The feed of committed game changes, for whatever shows games live (the board pages, ``web/live.py``).

On PostgreSQL several bot processes share the games, and each hears every process's commits through one
listener of its own (``data/changes.py``, LISTEN/NOTIFY), however many subscribe. On SQLite there is one
process and nothing to listen to: ``live`` stays False, and a subscriber hears this process's writes in
memory (the session's change hook).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from data import changes
from data.db import Database

Heard = Callable[[int, int], None]
"""``heard(game_id, version)``: the game's change to ``version`` was committed, by this or another process."""
Resync = Callable[[], None]
"""Called after the feed (re)connects: changes committed while it was away were not heard; read them."""


class ChangeFeed:
    """Subscriptions to committed game changes; the listener runs while anyone subscribes."""

    def __init__(self, db: Database, *, retry: float = changes.RETRY_FIRST, ping: float = changes.PING) -> None:
        self.db = db
        self.retry = retry
        self.ping = ping
        self._subscribers: list[tuple[Heard, Resync]] = []
        self._listener: changes.Listener | None = None

    @property
    def live(self) -> bool:
        """True while committed changes of every process arrive here (PostgreSQL, connected)."""
        return self._listener is not None and self._listener.connected

    @property
    def listener(self) -> changes.Listener | None:
        return self._listener

    def subscribe(self, heard: Heard, resync: Resync) -> Callable[[], Awaitable[None]]:
        """Hear every committed change (on the running loop); returns the coroutine function that ends it."""
        entry = (heard, resync)
        self._subscribers.append(entry)
        if self._listener is None:
            self._listener = changes.listen(self.db, self._heard, self._resync, retry=self.retry, ping=self.ping)

        async def unsubscribe() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)
            if not self._subscribers and self._listener is not None:
                listener, self._listener = self._listener, None
                await listener.close()

        return unsubscribe

    def _heard(self, game_id: int, version: int) -> None:
        for heard, _ in list(self._subscribers):
            heard(game_id, version)

    def _resync(self) -> None:
        for _, resync in list(self._subscribers):
            resync()
