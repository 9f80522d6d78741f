"""The SQLite writer as it was before issue 24's one-trip transactions, for the benches' baseline.

``data.db.SqliteDatabase`` now runs a transaction's statements on the event loop's own thread (no trip at all);
before, the writer was an aiosqlite connection, so ``BEGIN``, every statement and ``COMMIT`` each went to its
thread and back, each also waiting for a turn of a busy event loop, while the write lock was held. This is that
code as it was (with the same ``WriteStats`` counters), and ``bench/bench_bot.py`` opens the database with it on
the old side (``BENCH_PNG=old``).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from data.db import (
    QUEUE_WAIT,
    SQLITE_MIGRATIONS,
    WRITE_WAIT,
    Busy,
    Database,
    Params,
    Row,
    Tx,
    WriteStats,
    log,
    migration_files,
)


class SqliteTxBefore(Tx):
    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, stats: WriteStats) -> None:
        self.conn = conn
        self.stats = stats

    async def execute(self, sql: str, params: Params = ()) -> int:
        self.stats.trips += 1
        self.stats.statements += 1
        cursor = await self.conn.execute(sql, tuple(params))
        return int(cursor.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        self.stats.trips += 1
        self.stats.statements += 1
        await self.conn.executemany(sql, [tuple(r) for r in rows])

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        self.stats.trips += 1
        self.stats.statements += 1
        return list(await self.conn.execute_fetchall(sql, tuple(params)))

    async def lock(self, key: str) -> None:
        """``BEGIN IMMEDIATE`` already holds the only write lock."""


class SqliteDatabaseBefore(Database):
    """A writing connection and a reading one. Writes take a lock so two coroutines never share a
    transaction; reads go through their own connection, so they see only committed data (WAL), never
    a transaction that may still roll back."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection | None = None) -> None:
        self.conn = conn
        self.reader = reader or conn
        self._write_lock = asyncio.Lock()
        self.stats = WriteStats()

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabaseBefore:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA busy_timeout = {int(WRITE_WAIT * 1000)}")
        await conn.execute("PRAGMA synchronous = NORMAL")
        db = cls(conn)
        await db.migrate()
        reader = await aiosqlite.connect(path, isolation_level=None)
        reader.row_factory = aiosqlite.Row
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute("PRAGMA foreign_keys = ON")
        await reader.execute("PRAGMA busy_timeout = 5000")
        db.reader = reader
        return db

    async def close(self) -> None:
        if self.reader is not self.conn:
            await self.reader.close()
        await self.conn.close()

    async def migrate(self) -> None:
        """Apply every numbered migration above ``PRAGMA user_version``, each atomically. When two processes
        start at once, the second one's copy of a migration fails inside its transaction and rolls back;
        it then finds the version already raised by the first, and goes on."""
        for number, file in migration_files(SQLITE_MIGRATIONS):
            if number <= await self._user_version():
                continue
            log.info("applying migration %s", file.name)
            script = f"BEGIN IMMEDIATE;\n{file.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
            try:
                await self.conn.executescript(script)
            except sqlite3.Error:
                if self.conn.in_transaction:
                    await self.conn.execute("ROLLBACK")
                if number > await self._user_version():
                    raise

    async def _user_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @asynccontextmanager
    async def transaction(self, *, heavy: bool = False) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, in turn through the process's writer queue (``QUEUE_WAIT``).
        Raises ``Busy`` when another process holds SQLite's lock for longer than ``WRITE_WAIT``."""
        started = time.monotonic()
        try:
            await asyncio.wait_for(self._write_lock.acquire(), QUEUE_WAIT)
        except TimeoutError:
            log.warning("write refused: the writer queue did not move for %.1f s", time.monotonic() - started)
            raise Busy() from None
        waited = time.monotonic() - started
        if waited > WRITE_WAIT:
            log.info("a write waited %.1f s in the writer queue", waited)
        locked = time.perf_counter()
        try:
            try:
                cancelled = await self._settle("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    log.warning("write refused: the database is locked by another writer")
                    raise Busy() from None
                raise
            if cancelled:
                await self._settle("ROLLBACK")
                raise asyncio.CancelledError()
            try:
                yield SqliteTxBefore(self.conn, self.stats)
            except BaseException:
                await self._settle("ROLLBACK")
                raise
            if await self._settle("COMMIT"):
                raise asyncio.CancelledError()  # the write stands; the caller was cancelled meanwhile
        finally:
            self.stats.held(time.perf_counter() - locked)
            self._write_lock.release()

    async def _settle(self, sql: str) -> bool:
        """Run a BEGIN, COMMIT or ROLLBACK to its end even if the caller is cancelled meanwhile, and say
        whether it was. aiosqlite runs a statement whose caller stopped waiting anyway: a cancelled
        ``BEGIN`` that let go of the write lock would leave the connection inside a transaction that
        the next writer cannot begin (and a cancelled ``ROLLBACK`` would keep a half-done write)."""
        self.stats.trips += 1
        self.stats.statements += 1
        step = asyncio.ensure_future(self.conn.execute(sql))
        cancelled = False
        while not step.done():
            try:
                await asyncio.shield(step)
            except asyncio.CancelledError:
                cancelled = True
        step.result()
        return cancelled

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Execute and fetch in one step on the reader's thread. Separate steps let another coroutine's
        read run while this statement is still open, inside its older snapshot: it would miss a write
        committed just before it (a game created a moment ago)."""
        return list(await self.reader.execute_fetchall(sql, tuple(params)))
