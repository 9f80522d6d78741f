"""``/zaic``: stacking tiles inside a floating 8x8 area."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._ai import AI_CHOICES, AI_HELP
from cogs._game import GameCog
from cogs.correspondence import CLOCK_CHOICES

if TYPE_CHECKING:
    from bot import ZBot


class ZaicCog(GameCog, group_name="zaic", group_description="Zaic: stack tiles inside a floating 8x8 area"):
    game = "zaic"

    @app_commands.command(name="new", description="Challenge a player, or leave the seat open")
    @app_commands.describe(opponent="Who you challenge (empty: anyone may join)",
                           diagonal_touch="Corner contact with your own colour also counts as touching",
                           ai=AI_HELP,
                           rated="Count this game for the leaderboards",
                           clock="Time per move (days) or a live clock per player")
    @app_commands.choices(clock=CLOCK_CHOICES, ai=AI_CHOICES)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  diagonal_touch: bool = False, rated: bool = True, clock: str = "none", ai: str | None = None) -> None:
        await self.start_challenge(interaction, opponents=[opponent], open_seats=0 if opponent else 1,
                                   options={"diagonal_touch": diagonal_touch}, rated=rated, clock=clock, ai=ai)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZaicCog(bot))
