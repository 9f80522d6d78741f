"""The PostgreSQL backend: the shared store when several bot processes run over one database.

Repositories write SQL once with ``?`` placeholders; this module numbers them (``$1``, ``$2`` ...) and
runs them through an asyncpg pool. Transactions run at READ COMMITTED: the version-checked
``UPDATE games ... WHERE id = ? AND version = ?`` waits for a concurrent writer of the same row, then
re-reads it and changes nothing, so exactly one of two concurrent moves applies, as on SQLite.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from data.db import MIGRATIONS, QUEUE_WAIT, WRITE_WAIT, Busy, Database, Params, Row, Tx, migration_files
from data.preflight import StartupError

POSTGRES_MIGRATIONS = MIGRATIONS / "postgres"
MIGRATION_LOCK = "zgames-migrations"
POOL_SIZE = 10
BUSY_STATES = {"55P03", "40001", "40P01", "57014"}
"""lock_not_available (lock_timeout), serialization_failure, deadlock_detected, query_canceled
(statement_timeout): another writer held what we needed; the user should try again."""
log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """``?`` placeholders as ``$1..$n``, leaving string literals, quoted names and comments untouched."""
    out: list[str] = []
    count = 0
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = i + 1
            while end < n:
                if sql[end] == char:
                    if end + 1 < n and sql[end + 1] == char:  # a doubled quote is an escaped quote
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i:end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(sql[i:end])
            i = end
        elif char == "?":
            count += 1
            out.append(f"${count}")
            i += 1
        else:
            out.append(char)
            i += 1
    return "".join(out)


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer version of the bot; running this one could damage it."""


def lock_id(key: str) -> int:
    """A stable signed 64-bit number for an advisory lock key (Python's ``hash`` differs per process)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True)


def rowcount(status: str) -> int:
    """The affected rows from asyncpg's status tag: ``UPDATE 3``, ``INSERT 0 1``, ``DELETE 0``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def is_busy(error: BaseException) -> bool:
    return isinstance(error, asyncpg.PostgresError) and getattr(error, "sqlstate", None) in BUSY_STATES


class PostgresTx(Tx):
    dialect = "postgres"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Params = ()) -> int:
        return rowcount(await self.conn.execute(numbered(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self.conn.executemany(numbered(sql), batch)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))

    async def lock(self, key: str) -> None:
        """An advisory lock held until the transaction ends; waiting longer than ``lock_timeout`` is Busy."""
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", lock_id(key))


class PooledConnection(asyncpg.Connection):  # type: ignore[misc]
    """A pool connection released without asyncpg's reset statement (``pg_advisory_unlock_all(); CLOSE ALL;
    UNLISTEN *; RESET ALL``): one round trip after every read and every transaction, a third of a move's
    statements. Nothing here leaves session state behind: advisory locks are transaction-scoped
    (``pg_advisory_xact_lock``), no cursor outlives its transaction, nothing listens, and settings are
    given at connect (``server_settings``), never ``SET``. asyncpg still rolls back an open transaction."""

    def get_reset_query(self) -> str:
        return ""


class PostgresDatabase(Database):
    """A pool of connections. Each transaction holds one connection from ``BEGIN`` to ``COMMIT``; reads
    take any free one and see only committed data."""

    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool, url: str | None = None) -> None:
        self.pool = pool
        self.url = url
        """Where the pool connects: a listener (data/changes.py) opens its own connection there."""

    @classmethod
    async def connect(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresDatabase:
        """Migrate, then open the pool. Waiting for a lock longer than ``WRITE_WAIT`` makes a write Busy."""
        await migrate(url)
        pool = await asyncpg.create_pool(
            url, min_size=min(2, pool_size), max_size=pool_size, connection_class=PooledConnection,
            server_settings={"lock_timeout": f"{int(WRITE_WAIT * 1000)}ms", "application_name": "zgames"})
        return cls(pool, url)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self, *, heavy: bool = False) -> AsyncIterator[Tx]:
        """``BEGIN`` ... ``COMMIT`` on one pooled connection; any exception rolls back. Lock waits past
        ``lock_timeout``, serialization failures and deadlocks are raised as ``Busy``. The pool is the writer
        queue: a burst waits for a free connection (up to ``QUEUE_WAIT``) rather than being refused. ``heavy``
        changes nothing here: the statements already run in the server, not on the event loop."""
        async with self._writer() as conn:
            async with conn.transaction():
                yield PostgresTx(conn)

    async def write(self, sql: str, params: Params = ()) -> list[Row]:
        """The statement alone, in the transaction PostgreSQL gives every statement sent outside one: no
        ``BEGIN`` and ``COMMIT`` round trips; refused as ``Busy`` on the same terms as ``transaction``."""
        async with self._writer() as conn:
            return list(await conn.fetch(numbered(sql), *params))

    @asynccontextmanager
    async def _writer(self) -> AsyncIterator[asyncpg.Connection]:
        """A pooled connection for a write: waiting for one past ``QUEUE_WAIT``, and the server's lock waits,
        serialization failures and deadlocks, are ``Busy``."""
        started = time.monotonic()
        try:
            conn = await self.pool.acquire(timeout=QUEUE_WAIT)
        except TimeoutError:
            log.warning("write refused: no free connection for %.1f s", time.monotonic() - started)
            raise Busy() from None
        try:
            try:
                yield conn
            except asyncpg.PostgresError as error:
                if is_busy(error):
                    log.warning("write refused: %s", error)
                    raise Busy() from error
                raise
        finally:
            await self.pool.release(conn)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.pool.fetch(numbered(sql), *params))


async def migrate(url: str, folder: Path = POSTGRES_MIGRATIONS) -> int:
    """Apply every numbered migration above the newest in ``schema_version``, each in its own transaction,
    holding a session advisory lock so two processes starting at once migrate one after the other (the
    second then finds nothing left to do). Returns the schema version."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("SET lock_timeout = 0")
        await conn.execute("SELECT pg_advisory_lock($1)", lock_id(MIGRATION_LOCK))
        try:
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY,"
                               " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
            current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            files = migration_files(folder)
            ours = files[-1][0] if files else 0
            if current > ours:
                raise SchemaTooNew(f"the database was written by a newer version of the bot (schema {current},"
                                   f" this version knows up to {ours}); upgrade the bot or use another database")
            for number, file in files:
                if number <= current:
                    continue
                log.info("applying migration %s", file.name)
                async with conn.transaction():
                    await conn.execute(file.read_text())
                    await conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                                       number, file.name, time.time())
                current = number
            return int(current)
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", lock_id(MIGRATION_LOCK))
    finally:
        await conn.close()


async def check(url: str, *, timeout: float = 5.0) -> None:
    """Start-up check, before the bot logs in: the server answers and its schema is not newer than this
    version's. Raises ``StartupError`` with one line (never the URL: it may hold a password)."""
    try:
        conn = await asyncpg.connect(url, timeout=timeout)
    except Exception as error:  # OSError, a timeout, a refused login, a malformed URL: all say the same
        raise StartupError(f"cannot connect to the PostgreSQL database in DATABASE_URL"
                           f" ({type(error).__name__}: {error})") from None
    try:
        exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        current = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version") if exists else 0
    finally:
        await conn.close()
    files = migration_files(POSTGRES_MIGRATIONS)
    ours = files[-1][0] if files else 0
    if current > ours:
        raise StartupError(f"the PostgreSQL database was written by a newer version of the bot (schema {current},"
                           f" this version knows up to {ours}); upgrade the bot or use another database")
