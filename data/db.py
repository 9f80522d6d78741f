"""The SQLite connection: WAL, foreign keys, numbered migrations, and serialized write transactions."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_PATH = Path(__file__).with_name("zgames.sqlite3")
log = logging.getLogger(__name__)
WRITE_WAIT = 1.0
"""Seconds a write waits for our own lock, and again for SQLite's (another process): a move refused as
busy within 2 s beats one that fails after Discord's 3 s deadline."""


class Busy(Exception):
    """The database stayed locked by another writer; the user should simply try again."""

    def __str__(self) -> str:
        return "The bot is busy right now; please try again in a moment."


class StaleVersion(Exception):
    """Someone else changed the game between our read and our write."""


class Database:
    """A writing connection and a reading one. Writes take a lock so two coroutines never share a
    transaction; reads go through their own connection, so they see only committed data (WAL), never
    a transaction that may still roll back."""

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection | None = None) -> None:
        self.conn = conn
        self.reader = reader or conn
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        path = Path(path)
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
        """Apply every numbered ``migrations/NNN_*.sql`` above ``PRAGMA user_version``, each atomically."""
        async with self.conn.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        current = int(row[0]) if row else 0
        for file in sorted(MIGRATIONS.glob("[0-9][0-9][0-9]_*.sql")):
            number = int(file.name[:3])
            if number <= current:
                continue
            log.info("applying migration %s", file.name)
            statements = f"BEGIN IMMEDIATE;\n{file.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
            try:
                await self.conn.executescript(statements)
            except Exception:
                await self.conn.execute("ROLLBACK")
                raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back. Raises ``Busy`` when
        another writer (a coroutine, or another process) holds the lock for longer than ``WRITE_WAIT``."""
        started = time.monotonic()
        try:
            await asyncio.wait_for(self._write_lock.acquire(), WRITE_WAIT)
        except TimeoutError:
            log.warning("write refused: our write lock was held for %.1f s", time.monotonic() - started)
            raise Busy() from None
        try:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if "locked" in str(error) or "busy" in str(error):
                    log.warning("write refused: the database is locked by another writer")
                    raise Busy() from None
                raise
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")
        finally:
            self._write_lock.release()

    async def fetchone(self, sql: str, params: tuple[object, ...] = ()) -> aiosqlite.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        """Execute and fetch in one step on the reader's thread. Separate steps let another coroutine's
        read run while this statement is still open, inside its older snapshot: it would miss a write
        committed just before it (a game created a moment ago)."""
        return list(await self.reader.execute_fetchall(sql, params))
