"""Start-up checks of the database file, before anything connects: fail loudly, in one line, at once.

A corrupt, truncated, unreadable or read-only file, or one written by a newer version of the bot,
would otherwise surface as a traceback in the middle of start-up (or as "Something went wrong" on
every later write). ``check`` opens the file with the plain ``sqlite3`` module (no threads that
could keep a failing process alive) and raises ``StartupError`` with a sentence to print.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from pathlib import Path

from data.db import SQLITE_MIGRATIONS as MIGRATIONS

LOCK_WAIT = 2.0
"""Seconds to wait for another process's write lock before calling the file busy."""
CHECK_BUDGET = 0.5
"""Seconds SQLite's ``quick_check`` of every page may take (0.5 s checks about 12 MB, 3,000 games). A larger
file would make every start-up as slow as the whole history is long (7 s at 50,000 games), so the check is
interrupted then, and the file gets the checks that cost nothing: header, schema, no pages missing at its end."""
HEADER = 100


class StartupError(Exception):
    """The database cannot be used; the message says why and what to do, in one line."""


def latest_migration() -> int:
    return max((int(f.name[:3]) for f in MIGRATIONS.glob("[0-9][0-9][0-9]_*.sql")), default=0)


def _writable(path: Path) -> bool:
    """Write permission, also for root (who ignores permission bits): a file or folder marked read-only is
    meant to stay unchanged, so the bot refuses it rather than write through the operator's intent."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return os.access(path, os.W_OK) and bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def check(path: Path) -> None:
    """Raise ``StartupError`` unless ``path`` is (or can become) a healthy database of this version."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StartupError(f"cannot create the database folder {folder}: {error.strerror}") from None
    if not _writable(folder):
        raise StartupError(f"the database folder {folder} is read-only; SQLite needs to write its journal"
                           " files there (make it writable or set DATABASE_PATH elsewhere)")
    if not path.exists():
        return  # created and migrated on start
    if not os.access(path, os.R_OK) or not path.is_file():
        raise StartupError(f"cannot read the database file {path} (check its permissions)")
    if not _writable(path):
        raise StartupError(f"the database file {path} is read-only; every move would fail (make it writable)")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=LOCK_WAIT, isolation_level=None)
    except sqlite3.Error as error:
        raise StartupError(f"cannot open the database file {path}: {error}") from None
    try:
        _inspect(conn, path)
    except sqlite3.Error as error:
        text = str(error)
        if "locked" in text or "busy" in text:
            raise StartupError(f"the database file {path} is locked by another process (is the bot running"
                               " twice?)") from None
        raise StartupError(f"the database file {path} is damaged ({text}); restore it from a backup") from None
    finally:
        conn.close()


def _inspect(conn: sqlite3.Connection, path: Path) -> None:
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    ours = latest_migration()
    if version > ours:
        raise StartupError(f"the database file {path} was written by a newer version of the bot (schema"
                           f" {version}, this version knows up to {ours}); upgrade the bot or use another file")
    problems = page_problems(conn, path)
    if problems != ["ok"]:
        raise StartupError(f"the database file {path} is damaged ({'; '.join(problems)[:200]});"
                           " restore it from a backup")
    conn.execute("BEGIN IMMEDIATE")  # proves we can take the write lock (read-only mounts fail here)
    conn.execute("ROLLBACK")


def page_problems(conn: sqlite3.Connection, path: Path) -> list[str]:
    """``["ok"]`` or what is wrong: every page checked within ``CHECK_BUDGET``, else the cheap checks."""
    timer = threading.Timer(CHECK_BUDGET, conn.interrupt)
    timer.start()
    try:
        return [row[0] for row in conn.execute("PRAGMA quick_check(3)").fetchall()]
    except sqlite3.OperationalError as error:
        if "interrupted" not in str(error):
            raise
        return structure_problems(conn, path)
    finally:
        timer.cancel()


def structure_problems(conn: sqlite3.Connection, path: Path) -> list[str]:
    """``["ok"]``, or what is wrong with the file's header, schema or length (the cheap part of a check)."""
    with path.open("rb") as file:
        header = file.read(HEADER)
    if len(header) < HEADER or not header.startswith(b"SQLite format 3\x00"):
        return ["not an SQLite header"]
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if path.stat().st_size < pages * page_size:  # WAL frames only ever add to the length the header states
        return [f"the file ends before its last page ({path.stat().st_size} of {pages * page_size} bytes)"]
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    return ["ok"]
