"""The daily backup: due when the folder's newest backup is a day old, whatever restarts happened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data import backup
from host.backups import DailyBackup


async def test_one_backup_a_day_counted_from_the_folder(tmp_path: Path) -> None:
    live, folder = tmp_path / "live.sqlite3", tmp_path / "b"
    with sqlite3.connect(live) as conn:
        conn.execute("CREATE TABLE games (id INTEGER)")
    def after(seconds: float) -> float:  # seconds after the newest backup was written
        return backup.backups(folder)[-1].stat().st_mtime + seconds

    daily = DailyBackup(live, folder, keep=2)
    assert await daily.run_if_due() is not None  # none yet: one at once
    daily.clock = lambda: after(3600)
    assert await daily.run_if_due() is None
    restarted = DailyBackup(live, folder, keep=2, clock=lambda: after(23 * 3600))  # a restart takes none
    assert await restarted.run_if_due() is None
    restarted.clock = lambda: after(86400)
    assert await restarted.run_if_due() is not None
    restarted.clock = lambda: after(86400)
    assert await restarted.run_if_due() is not None
    assert len(backup.backups(folder)) == 2
