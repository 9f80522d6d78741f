"""``/zrtz``: ZÈRTZ, marbles on a shrinking board of rings, and boardspace.net record import."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._game import GameCog
from cogs._new import new_command
from cogs._tasks import stop_task
from cogs.records import RecordCommands
from host import offload

if TYPE_CHECKING:
    from zbot import ZBot


class ZrtzCog(GameCog, group_name="zrtz", group_description="ZÈRTZ: marbles on a shrinking board of rings"):
    game = "zrtz"

    async def cog_load(self) -> None:
        """Start the import worker's fork server in the background, so the first import is not slower."""
        self.warming = asyncio.create_task(offload.warm(), name="zgames-warm-import")

    async def cog_unload(self) -> None:
        """The import worker goes with the bot (it would also exit on its own once its stdin closes)."""
        await stop_task(self.warming)
        await offload.stop()

    new = new_command("zrtz", labels={"rings": lambda n: f"{n} rings"})

    @app_commands.command(name="import", description="Replay a record: boardspace.net SGF, or our JSON or text export")
    @app_commands.describe(record="The .sgf, .json or .txt file", move="Show this move first (default: the last)")
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment,
                            move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        await RecordCommands.import_record.callback(self, interaction, record, move)  # type: ignore[arg-type]


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZrtzCog(bot))
