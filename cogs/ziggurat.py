"""``/ziggurat``: the dice race up the stepped pyramid, with teams and variants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._game import GameCog
from cogs._new import new_command

if TYPE_CHECKING:
    from zbot import ZBot


class ZigguratCog(GameCog, group_name="ziggurat", group_description="Ziggurat: a dice race up the pyramid"):
    game = "ziggurat"

    new = new_command("ziggurat", describe={
        "opponent2": "A third player (your partner in partners mode)",
        "mode": "standard, double (2 players, two colours each) or partners (4 players)"})

    @app_commands.command(name="rolls", description="Every roll of this game so far (checkable against the seed)")
    @app_commands.guild_only()
    async def rolls(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction, ("active", "finished"))
        rolls = await self.bot.host.boards.rolls(row.id)
        items = [f"{i + 1}: {r.removeprefix('roll ')}" for i, r in enumerate(rolls)]
        head = f"**Ziggurat** #{row.id} rolls: "
        shown = items
        while shown and len(head) + len(", ".join(shown)) > 1900:  # the newest rolls matter most: drop the oldest
            shown = shown[len(shown) // 10 + 1:]
        skipped = f"(the first {len(items) - len(shown)} are left out) … " if len(shown) < len(items) else ""
        await interaction.response.send_message(head + skipped + (", ".join(shown) or "no rolls yet"), ephemeral=True)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(ZigguratCog(bot))
