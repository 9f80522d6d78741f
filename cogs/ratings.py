"""``/leaderboard``, ``/profile`` and ``/season start``: read the boards the finish hook keeps.

Thin like the game cogs: parse the interaction, ask ``host.standings`` for the text and images, send them.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ai import AI_CHOICES
from cogs._names import fit_choices, names_for, printable
from host.play import bots
from host.ratings.standings import CHART_FILENAME, NameOf
from host.results import HostError

if TYPE_CHECKING:
    from zbot import ZBot


class Ratings(commands.Cog):
    season_group = app_commands.Group(name="season", description="Seasons of this server's leaderboards",
                                      guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ZBot) -> None:
        self.bot = bot

    def names(self, interaction: discord.Interaction) -> NameOf:
        """Server nickname, else the user's name, else the mention text."""
        return names_for(self.bot, interaction, lambda user_id: f"<@{user_id}>")

    # ----- commands ---------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="The top 20 players of a game, and your own place")
    @app_commands.describe(game="Which game", scope="This server (default) or every server",
                           season="A season number of this server (default: all-time)",
                           include_bots="Rank the bot's AI levels among the players (default: listed apart)")
    @app_commands.choices(scope=[app_commands.Choice(name="server", value="server"),
                                 app_commands.Choice(name="global", value="global")])
    @app_commands.rename(include_bots="bots")
    async def leaderboard(self, interaction: discord.Interaction, game: str, scope: str | None = None,
                          season: app_commands.Range[int, 1, 100_000] | None = None,
                          include_bots: bool = False) -> None:
        standings = self.bot.host.standings
        request = await standings.board_request(game, interaction.guild_id, scope, season)
        await interaction.response.defer(thinking=True)
        picture = await standings.leaderboard(
            request, interaction.user.id, include_bots=include_bots,
            server_name=interaction.guild.name if interaction.guild else "", name_of=self.names(interaction))
        await interaction.followup.send(picture.text, file=discord.File(io.BytesIO(picture.image),
                                                                        filename=picture.filename))

    @leaderboard.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        typed = current.lower()
        found = [app_commands.Choice(name=cls.title, value=name) for name, cls in self.bot.host.games.items()
                 if typed in name or typed in cls.title.lower()][:25]
        if not found:  # never an empty list without a reason; choosing it is refused by the host
            typed_shown = printable(current)[:40]
            found = [app_commands.Choice(name=f"No game matches “{typed_shown}”: clear the box to see them all",
                                         value="none")]
        return fit_choices(found)

    @app_commands.command(name="profile", description="Ratings, records and recent results of a player")
    @app_commands.describe(user="Whose profile (default: yours)", ai="The profile of one of the bot's AI levels")
    @app_commands.choices(ai=AI_CHOICES)
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None,
                      ai: str | None = None) -> None:
        who_id = bots.user_of(ai) if ai is not None else (user or interaction.user).id
        if ai is None and user is not None and user.bot:
            if self.bot.user is not None and user.id == self.bot.user.id:
                raise HostError("I play as three AI levels, each rated on its own: use `/profile ai:` with a level.")
            raise HostError("Other bots play no games here, so they have no profile.")
        await interaction.response.defer(thinking=True)
        page = await self.bot.host.standings.profile(who_id, interaction.guild_id, self.names(interaction))
        embed = discord.Embed(title=page.title, description=page.description)
        for item in page.fields:
            embed.add_field(name=item.name, value=item.value, inline=item.inline)
        if page.footer:
            embed.set_footer(text=page.footer)
        if page.chart is None:
            await interaction.followup.send(embed=embed)
            return
        embed.set_image(url=f"attachment://{CHART_FILENAME}")
        await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(page.chart),
                                                                       filename=CHART_FILENAME))

    @season_group.command(name="start", description="Start a new season: fresh season boards, all-time stays")
    @app_commands.describe(season="The number of the season to begin (needed within a day of the last start)")
    async def season_start(self, interaction: discord.Interaction,
                           season: app_commands.Range[int, 2, 100_000] | None = None) -> None:
        text = await self.bot.host.standings.start_season(interaction.guild_id, interaction.user.id,
                                                          interaction.permissions, season)
        await interaction.response.send_message(text)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(Ratings(bot))
