"""Backups of the SQLite database while the bot runs: ``python -m data.backup DIR [--keep N]``.

A backup is SQLite's online backup API (``sqlite3.Connection.backup``) copying every page in one step
inside one read transaction: in WAL mode writers go on meanwhile and the copy is the database as it was
at one commit, never half a move. It is written to a temporary name and renamed when complete, so a
crash leaves no half file among the backups; the oldest are then removed, keeping the newest ``keep``.

``python -m data.backup --restore FILE`` (the bot stopped) checks the backup's integrity and copies it over
the database (``DATABASE_PATH``, or ``--database``), the old file kept beside it as ``*.before-restore``.
For PostgreSQL use ``pg_dump`` (see the README); this module is for the SQLite file.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import time
from pathlib import Path

from data.db import DEFAULT_PATH

PREFIX = "zgames-"
SUFFIX = ".sqlite3"
KEEP = 7
"""Backups kept by default: a week of daily ones."""


class BackupError(Exception):
    """The backup or restore cannot be done as asked; the message says why."""


def backups(folder: Path) -> list[Path]:
    """The complete backups in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"{PREFIX}*{SUFFIX}") if p.is_file())


def newest_age(folder: Path, now: float | None = None) -> float | None:
    """Seconds since the newest backup in ``folder`` was made; None when there is none."""
    found = backups(folder)
    if not found:
        return None
    return (time.time() if now is None else now) - found[-1].stat().st_mtime


def backup(database: Path, folder: Path, keep: int = KEEP, now: float | None = None) -> Path:
    """A consistent copy of ``database`` in ``folder`` (named by the UTC time), then only the newest ``keep``."""
    if keep < 1:
        raise BackupError("keep at least 1 backup")
    if not database.is_file():
        raise BackupError(f"there is no database at {database}")
    folder.mkdir(parents=True, exist_ok=True)
    when = time.time() if now is None else now
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(when)) + f"-{int(when % 1 * 1e6):06d}"
    target = folder / f"{PREFIX}{stamp}{SUFFIX}"  # names sort by time
    if target.exists():
        raise BackupError(f"{target} exists already")
    partial = folder / f".{target.name}.partial"
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(database, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # all pages in one step: one read transaction, one consistent snapshot
            copy.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file, no -wal beside it
        finally:
            copy.close()
    finally:
        source.close()
    os.replace(partial, target)
    for old in backups(folder)[:-keep]:
        old.unlink(missing_ok=True)
    return target


def check(path: Path) -> None:
    """Refuse a file that is not a sound SQLite database of this bot."""
    try:
        conn = sqlite3.connect(path)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise BackupError(f"{path} is not a readable SQLite database: {error}") from None
    if not result or result[0] != "ok":
        raise BackupError(f"{path} fails SQLite's integrity check: {result[0] if result else '?'}")
    if "games" not in tables:
        raise BackupError(f"{path} is not a Z-Games database (it has no games table)")


def restore(backup_file: Path, database: Path) -> Path | None:
    """Put ``backup_file`` in place of ``database`` (the bot must be stopped); returns where the old file went."""
    if not backup_file.is_file():
        raise BackupError(f"there is no backup at {backup_file}")
    check(backup_file)
    kept = None
    if database.exists():
        kept = database.with_name(database.name + ".before-restore")
        shutil.move(database, kept)
        for extra in ("-wal", "-shm"):  # the old file's journal belongs to it, not to the backup
            side = database.with_name(database.name + extra)
            if side.exists():
                shutil.move(side, kept.with_name(kept.name + extra))
    database.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(backup_file)
    try:
        target = sqlite3.connect(database)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode = WAL")
        finally:
            target.close()
    finally:
        source.close()
    return kept


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m data.backup", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, help="where backups go")
    parser.add_argument("--keep", type=int, default=int(os.environ.get("BACKUP_KEEP") or KEEP),
                        help=f"backups to keep (default {KEEP}, or BACKUP_KEEP)")
    parser.add_argument("--database", type=Path, default=Path(os.environ.get("DATABASE_PATH") or DEFAULT_PATH),
                        help="the SQLite file (default DATABASE_PATH, or data/zgames.sqlite3)")
    parser.add_argument("--restore", type=Path, metavar="FILE", help="restore this backup (stop the bot first)")
    args = parser.parse_args(argv)
    try:
        if args.restore is not None:
            kept = restore(args.restore, args.database)
            print(f"restored {args.restore} to {args.database}" + (f"; the old file is {kept}" if kept else ""))
            return 0
        if args.folder is None:
            parser.error("give the folder for the backup, or --restore FILE")
        made = backup(args.database, args.folder, args.keep)
        print(f"backed up {args.database} to {made} ({made.stat().st_size:,} bytes)")
        return 0
    except (BackupError, sqlite3.Error, OSError) as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
