"""The slash group every game shares: ``/<game> move|board|play|resign|draw|abort|review|rules``.

A game's cog subclasses ``GameCog`` and adds its ``new`` command, built from the engine's options by
``cogs._new.new_command``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

import engines
from cogs._ai import HintCommand, seat_users
from cogs._board_page import launch
from cogs._buttons import draw_view
from cogs._delivery import (
    MENTION_USERS,
    board_file,
    board_shown,
    deliver_owed,
    post_report,
    report_message,
    report_shown,
    retire_draw_offer,
    thread_of,
)
from cogs._lobby import lobby_text, lobby_view, open_thread
from cogs._names import fit_choices, printable
from cogs.records import RecordCommands
from engines import Game, Option
from host import outbox
from host.play import teaching
from host.play.turns import DRAW_OFFER
from host.results import GameRow, HostError, Report

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)


def offered_options(cls: type[Game], new: app_commands.Command[Any, ..., Any] | None) -> list[Option]:
    """The game's options that its ``/<game> new`` really offers: the rules list only those."""
    names = {p.name for p in new.parameters} if new is not None else set()
    return [o for o in cls.options_spec if o.name in names]


def rules_embed(cls: type[Game], options: list[Option], lesson: teaching.Lesson) -> discord.Embed:
    """How to play, the options ``/new`` offers, and the worked example with its picture."""
    embed = discord.Embed(title=f"{cls.title}: how to play", description=cls.help[:4000])
    players = f"{cls.players.start}-{cls.players.stop - 1}" if len(cls.players) > 1 else str(cls.players.start)
    embed.add_field(name="Players", value=players)
    for option in options:
        embed.add_field(name=f"Option {option.name}", value=f"{option.help} (default {option.default})"[:1024])
    embed.add_field(name="Example (the picture)", value=lesson.text[:1024], inline=False)
    embed.set_image(url=f"attachment://{lesson.filename}")
    return embed


NO_MOVE = "⛔"
"""Starts the value of autocomplete's explanation entry, so choosing it is refused with the reason."""


async def plain_names(interaction: discord.Interaction, text: str) -> str:
    """Autocomplete entries are plain text: ``<@id>`` becomes the member's display name, ``<#id>`` goes."""
    names: dict[str, str] = {}
    for found in set(re.findall(r"<@!?([0-9]+)>", text)):
        user_id = int(found)
        user: discord.abc.User | None = interaction.guild.get_member(user_id) if interaction.guild else None
        user = user or interaction.client.get_user(user_id)
        if user is None:
            try:
                user = await interaction.client.fetch_user(user_id)
            except discord.HTTPException:
                user = None
        names[found] = f"@{user.display_name}" if user else "another player"
    text = re.sub(r"<@!?([0-9]+)>", lambda m: names[m[1]], text)
    return re.sub(r"<#[0-9]+>", "the game's thread", text)


