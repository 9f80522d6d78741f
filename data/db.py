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
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
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
LOOP_ROWS = 50
"""An ``executemany`` of more rows than this runs in a thread (a bulk import), not on the event loop."""
SLOW_ON_LOOP = 0.05
"""Seconds a statement on the event loop may take before it is logged (it should be ``heavy``)."""
CHECKPOINT_EVERY = 1.0
"""Seconds after a commit that the WAL is checkpointed, in a thread (the writer never does it itself)."""
CHECKPOINT_WAIT = 200
"""Milliseconds the truncating checkpoint waits for readers to finish while it holds the writer queue."""
WAL_PAGES = 1000
"""Pages in the WAL (4 MB; SQLite's own automatic checkpoint is at 1000) past which a checkpoint truncates it."""
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
    checkpoints: int = 0
    wal_resets: int = 0
    """Checkpoints that held the writer queue to truncate the WAL."""
    on_loop: deque[float] = field(default_factory=lambda: deque(maxlen=WriteStats.SAMPLES))
    """Seconds each statement run on the event loop's thread took (none when every statement is a trip)."""
    on_loop_cpu: deque[float] = field(default_factory=lambda: deque(maxlen=WriteStats.SAMPLES))
    """The same statements' CPU seconds (the thread's): on a loaded machine the wall time above includes the
    time the thread was not running at all."""
    texts: dict[str, int] | None = None
    """When a bench sets it to ``{}``: every statement counted by its text."""

    def said(self, sql: str) -> None:
        self.statements += 1
        if self.texts is not None:
            text = " ".join(sql.split())[:90]
            self.texts[text] = self.texts.get(text, 0) + 1

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
    def transaction(self, *, heavy: bool = False) -> AbstractAsyncContextManager[Tx]:
        """A write transaction; any exception rolls everything back. May raise ``Busy``. ``heavy``: its
        statements may each take long (a purge, a recount); SQLite then runs them off the event loop."""

    @abc.abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def write(self, sql: str, params: Params = ()) -> list[Row]:
        """One statement that writes, all of it or nothing, and its rows: a transaction of its own, with the
        refusals of ``transaction()`` (``Busy``). PostgreSQL runs it without ``BEGIN`` and ``COMMIT`` (a
        statement is atomic by itself): one round trip instead of three."""
        async with self.transaction() as tx:
            return await tx.fetchall(sql, params)

    @abc.abstractmethod
    async def close(self) -> None: ...


def migration_files(folder: Path) -> list[tuple[int, Path]]:
    """Numbered ``NNN_name.sql`` files, in order."""
    return sorted((int(f.name[:3]), f) for f in folder.glob("[0-9][0-9][0-9]_*.sql"))


class SqliteTx(Tx):
    """Statements run on the event loop's own thread, each in microseconds: the writer is in WAL with
    ``synchronous = NORMAL`` (a commit appends to the WAL, no fsync) and never checkpoints itself. A trip to
    another thread per statement cost more than the statement, and each waited for a turn of a busy loop
    while the write lock was held. Only work that may be long goes to a thread (``heavy``, big ``executemany``)."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, stats: WriteStats, heavy: bool = False) -> None:
        self.conn = conn
        self.stats = stats
        self.heavy = heavy

    async def execute(self, sql: str, params: Params = ()) -> int:
        return int(await self._run(sql, lambda: self.conn.execute(sql, tuple(params)).rowcount))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(r) for r in rows]
        # closed in its thread: a cursor handed back was freed later by the worker thread, while the next
        # statement ran on the connection in another thread ("bad parameter or other API misuse" now and then)
        await self._run(sql, lambda: self.conn.executemany(sql, batch).close(),
                        heavy=self.heavy or len(batch) > LOOP_ROWS)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._run(sql, lambda: self.conn.execute(sql, tuple(params)).fetchall()))

    async def lock(self, key: str) -> None:
        """``BEGIN IMMEDIATE`` already holds the only write lock."""

    async def _run(self, sql: str, step: Callable[[], Any], heavy: bool | None = None) -> Any:
        self.stats.said(sql)
        if self.heavy if heavy is None else heavy:
            self.stats.trips += 1
            return await off_loop(step)
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return step()
        finally:
            took = time.perf_counter() - started
            self.stats.on_loop.append(took)
            self.stats.on_loop_cpu.append(time.thread_time() - cpu)
            if took > SLOW_ON_LOOP:
                log.warning("a write statement held the event loop %.0f ms (make its transaction heavy): %.80s",
                            took * 1000, " ".join(sql.split()))


async def off_loop(step: Callable[[], Any]) -> Any:
    """``step()`` in a thread, waited for to its end even if the caller is cancelled meanwhile (then re-raised):
    the writer's connection must be free again before anything else (a ROLLBACK) uses it."""
    future = asyncio.ensure_future(asyncio.to_thread(step))
    cancelled = False
    while not future.done():
        try:
            await asyncio.shield(future)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError()
    return future.result()


