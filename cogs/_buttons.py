"""The persistent buttons under a board: a move, My view, Accept/Decline a draw, Rematch, and which of them show.

Each is a ``DynamicItem`` whose custom id holds all it needs (the game, and the ply for a move), so a button
keeps working after a restart and one from an older position refuses (general.py registers them).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

import engines
from cogs._delivery import (
    DRAW_AGREED,
    MENTION_USERS,
    OFFER_CLOSED,
    board_file,
    bot_of,
    ended_why,
    post_report,
    thread_of,
)
from cogs._errors import guarded, send_error
from cogs._lobby import lobby_text, post_lobby
from host.play.turns import DRAW_OFFER
from host.results import HostError, Report

if TYPE_CHECKING:
    from zbot import ZBot


async def turn_view(bot: ZBot, report: Report) -> discord.ui.View:
    """The Move button (the move builder), Open board and Play on the board when the board page is served,
    and one button per legal move when there are few (dice turns, forced captures): play by clicking. A
    finished game offers its replay (the move list, step by step) and, unless a match goes on, a rematch."""
    from cogs._board_page import page_buttons  # builds on this module's ForGame
    from cogs.builder import OpenBuilder  # extensions, looked up when needed: the modules as load_extension ran
    from cogs.records import ReplayOpen  # them (the builder's and the records' modules build on cogs._delivery)

    view = discord.ui.View(timeout=None)
    if report.outcome is None and report.can_build:
        view.add_item(OpenBuilder(report.row.id))
    boards = bot.host.boards  # the board page's buttons, when zbot.py serves it (WEB_PORT)
    for item in page_buttons(boards.board_link is not None, boards.activity, report.row.id, report.outcome is None):
        view.add_item(item)
    if report.outcome is not None:
        if report.next_game is None:
            view.add_item(RematchButton(report.row.id))
        view.add_item(ReplayOpen(report.row.id))
    elif engines.get(report.row.game).hidden_information:
        view.add_item(MyViewButton(report.row.id))
    else:
        for label, move in report.choices:  # the report carries them: no trip back to the host
            button = MoveButton(report.row.id, report.ply, move, label)
            if len(button.item.custom_id or "") <= 100 and len(view.children) < 25:
                view.add_item(button)
    return view


class ForGame:
    """Mixed into a ``DynamicItem`` whose template captures only ``game_id`` and whose ``__init__`` takes just
    that: after a restart discord.py rebuilds the item from its custom id."""

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> Self:
        return cls(int(match["game_id"]))  # type: ignore[call-arg]


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"zm:(?P<game_id>[0-9]+):(?P<ply>[0-9]+):(?P<move>.+)"):
    """A legal move as a button; the ply in its id makes a button from an older position refuse."""

    def __init__(self, game_id: int, ply: int, move: str, label: str | None = None) -> None:
        style = discord.ButtonStyle.secondary if move == "end" else discord.ButtonStyle.primary
        label = label or ("End the turn" if move == "end" else move)
        super().__init__(discord.ui.Button(label=label[:80], style=style, custom_id=f"zm:{game_id}:{ply}:{move}"))
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> MoveButton:
        return cls(int(match["game_id"]), int(match["ply"]), match["move"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        report = await bot_of(interaction).host.turns.play(self.game_id, interaction.user.id, self.move,
                                                     expected_ply=self.ply)
        await interaction.response.edit_message(view=None)
        await post_report(bot_of(interaction), report)


class DrawButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"zd:(?P<action>accept|decline):(?P<game_id>[0-9]+)"):
    """Accept or Decline under a draw offer; the host checks who may answer and that the offer still stands."""

    def __init__(self, game_id: int, action: str) -> None:
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=f"{action.capitalize()} draw", style=style,
                                           custom_id=f"zd:{action}:{game_id}"))
        self.game_id, self.action = game_id, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> DrawButton:
        return cls(int(match["game_id"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        row = await bot.host.session.row(self.game_id)
        if row.status != "active" or not row.draw_offers:
            # an offer closed whose message stayed live (Discord refused the edit, an AI declined): it closes now
            why = OFFER_CLOSED if row.status == "active" else f"Draw offer closed: {ended_why(row)}."
            await self.close(interaction, why)
            await interaction.followup.send("There is no draw offer on the table any more.", ephemeral=True)
            return
        if self.action == "decline":
            text = await bot.host.turns.decline_draw(self.game_id, interaction.user.id)
            await self.close(interaction, text)
            return
        result = await bot.host.turns.offer_draw(self.game_id, interaction.user.id)
        if isinstance(result, str):
            await interaction.response.edit_message(content=result, view=draw_view(self.game_id),
                                                    allowed_mentions=MENTION_USERS)
            return
        await self.close(interaction, DRAW_AGREED)  # no "press Accept" left behind
        await post_report(bot, result)

    async def close(self, interaction: discord.Interaction, content: str) -> None:
        """This offer's message says ``content`` and loses its buttons; it is no longer the game's live offer."""
        await interaction.response.edit_message(content=content, view=None, allowed_mentions=MENTION_USERS)
        if interaction.message is not None:
            await bot_of(interaction).host.turns.live_closed(self.game_id, [DRAW_OFFER],
                                                             message_id=interaction.message.id)


def draw_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(DrawButton(game_id, "accept"))
    view.add_item(DrawButton(game_id, "decline"))
    return view


class RematchButton(ForGame, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zr:(?P<game_id>[0-9]+)"):
    """Under a final board: the same players and options again, seats rotated, as a new challenge."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Rematch", style=discord.ButtonStyle.primary,
                                           custom_id=f"zr:{game_id}"))
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        old = await bot.host.session.row(self.game_id)
        lobby = await bot.host.lobby.rematch(self.game_id, interaction.user.id)
        channel = await thread_of(bot, old.channel_id)
        if channel is None:
            raise HostError("The channel of the first game is gone; start the rematch with the new command.")
        title = engines.get(lobby.row.game).title
        await interaction.response.send_message(f"Rematch #{lobby.row.id} proposed in <#{old.channel_id}>.",
                                                ephemeral=True)
        await post_lobby(bot, channel, lobby, lobby_text(lobby, title))


class MyViewButton(ForGame, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zv:(?P<game_id>[0-9]+)"):
    """Shows a player their own view (their secrets included) privately, in games with hidden information."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="My view", style=discord.ButtonStyle.secondary,
                                           custom_id=f"zv:{game_id}"))
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        host = bot_of(interaction).host
        row = await host.session.row(self.game_id)
        if row.seat_of(interaction.user.id) is None:
            await send_error(interaction, "Only the players of this game have a view of their own.")
            return
        board = await host.boards.board(self.game_id, interaction.user.id)
        await interaction.response.send_message("Your view (only you see this):", ephemeral=True,
                                                file=board_file(board))
