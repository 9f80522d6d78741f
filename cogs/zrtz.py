"""``/zrtz``: ZÈRTZ, marbles on a shrinking board of rings, and boardspace.net record import."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._ai import AI_CHOICES, AI_HELP
from cogs._game import GameCog
from cogs._limits import expensive
from cogs.correspondence import CLOCK_CHOICES
from cogs.records import RecordCommands
from host import offload

if TYPE_CHECKING:
    from bot import ZBot


class ZrtzCog(GameCog, group_name="zrtz", group_description="ZÈRTZ: marbles on a shrinking board of rings"):
    game = "zrtz"

    async def cog_load(self) -> None:
        """Start the import worker's fork server in the background, so the first import is not slower."""
        self.warming = asyncio.create_task(offload.warm(), name="zgames-warm-import")

    async def cog_unload(self) -> None:
        """The import worker goes with the bot (it would also exit on its own once its stdin closes)."""
        self.warming.cancel()
        await offload.stop()

    @app_commands.command(name="new", description="Challenge a player, or leave the seat open")
    @app_commands.describe(opponent="Who you challenge (empty: anyone may join)",
                           rings="Board: 37 rings, 48 (ZÈRTZ+11, tournament) or 61 (ZÈRTZ+24)",
                           blitz="Blitz (37 rings only): fewer marbles, lower goals",
                           ai=AI_HELP,
                           rated="Count this game for the leaderboards",
                           clock="Time per move (days) or a live clock per player")
    @app_commands.choices(rings=[app_commands.Choice(name=f"{n} rings", value=n) for n in (37, 48, 61)])
    @app_commands.choices(clock=CLOCK_CHOICES, ai=AI_CHOICES)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  rings: int = 37, blitz: bool = False, rated: bool = True, clock: str = "none",
                  ai: str | None = None) -> None:
        await self.start_challenge(interaction, opponents=[opponent], open_seats=0 if opponent else 1,
                                   options={"rings": rings, "blitz": blitz}, rated=rated, clock=clock, ai=ai)

    @app_commands.command(name="import", description="Replay a record: boardspace.net SGF, or our JSON or text export")
    @app_commands.describe(record="The .sgf, .json or .txt file", move="Show this move first (default: the last)")
    @expensive()
    async def import_record(self, interaction: discord.Interaction, record: discord.Attachment,
                            move: app_commands.Range[int, 0, 100000] | None = None) -> None:
        await RecordCommands.import_record.callback(self, interaction, record, move)  # type: ignore[arg-type]


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZrtzCog(bot))
