"""``/leaderboard``, ``/profile`` and ``/season start``: read the boards the finish hook keeps.

Thin like the game cogs: read with ``host.ratings``, turn user ids into names, send an image.
"""

from __future__ import annotations

import asyncio
import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._ai import AI_CHOICES
from host import bots, ratings, seasons
from host.ratings import ALL_TIME, GLOBAL, MIN_GAMES, PROVISIONAL_GAMES
from host.results import HostError
from host.service import mention
from render.leaderboard import BoardLine, render_leaderboard
from render.profile import Series, render_rating_chart

if TYPE_CHECKING:
    from bot import ZBot

RESULT_MARKS = {"win": "✅ Win", "loss": "❌ Loss", "draw": "🤝 Draw"}


class Ratings(commands.Cog):
    season_group = app_commands.Group(name="season", description="Seasons of this server's leaderboards",
                                      guild_only=True, default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ZBot) -> None:
        self.bot = bot

    # ----- helpers ----------------------------------------------------------------------

    def _title(self, game: str) -> str:
        cls = self.bot.host.games.get(game)
        if cls is None:
            names = ", ".join(self.bot.host.games)
            raise HostError(f"There is no game called {game[:40]!r}; the games are {names}.")
        return cls.title

    async def _name(self, interaction: discord.Interaction, user_id: int) -> str:
        """Server nickname, else the user's name, else the mention text; an AI level by its bot name."""
        if bots.is_ai(user_id):
            return bots.plain_name(user_id)  # drawn in images, whose fonts have no emoji
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        if member is not None:
            return member.display_name
        user = self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"<@{user_id}>"
        return user.display_name

    def _scope(self, interaction: discord.Interaction, scope: str | None) -> str:
        if scope == "global" or (scope is None and interaction.guild_id is None):
            return GLOBAL
        if interaction.guild_id is None:
            raise HostError("Server boards live in a server; use scope: global here.")
        return str(interaction.guild_id)

    # ----- commands ---------------------------------------------------------------------

    @app_commands.command(name="leaderboard", description="The top 20 players of a game, and your own place")
    @app_commands.describe(game="Which game", scope="This server (default) or every server",
                           season="A season number of this server (default: all-time)",
                           include_bots="Include the bot's AI levels (default: yes)")
    @app_commands.choices(scope=[app_commands.Choice(name="server", value="server"),
                                 app_commands.Choice(name="global", value="global")])
    @app_commands.rename(include_bots="bots")
    async def leaderboard(self, interaction: discord.Interaction, game: str, scope: str | None = None,
                          season: app_commands.Range[int, 1, 100_000] | None = None,
                          include_bots: bool = True) -> None:
        title = self._title(game)
        board_scope = self._scope(interaction, scope)
        if season is not None:
            if board_scope == GLOBAL or interaction.guild_id is None:
                raise HostError("Seasons belong to a server; the global board is all-time.")
            current = await seasons.current_season(self.bot.host.db.reader, interaction.guild_id)
            if season > current:
                raise HostError(f"Season {season} has not started; this server is in season {current}.")
        await interaction.response.defer(thinking=True)
        board = await ratings.leaderboard(self.bot.host.db, game, board_scope, season or ALL_TIME,
                                          interaction.user.id, bots_too=include_bots)
        everyone = [*board.rows, *([board.me] if board.me else [])]
        names = await asyncio.gather(*(self._name(interaction, s.user_id) for s in everyone))
        lines = [BoardLine(s.rank, name, s.shown, s.games, s.win_rate, me=s.user_id == interaction.user.id)
                 for s, name in zip(everyone, names, strict=True)]
        me = lines.pop() if board.me else None
        where = "all servers" if board_scope == GLOBAL else (interaction.guild.name if interaction.guild else "")
        period = (f"Season {season}" if season else "All-time") + ("" if include_bots else " · people only")
        subtitle = f"{period} · {board.players} ranked · ? = provisional (under {PROVISIONAL_GAMES} games)"
        image = await asyncio.to_thread(render_leaderboard, f"{title} · {where}", subtitle, lines, me,
                                        f"Players need {MIN_GAMES} rated games in the period to appear.")
        await interaction.followup.send(self._my_place(board, interaction.user.id), file=discord.File(io.BytesIO(image),
                                                                                 filename=f"leaderboard-{game}.png"))

    @staticmethod
    def _my_place(board: ratings.Leaderboard, user_id: int) -> str:
        mine = board.me or next((s for s in board.rows if s.user_id == user_id), None)
        if mine is None:
            return "" if board.rows else "Nobody is ranked yet."
        if mine.rank is None:
            return f"You have {mine.games} rated game(s) here; {MIN_GAMES} put you on the board."
        return f"You are #{mine.rank} of {board.players}."

    @leaderboard.autocomplete("game")
    async def game_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        typed = current.lower()
        found = [app_commands.Choice(name=cls.title, value=name) for name, cls in self.bot.host.games.items()
                 if typed in name or typed in cls.title.lower()][:25]
        if not found:  # never an empty list without a reason; choosing it is refused by _title
            found = [app_commands.Choice(name=f"No game matches {current[:40]!r}: clear the box to see them all",
                                         value="none")]
        return found

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
        scope = self._scope(interaction, None)
        await interaction.response.defer(thinking=True)
        data = await ratings.profile(self.bot.host.db, who_id, scope)
        name = await self._name(interaction, who_id)
        where = "all servers" if scope == GLOBAL else "this server"
        embed = discord.Embed(title=f"{name} · ratings on {where}")
        if not data.games:
            embed.description = "No rated games yet."
            await interaction.followup.send(embed=embed)
            return
        for record in data.games[:24]:
            s = record.standing
            place = f"#{s.rank} of {record.players}" if s.rank else f"unranked ({s.games}/{MIN_GAMES} games)"
            lines = [f"**{s.shown}** · {place}", f"{s.wins}W {s.losses}L {s.draws}D"]
            if record.best_win:
                lines.append(f"Best win: {mention(record.best_win[0])} ({record.best_win[1]})")
            embed.add_field(name=self._title(record.game), value="\n".join(lines))
        recent = [f"{RESULT_MARKS[r.result]} · {self._title(r.game)} #{r.game_id} · {r.change:+d} · <t:{int(r.at)}:R>"
                  for r in data.recent]
        if recent:
            embed.add_field(name="Recent results", value="\n".join(recent)[:1024], inline=False)
        series = [Series(self._title(r.game), [rating for _, rating in r.history]) for r in data.games]
        chart = await asyncio.to_thread(render_rating_chart, f"{name} · rating history", series)
        embed.set_image(url="attachment://rating-history.png")
        embed.set_footer(text=f"? = provisional (under {PROVISIONAL_GAMES} games)")
        await interaction.followup.send(embed=embed, file=discord.File(io.BytesIO(chart),
                                                                       filename="rating-history.png"))

    @season_group.command(name="start", description="Start a new season: fresh season boards, all-time stays")
    async def season_start(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise HostError("Seasons belong to a server.")
        if not seasons.may_start_season(interaction.permissions):
            raise HostError("Only members with the Manage Server permission can start a season.")
        number = await seasons.start_season(self.bot.host.db, interaction.guild_id, interaction.user.id,
                                            self.bot.host.now())
        await interaction.response.send_message(
            f"🏁 Season {number} begins on this server: its season boards start fresh; all-time boards stay. "
            f"See them with `/leaderboard season:{number}`.")


async def setup(bot: ZBot) -> None:
    await bot.add_cog(Ratings(bot))
