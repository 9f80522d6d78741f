"""A real, throwaway PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` in a temporary directory,
listening only on a unix socket there. One server per test session (per pytest-xdist worker: its folder
comes from ``mkdtemp`` and it has no port, so workers never share one); each test gets a database as fresh
as a migrated template (a used one emptied again, or a new copy), so tests stay independent and cheap.

The server refuses to run as root, so as root it runs as the ``postgres`` user (Debian's package
creates it). ``make test`` installs the package when no ``initdb`` is found; without it these tests fail,
never skip.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from data.postgres import migrate

TEMPLATE = "zgames_template"


def pg_binary(name: str) -> str:
    """``name`` on PATH, else in the newest /usr/lib/postgresql/N/bin (Debian keeps them off PATH)."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not versions:
        raise RuntimeError(f"PostgreSQL's {name} was not found: run `make test`, which installs Debian's "
                           "postgresql package, or `apt-get install postgresql`")
    return versions[-1]


class PgServer:
    """One PostgreSQL cluster in ``root``: data in ``root/data``, the socket in ``root`` itself."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="zpg-"))
        self.names = itertools.count(1)
        self.spare: list[str] = []
        self.watchdog: subprocess.Popen[bytes] | None = None
        self.strategy = ""
        self.schema: tuple[list[str], list[int]] = ([], [])
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self.as_user = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.root / "server.log"
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}"
                               + (log.read_text() if log.exists() else ""))

    def start(self) -> None:
        """A cluster tuned for tests: no fsync, no network, enough connections for several pools, no autovacuum
        (its ANALYZE at a random moment made the plans tests/data/test_indexed_lookups.py reads differ run to run)."""
        data = self.root / "data"
        self._run(pg_binary("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                  "--locale=C", "--no-sync", "--no-instructions")
        options = (f"-k {self.root} -c listen_addresses='' -F -c full_page_writes=off -c synchronous_commit=off"
                   " -c max_connections=200 -c shared_buffers=32MB -c autovacuum=off")
        self._run(pg_binary("pg_ctl"), "-D", str(data), "-l", str(self.root / "server.log"), "-w", "-t", "60",
                  "-o", options, "start")
        self._watch()
        with ThreadPoolExecutor(1) as thread:  # its own event loop: the caller's may be running already
            thread.submit(asyncio.run, self._make_template()).result()

    def _watch(self) -> None:
        """A watchdog that stops the server and removes its folder if the test process dies without
        cleaning up (killed by a timeout, say), so no orphaned server outlives the tests."""
        ctl = " ".join([*self.as_user, pg_binary("pg_ctl")])
        script = (f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 2; done;"
                  f" {ctl} -D {self.root}/data -m immediate -w stop >/dev/null 2>&1; rm -rf {self.root}")
        self.watchdog = subprocess.Popen(["sh", "-c", script], start_new_session=True,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self) -> None:
        if self.watchdog is not None:
            self.watchdog.kill()
            self.watchdog.wait()
        try:
            self._run(pg_binary("pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    async def _make_template(self) -> None:
        """Migrate once into the template; every test's database starts as a copy of it."""
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
            # FILE_COPY (PostgreSQL 15+) copies the files: 30 ms, against 170 ms for the default WAL_LOG
            self.strategy = " STRATEGY FILE_COPY" if admin.get_server_version().major >= 15 else ""
        finally:
            await admin.close()
        await migrate(self.url(TEMPLATE))
        conn = await asyncpg.connect(self.url(TEMPLATE))
        try:
            self.schema = await _schema(conn)
        finally:
            await conn.close()

    @asynccontextmanager
    async def fresh_database(self, *, migrated: bool = True) -> AsyncIterator[str]:
        """A database for one test, as the migrated template (or empty): a used one emptied again, else a new
        copy. Emptying takes milliseconds where creating one takes a checkpoint (about 0.2 s)."""
        name = None
        while migrated and self.spare and name is None:
            name = await self._emptied(self.spare.pop())
        if name is None:
            name = f"t{next(self.names)}"
            await self._admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE if migrated else 'template0'}"
                              + self.strategy)
        try:
            yield self.url(name)
        finally:
            if migrated:
                self.spare.append(name)

    async def _admin(self, sql: str) -> None:
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(sql)
        finally:
            await admin.close()

    async def _emptied(self, name: str) -> str | None:
        """Delete every row and restart every identity; a database whose schema a test changed (tables or
        schema version unlike the template's) is dropped instead, and None returned."""
        conn = await asyncpg.connect(self.url(name))
        try:
            if await _schema(conn) != self.schema:
                await conn.close()
                await self._admin(f"DROP DATABASE {name} WITH (FORCE)")
                return None
            await conn.execute("SET session_replication_role = replica")  # no foreign-key checks: any order
            tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                                      " AND tablename <> 'schema_version'")
            sequences = await conn.fetch("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")
            await conn.execute("".join(f'DELETE FROM "{t[0]}";' for t in tables)
                               + "".join(f"SELECT setval('\"{s[0]}\"', 1, false);" for s in sequences))
            return name
        finally:
            await conn.close()


async def _schema(conn: asyncpg.Connection) -> tuple[list[str], list[int]]:
    """What a test could have changed: the tables and the applied migrations."""
    tables = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
    versions = await conn.fetch("SELECT version FROM schema_version ORDER BY 1")
    return [t[0] for t in tables], [v[0] for v in versions]
