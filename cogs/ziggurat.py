"""``/ziggurat``: the dice race up the stepped pyramid, with teams and variants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._ai import AI_CHOICES, AI_HELP
from cogs._game import GameCog
from cogs.correspondence import CLOCK_CHOICES

if TYPE_CHECKING:
    from bot import ZBot


class ZigguratCog(GameCog, group_name="ziggurat", group_description="Ziggurat: a dice race up the pyramid"):
    game = "ziggurat"

    @app_commands.command(name="new", description="Challenge up to three players, or leave seats open")
    @app_commands.describe(opponent="Who you challenge", opponent2="A third player (your partner in partners mode)",
                           opponent3="A fourth player", open_seats="Seats anyone may join",
                           mode="standard, double (2 players, two colours each) or partners (4 players)",
                           queen="Queen Ziggurat: a Queen joins each colour", movement_die="d8, or d6 (+1)",
                           action_die="d8, or the six-sided Treehouse die", wild_redo="A Wild may be used as a Redo",
                           round_limit="After this many rounds the colour closest to home wins",
                           ai=AI_HELP,
                           rated="Count this game for the leaderboards",
                           clock="Time per move (days) or a live clock per player")
    @app_commands.choices(
        mode=[app_commands.Choice(name=m, value=m) for m in ("standard", "double", "partners")],
        movement_die=[app_commands.Choice(name=d, value=d) for d in ("d8", "d6")],
        action_die=[app_commands.Choice(name=d, value=d) for d in ("d8", "treehouse")],
        round_limit=[app_commands.Choice(name=str(n), value=n) for n in (30, 60, 100)])
    @app_commands.choices(clock=CLOCK_CHOICES, ai=AI_CHOICES)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, opponent: discord.User | None = None,
                  opponent2: discord.User | None = None, opponent3: discord.User | None = None,
                  open_seats: app_commands.Range[int, 0, 3] = 0, mode: str = "standard", queen: bool = False,
                  movement_die: str = "d8", action_die: str = "d8", wild_redo: bool = True,
                  round_limit: int = 100, rated: bool = True, clock: str = "none", ai: str | None = None) -> None:
        if opponent is None and open_seats == 0:
            open_seats = 1
        options = {"mode": mode, "queen": queen, "movement_die": movement_die, "action_die": action_die,
                   "wild_redo": wild_redo, "round_limit": round_limit}
        await self.start_challenge(interaction, opponents=[opponent, opponent2, opponent3], open_seats=open_seats,
                                   options=options, rated=rated, clock=clock, ai=ai)

    @app_commands.command(name="rolls", description="Every roll of this game so far (checkable against the seed)")
    @app_commands.guild_only()
    async def rolls(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction, ("active", "finished"))
        rolls = await self.bot.host.rolls(row.id)
        items = [f"{i + 1}: {r.removeprefix('roll ')}" for i, r in enumerate(rolls)]
        head = f"**Ziggurat** #{row.id} rolls: "
        shown = items
        while shown and len(head) + len(", ".join(shown)) > 1900:  # the newest rolls matter most: drop the oldest
            shown = shown[len(shown) // 10 + 1:]
        skipped = f"(the first {len(items) - len(shown)} are left out) … " if len(shown) < len(items) else ""
        await interaction.response.send_message(head + skipped + (", ".join(shown) or "no rolls yet"), ephemeral=True)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZigguratCog(bot))
