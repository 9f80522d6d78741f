"""Commands that belong to no single game, and the persistent lobby buttons."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from cogs._board_page import OpenBoardButton, PlayBoardButton
from cogs._buttons import DrawButton, MoveButton, MyViewButton, RematchButton
from cogs._errors import on_app_command_error
from cogs._lobby import LobbyButton

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from zbot import ZBot


class General(commands.Cog):
    def __init__(self, bot: ZBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The games this bot hosts and how to start one")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title="Board games on Discord",
                              description="Challenge someone with `/<game> new opponent:@them`, or leave the "
                                          "seats open for anyone to join. Each game gets its own thread; "
                                          "move there with `/<game> move` (autocomplete lists your legal moves).")
        for cls in engines.GAMES.values():
            first_line = cls.help.strip().splitlines()[0] if cls.help.strip() else ""
            embed.add_field(name=f"/{cls.name} · {cls.title}", value=f"{cls.player_count()}. {first_line}"[:1024],
                            inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ZBot) -> None:
    bot.add_dynamic_items(LobbyButton, MoveButton, MyViewButton, DrawButton, RematchButton, OpenBoardButton,
                          PlayBoardButton)
    bot.tree.error(on_app_command_error)
    await bot.add_cog(General(bot))