class SqliteDatabase(Database):
    """A writing connection used on the event loop's thread and a reading one on aiosqlite's thread. Writes
    take a lock (the process's writer queue) so two coroutines never share a transaction; reads go through
    their own connection, so they see only committed data (WAL), never a transaction that may still roll
    back. The WAL is checkpointed ``CHECKPOINT_EVERY`` after a commit, on a third connection in a thread, so
    the loop never waits for a checkpoint's fsync (and a commit only for the truncating one every ``WAL_PAGES``)."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, reader: aiosqlite.Connection, path: Path) -> None:
        self.conn = conn
        self.reader = reader
        self.path = path
        self._write_lock = asyncio.Lock()
        self.stats = WriteStats()
        self._checkpoint_due: asyncio.TimerHandle | None = None
        self._checkpointing: asyncio.Future[Any] | None = None
        self._checkpointer: sqlite3.Connection | None = None

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = await asyncio.to_thread(writer_connection, path)
        try:
            await asyncio.to_thread(migrate, conn)
        except BaseException:
            await asyncio.to_thread(conn.close)
            raise
        conn.execute("PRAGMA busy_timeout = 0")  # from here on a lock held elsewhere is waited for on the loop
        reader = await aiosqlite.connect(path, isolation_level=None)
        reader.row_factory = aiosqlite.Row
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute("PRAGMA foreign_keys = ON")
        await reader.execute("PRAGMA busy_timeout = 5000")
        return cls(conn, reader, path)

    async def close(self) -> None:
        if self._checkpoint_due is not None:
            self._checkpoint_due.cancel()
        if self._checkpointing is not None:
            await asyncio.wait({self._checkpointing})
        await self.reader.close()
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.close)
        async with self._write_lock:  # a writer still inside its transaction finishes first
            await asyncio.to_thread(self.conn.close)  # the last connection checkpoints the WAL: not on the loop

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
            await self._begin()
            try:
                yield SqliteTx(self.conn, self.stats, heavy)
            except BaseException:
                self._end("ROLLBACK")
                raise
            try:
                self._end("COMMIT")
            except sqlite3.Error as error:  # a deferred constraint, a lock: the transaction is still open
                self._end("ROLLBACK")
                if "locked" in str(error) or "busy" in str(error):
                    log.warning("write refused: its commit found the database locked")
                    raise Busy() from None
                raise
            self._committed()
        finally:
            self.stats.held(time.perf_counter() - locked)
            self._write_lock.release()

    async def _begin(self) -> None:
        """``BEGIN IMMEDIATE`` on the loop; while another process holds the lock, try again after short sleeps
        (the loop goes on meanwhile) and refuse as ``Busy`` after ``WRITE_WAIT``."""
        deadline, pause = time.monotonic() + WRITE_WAIT, 0.002
        while True:
            try:
                self._end("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                if time.monotonic() + pause > deadline:
                    log.warning("write refused: the database is locked by another writer")
                    raise Busy() from None
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.05)

    def _end(self, sql: str) -> None:
        """BEGIN, COMMIT or ROLLBACK: microseconds, and no await, so a cancellation never splits one."""
        if sql == "ROLLBACK" and not self.conn.in_transaction:
            return
        self.stats.said(sql)
        self.conn.execute(sql)

    def _committed(self) -> None:
        """A checkpoint ``CHECKPOINT_EVERY`` from the first commit after the last one."""
        if self._checkpoint_due is None:
            self._checkpoint_due = asyncio.get_running_loop().call_later(CHECKPOINT_EVERY, self._checkpoint_soon)

    def _checkpoint_soon(self) -> None:
        self._checkpoint_due = None
        if self._checkpointing is not None and not self._checkpointing.done():
            self._committed()  # the one running may end before the newest commits: look again later
            return
        self._checkpointing = asyncio.ensure_future(self.checkpoint())

    async def checkpoint(self) -> None:
        """Copy the WAL into the database, in a thread on a connection of its own. A passive checkpoint never
        waits for the writer, but with writes going on it never catches up either, and SQLite starts the WAL
        over only after one that did: once the WAL holds ``WAL_PAGES``, one more passive one runs inside the
        writer queue (writers wait, the loop does not; no new frames come meanwhile) and, when it copied every
        frame, the WAL is truncated. When a reader holds frames back (a backup's long read) it cannot copy them
        all, and the writers do not wait for that reader."""
        try:
            _, frames, _copied = await off_loop(lambda: self._checkpoint_step("PASSIVE"))
            if frames < WAL_PAGES:
                return
            async with self._write_lock:
                _, frames, copied = await off_loop(lambda: self._checkpoint_step("PASSIVE"))
                if copied < frames:
                    return
                await off_loop(lambda: self._checkpoint_step("TRUNCATE"))
            self.stats.wal_resets += 1
        except sqlite3.Error:
            log.exception("a checkpoint of the WAL failed; the next commit schedules another")

    def _checkpoint_step(self, mode: str) -> tuple[int, int, int]:
        """``PRAGMA wal_checkpoint(mode)``: SQLite's (busy, frames in the WAL, frames copied)."""
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._checkpointer.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT}")  # for readers, in a thread
        row = self._checkpointer.execute(f"PRAGMA wal_checkpoint({mode})").fetchall()[0]  # all: no read left open
        self.stats.checkpoints += 1
        return int(row[0]), int(row[1]), int(row[2])

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        """Execute and fetch in one step on the reader's thread. Separate steps let another coroutine's
        read run while this statement is still open, inside its older snapshot: it would miss a write
        committed just before it (a game created a moment ago)."""
        return list(await self.reader.execute_fetchall(sql, tuple(params)))


def writer_connection(path: Path) -> sqlite3.Connection:
    """The writer's connection: WAL, ``synchronous = NORMAL``, no automatic checkpoint (``checkpoint`` does it
    off the loop). Used from the loop's thread, and from a thread for migrations and ``heavy`` work (never both
    at once: the write lock is held), so not tied to the thread that opened it."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA busy_timeout = {int(WRITE_WAIT * 1000)}")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    """Apply every numbered migration above ``PRAGMA user_version``, each atomically (call it in a thread: the
    connection waits up to ``WRITE_WAIT`` for another process's lock). When two processes start at once, the
    second one's copy of a migration fails inside its transaction and rolls back; it then finds the version
    already raised by the first, and goes on."""
    for number, file in migration_files(SQLITE_MIGRATIONS):
        if number <= user_version(conn):
            continue
        log.info("applying migration %s", file.name)
        script = f"BEGIN IMMEDIATE;\n{file.read_text()}\nPRAGMA user_version = {number};\nCOMMIT;"
        try:
            conn.executescript(script)
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if number > user_version(conn):
                raise


def user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0