@app_commands.guild_only()  # on the group: Discord ignores guild_only on subcommands, so it must be here
class GameCog(HintCommand, RecordCommands, commands.GroupCog):
    """Shared subcommands (records: ``cogs/records.py``, hints: ``cogs/_ai.py``); ``game`` names the engine.
    Games live in a server's threads: the whole group is synced as guild-only, and a DM call is refused."""

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
        return await self.bot.host.boards.resolve(self.game, interaction.user.id, thread_id=thread_id,
                                           guild_id=interaction.guild_id, statuses=statuses)

    async def _send_report(self, interaction: discord.Interaction, report: Report) -> None:
        """Answer in the thread itself; used elsewhere, post there and tell the user privately."""
        if report.secret:  # a public reply would show the command, and so the choice, to everyone
            await interaction.response.send_message("Done: your choice stays secret.", ephemeral=True)
            await post_report(self.bot, report)
        elif report.continues_turn and await self.bot.host.boards.last_board(report.row.id) is not None:
            where = "above" if interaction.channel_id == report.row.thread_id else f"in <#{report.row.thread_id}>"
            await interaction.response.send_message(f"Played: the turn's board {where} shows it.", ephemeral=True)
            await post_report(self.bot, report)  # edits the turn's message in place
        elif interaction.channel_id == report.row.thread_id:
            answer = await interaction.response.send_message(**await report_message(self.bot, report))
            outbox.crash_point("replied")  # on screen, no nonce: a crash before shown commits repeats it
            message_id = answer.message_id or (await interaction.original_response()).id
            await board_shown(self.bot, report, report.row.thread_id, message_id)
            await report_shown(self.bot, report)
        else:  # answer within Discord's 3 seconds first, then post the board in the game's thread
            where = f" see <#{report.row.thread_id}>" if report.row.thread_id else ""
            await interaction.response.send_message(f"Done:{where or ' the board follows here'}.", ephemeral=True)
            await post_report(self.bot, report)

    async def start_challenge(self, interaction: discord.Interaction, *,
                              opponents: list[discord.User | discord.Member | None], open_seats: int,
                              options: dict[str, Any], rated: bool | None = None, clock: str = "none",
                              match: int = 1, ai: str | None = None) -> None:
        """``/<game> new``: a challenge message with persistent buttons, or the game at once if all are seated."""
        if interaction.guild_id is None or isinstance(interaction.channel, discord.Thread):
            raise HostError("Start games in a server text channel (not a thread or DM): each game gets its own thread.")
        me = self.bot.user.id if self.bot.user is not None else 0
        seated, open_seats = seat_users(me, opponents, open_seats, ai)  # AI seats filled (``ai``, or the bot named)
        lobby = await self.bot.host.lobby.challenge(
            game=self.game, creator=interaction.user.id, opponents=[u for u in seated if u is not None],
            open_seats=open_seats,
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
        await self.bot.host.turns.set_thread(lobby.row.id, None, message.id)

    @app_commands.command(name="move", description="Play a move (autocomplete lists your legal moves)")
    @app_commands.describe(move="Your move in the game's notation; start typing to see the legal ones")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        if move.startswith(NO_MOVE):  # the explanation autocomplete offered instead of an empty list
            raise HostError(f"That is not a move: {move.removeprefix(NO_MOVE).strip()}.")
        row = await self._game_here(interaction)
        report = await self.bot.host.turns.play(row.id, interaction.user.id, move, row=row)
        await self._send_report(interaction, report)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        try:
            row = await self._game_here(interaction)
            choices = await self.bot.host.boards.move_choices(row.id, interaction.user.id, current)
            boards = self.bot.host.boards
            reason = None if choices else await boards.explain_no_choices(row.id, interaction.user.id, current)
        except HostError as error:
            choices, reason = [], str(error)
        if reason is not None:  # never an empty list without a reason: one entry that says why
            text = (await plain_names(interaction, reason)).rstrip(".")
            return fit_choices([app_commands.Choice(name=text, value=f"{NO_MOVE} {printable(text)}")])
        return fit_choices([app_commands.Choice(name=label, value=value) for label, value in choices])

    @app_commands.command(name="board", description="Show the current board")
    @app_commands.describe(private="Only you see it, with anything hidden that only you may see")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, private: bool = False) -> None:
        row = await self._game_here(interaction, ("active", "finished"))
        board = await self.bot.host.boards.board(row.id, interaction.user.id if private else None)
        file = board_file(board)
        await interaction.response.send_message(f"**{self.title}** #{row.id}", file=file, ephemeral=private)

    @app_commands.command(name="play", description="Play on the live board inside Discord (in the game's thread)")
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction) -> None:
        await launch(interaction, self.game)  # the board Activity, launched in this thread

    @app_commands.command(name="resign", description="Resign this game")
    @app_commands.guild_only()
    async def resign(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction)
        await self._send_report(interaction, await self.bot.host.turns.resign(row.id, interaction.user.id))

    @app_commands.command(name="draw", description="Offer a draw, or accept the one on the table")
    @app_commands.describe(decline="Decline the draw offer instead")
    @app_commands.guild_only()
    async def draw(self, interaction: discord.Interaction, decline: bool = False) -> None:
        row = await self._game_here(interaction)
        if decline:
            text = await self.bot.host.turns.decline_draw(row.id, interaction.user.id)
            await self._say_in_thread(interaction, row, text)
            await retire_draw_offer(self.bot, row.id, "Draw offer declined.")
            return
        result = await self.bot.host.turns.offer_draw(row.id, interaction.user.id)
        if isinstance(result, str):
            await retire_draw_offer(self.bot, row.id, "A newer draw offer follows below.")
            offer = await self._say_in_thread(interaction, row, result, draw_view(row.id))
            if offer is not None:
                await self.bot.host.turns.live_shown(row.id, DRAW_OFFER, offer.channel.id, offer.id)
        else:
            await self._send_report(interaction, result)

    async def _say_in_thread(self, interaction: discord.Interaction, row: GameRow, text: str,
                             view: discord.ui.View | None = None) -> discord.Message | None:
        """A line about the game (a draw offer and its buttons, a decline) where the game is played: as the reply in
        its thread; typed elsewhere, posted in the thread and the user told privately, as a move is. Returns the
        message, None when the thread could not be reached (the offer stands: the draw command answers it)."""
        buttons: dict[str, Any] = {"view": view} if view is not None else {}
        if row.thread_id is None or interaction.channel_id == row.thread_id:
            await interaction.response.send_message(text, allowed_mentions=MENTION_USERS, **buttons)
            return await interaction.original_response()
        await interaction.response.send_message(f"Done: see <#{row.thread_id}>.", ephemeral=True)
        thread = await thread_of(self.bot, row.thread_id)
        try:
            return await thread.send(text, allowed_mentions=MENTION_USERS, **buttons) if thread is not None else None
        except discord.HTTPException as error:
            log.warning("could not post in the thread of game %s: %s", row.id, error)
            return None

    @app_commands.command(name="abort", description="Cancel a challenge, or a game before any person moved")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction, ("challenge", "active"))
        text = await self.bot.host.turns.abort(row.id, interaction.user.id)
        await interaction.response.send_message(text, allowed_mentions=MENTION_USERS)
        if row.status == "challenge" and row.message_id is not None and row.channel_id is not None:
            try:  # the challenge's Accept and Join buttons would only refuse now
                challenge = self.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
                await challenge.edit(content=f"Challenge #{row.id} withdrawn.", view=None)
            except discord.HTTPException:
                pass  # deleted or out of reach: its buttons refuse anyway
        if row.status == "active":  # its board, draw offer and secret-choice menus close (owed with the abort)
            await deliver_owed(self.bot, [outbox.retire_key(row.id)])

    @app_commands.command(name="review", description="The hard level's review of a finished game: mistakes,"
                          " better moves, a chart")
    @app_commands.describe(game="The game's number (default: this thread's game)")
    @app_commands.guild_only()
    async def review(self, interaction: discord.Interaction, game: int | None = None) -> None:
        ident = await self._record_game(interaction, game)
        answer = await self.bot.host.reviews.request(ident, interaction.user.id, game=self.game,
                                                     guild_id=interaction.guild_id)
        if answer.post is None:  # being prepared: posted in the game's thread when done
            await interaction.response.send_message(answer.text, ephemeral=True)
            return
        await interaction.response.send_message(answer.post.caption, file=board_file(answer.post.chart),
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="rules", description="How to play, and the move notation")
    async def rules(self, interaction: discord.Interaction) -> None:
        cls = engines.get(self.game)
        lesson = await asyncio.to_thread(teaching.lesson, self.game)
        new = getattr(self, "new", None)
        embed = rules_embed(cls, offered_options(cls, new if isinstance(new, app_commands.Command) else None), lesson)
        file = discord.File(io.BytesIO(lesson.image), filename=lesson.filename)
        await interaction.response.send_message(embed=embed, file=file, ephemeral=True)
