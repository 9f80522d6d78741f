"""``/ladder show|join|leave|challenge|settings``: each server's correspondence ladder of each game.

Thin like the other cogs: parse the interaction, call the host's ladder service (``host/ladder/service.py``),
send what it returns. A challenge is posted like ``/<game> new``: a message with Accept and Decline.
The job runner (host/worker.py) runs the ladder's durable jobs (results, inactivity); a finished game's report
wakes it at once.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import engines
from cogs._delivery import MENTION_USERS
from cogs._lobby import lobby_text, lobby_view
from cogs._names import names_for
from host.ladder.service import CLOCKS, MAX_IDLE_DAYS, MAX_REACH
from host.results import HostError, Report

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
GAME_CHOICES = [app_commands.Choice(name=cls.title, value=name) for name, cls in sorted(engines.GAMES.items())]
CLOCK_CHOICES = [app_commands.Choice(name=f"{c[:-1]} day{'s' if c != '1d' else ''} per move", value=c)
                 for c in CLOCKS]


@app_commands.guild_only()
class Ladder(commands.GroupCog, group_name="ladder", group_description="This server's standing ladder of a game"):
    def __init__(self, bot: ZBot) -> None:
        self.bot = bot
        self.ladders = bot.host.ladders
        super().__init__()

    @commands.Cog.listener()
    async def on_game_report(self, report: Report) -> None:
        """A game just ended: its ladder result is due now, so the job runner looks without waiting for its poll."""
        if report.outcome is not None:
            self.bot.worker.wake()

    @app_commands.command(name="show", description="The ladder as a picture, and where you stand")
    @app_commands.describe(game="Which game's ladder", page="Players 33-64 are page 2, and so on")
    @app_commands.choices(game=GAME_CHOICES)
    async def show(self, interaction: discord.Interaction, game: str,
                   page: app_commands.Range[int, 1, 1000] = 1) -> None:
        await interaction.response.defer(thinking=True)
        picture = await self.ladders.show(interaction.guild_id, game, interaction.user.id,
                                          names_for(self.bot, interaction), page)
        await interaction.followup.send(picture.text, file=discord.File(io.BytesIO(picture.image),
                                                                        filename=picture.filename),
                                        allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="join", description="Join the ladder, at the bottom")
    @app_commands.describe(game="Which game's ladder")
    @app_commands.choices(game=GAME_CHOICES)
    async def join(self, interaction: discord.Interaction, game: str) -> None:
        text = await self.ladders.join(interaction.guild_id, game, interaction.user.id)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="leave", description="Leave the ladder (joining again starts at the bottom)")
    @app_commands.describe(game="Which game's ladder")
    @app_commands.choices(game=GAME_CHOICES)
    async def leave(self, interaction: discord.Interaction, game: str) -> None:
        text = await self.ladders.leave(interaction.guild_id, game, interaction.user.id)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="challenge", description="Challenge a player up to a few places above you")
    @app_commands.describe(game="Which game's ladder", opponent="A player above you on the ladder")
    @app_commands.choices(game=GAME_CHOICES)
    async def challenge(self, interaction: discord.Interaction, game: str, opponent: discord.User) -> None:
        if opponent.bot:
            raise HostError("Bots are not on the ladder: challenge a player above you.")
        if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
            raise HostError("Challenge in a server text channel (not a thread or DM): each game gets its own thread.")
        lobby = await self.ladders.challenge(interaction.guild_id, interaction.channel_id, game, interaction.user.id,
                                             opponent.id)
        title = f"{engines.get(game).title} ladder game"
        await interaction.response.send_message(lobby_text(lobby, title), view=lobby_view(lobby),
                                                allowed_mentions=MENTION_USERS)
        message = await interaction.original_response()
        await self.bot.host.turns.set_thread(lobby.row.id, None, message.id)

    @app_commands.command(name="settings", description="See or change the ladder's rules (Manage Server)")
    @app_commands.describe(game="Which game's ladder", reach="How many places above a player may challenge",
                           inactive_days="Days without a finished ladder game before a player is dropped",
                           clock="Time per move of ladder games", rated="Whether ladder games are rated")
    @app_commands.choices(game=GAME_CHOICES, clock=CLOCK_CHOICES)
    async def settings(self, interaction: discord.Interaction, game: str,
                       reach: app_commands.Range[int, 1, MAX_REACH] | None = None,
                       inactive_days: app_commands.Range[int, 1, MAX_IDLE_DAYS] | None = None,
                       clock: str | None = None, rated: bool | None = None) -> None:
        text = await self.ladders.settings(interaction.guild_id, game, interaction.permissions, reach=reach,
                                           inactive_days=inactive_days, clock=clock, rated=rated)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(Ladder(bot))
