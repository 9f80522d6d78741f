"""The daily database backup when ``BACKUP_DIR`` is set (SQLite only; PostgreSQL has ``pg_dump``, see README)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from cogs._tasks import stop_loop
from host.backups import DailyBackup

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
CHECK_SECONDS = 600.0
"""How often the loop looks whether a backup is due (the folder says when the last one was made)."""


class Backups(commands.Cog):
    def __init__(self, bot: ZBot, daily: DailyBackup) -> None:
        self.bot = bot
        self.daily = daily

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        await stop_loop(self.loop)

    @tasks.loop(seconds=CHECK_SECONDS)
    async def loop(self) -> None:
        try:
            await self.daily.run_if_due()
        except Exception:  # a full disk or a bad folder must not stop the loop; said in the log every time
            log.exception("the daily backup failed")


async def setup(bot: ZBot) -> None:
    folder = bot.config.backup_dir
    if folder is None:
        return
    if bot.config.database_url is not None:
        log.warning("BACKUP_DIR backs up a SQLite file; with PostgreSQL use pg_dump (see the README)")
        return
    await bot.add_cog(Backups(bot, DailyBackup(bot.config.database_path, folder, bot.config.backup_keep)))
