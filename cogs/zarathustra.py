"""``/zarathustra``: sword and shield tiles for 2-4 players."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._ai import AI_CHOICES, AI_HELP
from cogs._game import GameCog
from cogs.correspondence import CLOCK_CHOICES

if TYPE_CHECKING:
    from bot import ZBot


class ZarathustraCog(GameCog, group_name="zarathustra", group_description="Zarathustra: sword and shield tiles"):
    game = "zarathustra"

    @app_commands.command(name="new", description="Challenge up to three players, or leave seats open")
    @app_commands.describe(opponent="Who you challenge", opponent2="A third player", opponent3="A fourth player",
                           open_seats="Seats anyone may join", board="Board size (default: by player count)",
                           skulls_if_destroyed="Skulls stand even when the last tile was destroyed",
                           ai=AI_HELP,
                           rated="Count this game for the leaderboards",
                           clock="Time per move (days) or a live clock per player")
    @app_commands.choices(board=[app_commands.Choice(name=f"{n}x{n}", value=n) for n in (5, 6, 7)])
    @app_commands.choices(clock=CLOCK_CHOICES, ai=AI_CHOICES)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  opponent2: discord.User | None = None, opponent3: discord.User | None = None,
                  open_seats: app_commands.Range[int, 0, 3] = 0, board: int | None = None,
                  skulls_if_destroyed: bool = False, rated: bool = True, clock: str = "none",
                  ai: str | None = None) -> None:
        if opponent is None and open_seats == 0:
            open_seats = 1
        options: dict[str, object] = {"skulls_if_destroyed": skulls_if_destroyed}
        if board is not None:
            options["board"] = board
        await self.start_challenge(interaction, opponents=[opponent, opponent2, opponent3], open_seats=open_seats,
                                   options=options, rated=rated, clock=clock, ai=ai)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZarathustraCog(bot))
