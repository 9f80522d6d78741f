"""The daily backup of the SQLite database (``BACKUP_DIR``), taken while the bot runs.

Whether one is due is read from the folder itself (its newest backup's age), so a restart neither skips a
day nor takes a second one. The copy (data/backup.py, SQLite's online backup API) runs in a thread: it
reads pages without holding the interpreter lock for long, and writers go on meanwhile (WAL).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from data import backup

log = logging.getLogger(__name__)
EVERY = 86400.0
"""Seconds between two backups."""


class DailyBackup:
    def __init__(self, database: Path, folder: Path, keep: int = backup.KEEP, every: float = EVERY,
                 clock: Callable[[], float] = time.time) -> None:
        self.database, self.folder, self.keep, self.every, self.clock = database, folder, keep, every, clock
        self.running = False

    def due(self) -> bool:
        age = backup.newest_age(self.folder, self.clock())
        return age is None or age >= self.every

    async def run_if_due(self) -> Path | None:
        """A new backup when the newest is a day old (or none exists); None when not due or already under way."""
        if self.running or not self.due():
            return None
        self.running = True
        try:
            made = await asyncio.to_thread(backup.backup, self.database, self.folder, self.keep)
        finally:
            self.running = False
        log.info("backed up the database to %s", made)
        return made
