"""Move an existing SQLite database into PostgreSQL:
``python -m data.sqlite_to_postgres SQLITE_PATH POSTGRES_URL``.

Both sides are first migrated to this version's schema (the same numbered migrations in each dialect),
so their tables match. Every table is copied, parents before children (foreign keys), in one
PostgreSQL transaction: a failed copy leaves the target as empty as it was. Identity sequences are
then set past the largest copied id, so new games get new ids. The target must be empty: copying
twice, or into a database the bot already uses, is refused.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg

from data.db import Database
from data.postgres import PostgresDatabase

BATCH = 5000
"""Rows per COPY: a few MB at a time, so a database of millions of moves never sits in memory at once."""
INTEGER_TYPES = {"smallint", "integer", "bigint"}
FLOAT_TYPES = {"double precision", "real", "numeric"}


class CopyError(Exception):
    """The copy cannot be done as asked; the message says why."""


def tables_in_order(conn: sqlite3.Connection) -> list[str]:
    """The SQLite tables, each after every table its foreign keys point to (then by name, for a stable order)."""
    names = sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                              " AND name NOT LIKE 'sqlite_%'"))
    parents = {name: {r[2] for r in conn.execute(f"PRAGMA foreign_key_list(\"{name}\")")} - {name} for name in names}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise CopyError(f"the foreign keys of {sorted(set(names) - set(ordered))} form a cycle")
        ordered += ready
    return ordered


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """SQLite stores what it is given; PostgreSQL's binary COPY wants each column's own Python type."""
    if pg_type in INTEGER_TYPES:
        def to_int(value: Any) -> Any:
            if value is None or isinstance(value, int):
                return value
            if isinstance(value, float) and value.is_integer():
                return int(value)
            return int(str(value))
        return to_int
    if pg_type in FLOAT_TYPES:
        return lambda value: None if value is None else float(value)
    return lambda value: None if value is None else str(value)


def _batches(conn: sqlite3.Connection, table: str, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
    names = ", ".join(f'"{c}"' for c in columns)
    cursor = conn.execute(f'SELECT {names} FROM "{table}" ORDER BY rowid')
    while batch := cursor.fetchmany(BATCH):
        yield batch


async def copy(sqlite_path: Path, url: str, *, log: Callable[[str], None] = print) -> dict[str, int]:
    """Copy every table; returns the rows copied per table. Raises ``CopyError`` when the target is not empty
    or its tables do not match."""
    if not sqlite_path.is_file():
        raise CopyError(f"no SQLite database at {sqlite_path}")
    await (await Database.open(sqlite_path)).close()  # migrate the source to this version's schema
    await (await PostgresDatabase.connect(url)).close()  # ... and the target
    source = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    target = await asyncpg.connect(url)
    copied: dict[str, int] = {}
    try:
        tables = tables_in_order(source)
        async with target.transaction():
            for table in tables:
                columns = [r[1] for r in source.execute(f'PRAGMA table_info("{table}")')]
                types = {r["column_name"]: r["data_type"] for r in await target.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND table_name = $1", table)}
                missing = [c for c in columns if c not in types]
                if missing:
                    raise CopyError(f"PostgreSQL's table {table} lacks the column(s) {', '.join(missing)}")
                if await target.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                    raise CopyError(f"the PostgreSQL database is not empty (table {table} has rows); copy into"
                                    " a new database")
                convert = [_converter(types[c]) for c in columns]
                count = 0
                for batch in _batches(source, table, columns):
                    rows = [tuple(f(v) for f, v in zip(convert, row, strict=True)) for row in batch]
                    await target.copy_records_to_table(table, records=rows, columns=columns)
                    count += len(rows)
                copied[table] = count
                log(f"{table}: {count} row(s)")
            for table, column in await target.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns"
                    " WHERE table_schema = 'public' AND is_identity = 'YES'"):
                await target.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
                    f' COALESCE(MAX("{column}"), 0) + 1, false) FROM "{table}"')
        await target.execute("ANALYZE")  # fresh planner statistics, or the copied tables plan as empty ones
    finally:
        source.close()
        await target.close()
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.sqlite_to_postgres",
                                     description="Copy the bot's SQLite database into an empty PostgreSQL database.")
    parser.add_argument("sqlite_path", type=Path, help="the SQLite file (DATABASE_PATH)")
    parser.add_argument("postgres_url", help="postgresql://user:password@host/database (DATABASE_URL)")
    args = parser.parse_args(argv)
    if not args.postgres_url.startswith(("postgres://", "postgresql://")):
        print("copy: the target must be a postgresql:// URL", file=sys.stderr)
        return 2
    try:
        copied = asyncio.run(copy(args.sqlite_path, args.postgres_url))
    except (CopyError, OSError, sqlite3.Error, asyncpg.PostgresError) as error:
        print(f"copy: {error}", file=sys.stderr)
        return 1
    print(f"copied {sum(copied.values())} row(s) in {len(copied)} table(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
