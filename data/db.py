"""One database interface over two backends: SQLite (embedded, the default) and PostgreSQL (shared).

Repositories in ``data/`` write SQL once, with ``?`` placeholders, against ``Database`` and ``Tx``;
each backend adapts it (PostgreSQL numbers the placeholders). Where the dialects differ, a repository
asks ``tx.dialect`` / ``db.dialect``. Nothing outside ``data/`` sees a driver type: rows are read by
column name (``row["id"]``) or position, as both drivers' rows allow.
"""

from __future__ import annotations

import abc
import asyncio
import logging
import sqlite3
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_MIGRATIONS = MIGRATIONS / "sqlite"
DEFAULT_PATH = Path(__file__).with_name("zgames.sqlite3")
log = logging.getLogger(__name__)
WRITE_WAIT = 1.0
"""Seconds a write waits for SQLite's lock held by another process: a move refused as busy within a second
beats one that fails after Discord's 3 s deadline."""
QUEUE_WAIT = 30.0
"""Seconds a write waits in this process's writer queue. Writes of this process go one at a time, in order
of arrival, each a few milliseconds: a burst (400 button presses, a dozen imports) waits its turn instead
of being refused as busy. Only a queue stuck this long (a hung disk) refuses."""

Row = Any
"""A result row: ``row["column"]`` and ``row[0]`` work on both backends (sqlite3.Row, asyncpg.Record)."""
Params = Sequence[Any]


class Busy(Exception):
    """The database stayed locked by another writer; the user should simply try again."""

    def __str__(self) -> str:
        return "The bot is busy right now; please try again in a moment."


class StaleVersion(Exception):
    """Someone else changed the game between our read and our write."""


@dataclass
class WriteStats:
    """What the SQLite writer costs, for benches and the log: a transaction's trips to another thread (each
    also waits for a turn of a busy event loop), how long the write lock was held, and how long each write
    statement kept the event loop's thread (the last ``SAMPLES``, for percentiles)."""

    SAMPLES = 20_000
    transactions: int = 0
    trips: int = 0
    """Calls the writer made into another thread (BEGIN, each statement, COMMIT or ROLLBACK)."""
    statements: int = 0
    held_s: float = 0.0
    """Seconds the write lock was held, summed over transactions."""
    held_max_s: float = 0.0
    on_loop: deque[float] = field(default_factory=lambda: deque(maxlen=WriteStats.SAMPLES))
    """Seconds each statement run on the event loop's thread took (none when every statement is a trip)."""

    def held(self, seconds: float) -> None:
        self.transactions += 1
        self.held_s += seconds
        self.held_max_s = max(self.held_max_s, seconds)


class Tx(abc.ABC):
    """One open write transaction. Everything done through it commits together or not at all."""

    dialect: str

    @abc.abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns the number of rows it changed."""

    @abc.abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    @abc.abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def insert(self, sql: str, params: Params = ()) -> int:
        """An ``INSERT`` into a table with an ``id`` key; returns the new row's id."""
        row = await self.fetchone(sql + " RETURNING id", params)
        assert row is not None
        return int(row[0])

    @abc.abstractmethod
    async def lock(self, key: str) -> None:
        """Serialize this transaction with every other one that locks ``key``, until it ends (a count
        then an insert, say). SQLite writers are serialized already; PostgreSQL takes an advisory lock."""


class Database(abc.ABC):
    """Reads see only committed data; writes go through ``transaction()``."""

    dialect: str

    @staticmethod
    async def open(target: str | Path) -> Database:
        """``postgresql://…`` opens PostgreSQL; anything else is a SQLite file path. Migrates on open."""
        text = str(target)
        if text.startswith(("postgres://", "postgresql://")):
            from data.postgres import PostgresDatabase  # asyncpg is imported only when used

            return await PostgresDatabase.connect(text)
        return await SqliteDatabase.connect(Path(target))

    @abc.abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction; any exception rolls everything back. May raise ``Busy``."""

    @abc.abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    @abc.abstractmethod
    async def close(self) -> None: ...


def migration_files(folder: Path) -> list[tuple[int, Path]]:
    """Numbered ``NNN_name.sql`` files, in order."""
    return sorted((int(f.name[:3]), f) for f in folder.glob("[0-9][0-9][0-9]_*.sql"))


class SqliteTx(Tx):
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


class SqliteDatabase(Database):
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
    async def connect(cls, path: Path) -> SqliteDatabase:
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
    async def transaction(self) -> AsyncIterator[Tx]:
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
                yield SqliteTx(self.conn, self.stats)
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
