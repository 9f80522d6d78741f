"""The slash group every game shares: ``/<game> move|board|resign|draw|abort|rules``.

A game's cog subclasses ``GameCog`` and adds only its ``new`` command with the game's options.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import engines
from cogs._shared import (
    MENTION_USERS,
    board_file,
    lobby_text,
    lobby_view,
    open_thread,
    post_report,
    report_message,
    report_shown,
)
from data.store import GameRow
from host.results import HostError, Report

if TYPE_CHECKING:
    from bot import ZBot


@app_commands.guild_only()  # on the group: Discord ignores guild_only on subcommands, so it must be here
class GameCog(commands.GroupCog):
    """Shared subcommands; ``game`` names the engine (``zrtz``, ``zodiac`` ...). Games live in a server's
    threads: the whole group is synced as guild-only, and a call from a DM (an old client) is refused."""

    game: ClassVar[str]

    def __init__(self, bot: ZBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage("Games are played in a server channel, not in DMs.")
        return True

    @property
    def title(self) -> str:
        return engines.get(self.game).title

    async def _game_here(self, interaction: discord.Interaction, statuses: tuple[str, ...] = ("active",)) -> GameRow:
        thread_id = interaction.channel_id if isinstance(interaction.channel, discord.Thread) else None
        return await self.bot.host.resolve(self.game, interaction.user.id, thread_id=thread_id,
                                           guild_id=interaction.guild_id, statuses=statuses)

    async def _send_report(self, interaction: discord.Interaction, report: Report) -> None:
        """Answer in the thread itself; used elsewhere, post there and tell the user privately."""
        if report.secret:  # a public reply would show the command, and so the choice, to everyone
            await interaction.response.send_message("Done: your choice stays secret.", ephemeral=True)
            await post_report(self.bot, report)
        elif interaction.channel_id == report.row.thread_id:  # the reply is the post: report_shown marks it done
            await interaction.response.send_message(**await report_message(self.bot, report))
            await report_shown(self.bot, report)
        else:  # answer within Discord's 3 seconds first, then post the board in the game's thread
            where = f" see <#{report.row.thread_id}>" if report.row.thread_id else ""
            await interaction.response.send_message(f"Done:{where or ' the board follows here'}.", ephemeral=True)
            await post_report(self.bot, report)

    async def start_challenge(self, interaction: discord.Interaction, *,
                              opponents: list[discord.User | discord.Member | None], open_seats: int,
                              options: dict[str, Any], rated: bool = True, clock: str = "none",
                              match: int = 1) -> None:
        """``/<game> new``: a challenge message with persistent buttons, or the game at once if all are seated."""
        if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
            raise HostError("Start games in a server text channel (not a thread or DM): each game gets its own thread.")
        named = [u for u in opponents if u is not None]
        if any(u.bot for u in named):
            raise HostError("Bots cannot play yet; challenge a person or leave the seat open.")
        lobby = await self.bot.host.challenge(
            game=self.game, creator=interaction.user.id, opponents=[u.id for u in named], open_seats=open_seats,
            options=options, settings={"rated": rated, "clock": clock, "match": match}, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id)
        if lobby.started:
            await interaction.response.send_message(f"{lobby_text(lobby, self.title)}\nThe game is on!",
                                                    allowed_mentions=MENTION_USERS)
            await open_thread(self.bot, await interaction.original_response(), lobby)
            return
        await interaction.response.send_message(lobby_text(lobby, self.title), view=lobby_view(lobby),
                                                allowed_mentions=MENTION_USERS)
        message = await interaction.original_response()
        await self.bot.host.set_thread(lobby.row.id, None, message.id)

    @app_commands.command(name="move", description="Play a move (autocomplete lists your legal moves)")
    @app_commands.describe(move="Your move in the game's notation; start typing to see the legal ones")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        row = await self._game_here(interaction)
        report = await self.bot.host.play(row.id, interaction.user.id, move)
        await self._send_report(interaction, report)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            row = await self._game_here(interaction)
            choices = await self.bot.host.move_choices(row.id, interaction.user.id, current)
        except HostError:
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in choices]

    @app_commands.command(name="board", description="Show the current board")
    @app_commands.describe(private="Only you see it, with anything hidden that only you may see")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, private: bool = False) -> None:
        row = await self._game_here(interaction, ("active", "finished"))
        board = await self.bot.host.board(row.id, interaction.user.id if private else None)
        file = board_file(board)
        await interaction.response.send_message(f"**{self.title}** #{row.id}", file=file, ephemeral=private)

    @app_commands.command(name="resign", description="Resign this game")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction)
        await self._send_report(interaction, await self.bot.host.resign(row.id, interaction.user.id))

    @app_commands.command(name="draw", description="Offer a draw, or accept the one on the table")
    @app_commands.describe(decline="Decline the draw offer instead")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction, decline: bool = False) -> None:
        row = await self._game_here(interaction)
        if decline:
            text = await self.bot.host.decline_draw(row.id, interaction.user.id)
            await interaction.response.send_message(text, allowed_mentions=MENTION_USERS)
            return
        result = await self.bot.host.offer_draw(row.id, interaction.user.id)
        if isinstance(result, str):
            await interaction.response.send_message(result, allowed_mentions=MENTION_USERS)
        else:
            await self._send_report(interaction, result)

    @app_commands.command(name="abort", description="Cancel a challenge, or a game before anyone moved")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction, ("challenge", "active"))
        text = await self.bot.host.abort(row.id, interaction.user.id)
        await interaction.response.send_message(text, allowed_mentions=MENTION_USERS)

    @app_commands.command(name="rules", description="How to play, and the move notation")
    async def rules(self, interaction: discord.Interaction) -> None:
        cls = engines.get(self.game)
        embed = discord.Embed(title=f"{cls.title}: how to play", description=cls.help[:4000])
        players = f"{cls.players.start}-{cls.players.stop - 1}" if len(cls.players) > 1 else str(cls.players.start)
        embed.add_field(name="Players", value=players)
        for option in cls.options_spec:
            embed.add_field(name=f"Option {option.name}", value=f"{option.help} (default {option.default})")
        await interaction.response.send_message(embed=embed, ephemeral=True)
