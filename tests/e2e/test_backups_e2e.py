"""With ``BACKUP_DIR`` set, the running bot backs its database up (the first one at start, then daily)."""

from __future__ import annotations

import dataclasses
import sqlite3

from data import backup
from tests.e2e.conftest import BotHarness
from tests.fakediscord import running_bot
from zbot import create_bot


async def test_the_bot_backs_up_its_database_when_backup_dir_is_set(harness: BotHarness) -> None:
    folder = harness.database_path.parent / "backups"
    config = dataclasses.replace(harness.make_bot().config, backup_dir=folder, backup_keep=3)
    async with running_bot(harness.fake, create_bot(config)):
        await harness.fake.slash("alice", "zaic new", {"opponent": "bob"})
        await harness.fake.wait_until(lambda: len(backup.backups(folder)) == 1, what="the first backup")
    with sqlite3.connect(backup.backups(folder)[0]) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
