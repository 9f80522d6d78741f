"""A challenge in a channel: its text, its Accept/Join/Decline buttons, and the game's thread once it starts.

The start is saved before anything is posted, and the thread and first board are owed (outbox): a crash
or a refused REST call here leaves a job the dispatcher finishes.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord

import engines
from cogs._delivery import MENTION_USERS, board_shown, bot_of, report_message, report_shown
from cogs._errors import guarded
from host import outbox
from host.play.captions import lobby_teams, mention
from host.ratings.service import rating_note
from host.results import Lobby
from host.tournaments.texts import thread_name

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)


async def post_lobby(bot: ZBot, channel: discord.abc.Messageable, lobby: Lobby, text: str,
                     posted: Callable[[discord.Message], Awaitable[Any]] | None = None) -> None:
    """A challenge with its buttons, or the game at once (and its thread) when every seat is taken.

    ``posted`` runs once the message is out, before the thread is opened: an answer to the interaction
    that led here must come within Discord's 3 seconds.
    """
    if lobby.started:
        message = await channel.send(f"{text}\nThe game is on!", allowed_mentions=MENTION_USERS)
    else:
        message = await channel.send(text, view=lobby_view(lobby), allowed_mentions=MENTION_USERS)
        await bot.host.turns.set_thread(lobby.row.id, None, message.id)
    if posted is not None:
        await posted(message)
    if lobby.started:
        await open_thread(bot, message, lobby)


def lobby_text(lobby: Lobby, title: str) -> str:
    row = lobby.row
    players = ", ".join(mention(s.user_id) + ("" if s.accepted else " (invited)")
                        for s in row.seats if s.user_id is not None)
    text = f"**{title}** #{row.id}: <@{row.creator_id}> wants to play. Players: {players}."
    cls = engines.get(row.game)
    if partners := lobby_teams(row, cls.new(row.players, row.options).teams()):
        text += f" {partners}"
    if note := rating_note(row, cls):
        text += f" {note}"
    if row.settings.get("rematch_of"):
        text += f" A rematch of #{row.settings['rematch_of']}, seats rotated."
    if lobby.open_seats:
        text += f" {lobby.open_seats} open seat(s): press Join."
    if lobby.waiting_for:
        text += " " + " ".join(f"<@{u}>" for u in lobby.waiting_for) + ": press Accept or Decline."
    if (expires := row.settings.get("expires_at")) is not None and not lobby.started and not lobby.declined_by:
        text += f" Expires <t:{int(expires)}:R> if unanswered."
    return text


def lobby_view(lobby: Lobby) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    game_id = lobby.row.id
    if lobby.waiting_for:
        view.add_item(LobbyButton(game_id, "accept"))
    if lobby.open_seats:
        view.add_item(LobbyButton(game_id, "join"))
    view.add_item(LobbyButton(game_id, "decline"))
    return view


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"zg:(?P<action>accept|decline|join):(?P<game_id>[0-9]+)"):
    """Accept, Decline and Join: the game id lives in the custom id, so they work after a restart."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success, "join": discord.ButtonStyle.primary,
        "decline": discord.ButtonStyle.secondary}

    def __init__(self, game_id: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action.capitalize(), style=self.STYLES[action],
                                           custom_id=f"zg:{action}:{game_id}"))
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str]) -> LobbyButton:
        return cls(int(match["game_id"]), match["action"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        host = bot_of(interaction).host
        if self.action == "accept":
            lobby = await host.lobby.accept(self.game_id, interaction.user.id)
        elif self.action == "join":
            lobby = await host.lobby.join(self.game_id, interaction.user.id)
        else:
            row = await host.session.row(self.game_id)
            if interaction.user.id == row.creator_id:
                await host.turns.abort(self.game_id, interaction.user.id)
                await interaction.response.edit_message(content=f"Challenge #{self.game_id} withdrawn.", view=None)
                return
            lobby = await host.lobby.decline(self.game_id, interaction.user.id)
        await show_lobby(interaction, lobby)


async def show_lobby(interaction: discord.Interaction, lobby: Lobby) -> None:
    """Update the challenge message; when the last seat fills, open the game's thread and post the board."""
    title = engines.get(lobby.row.game).title
    if lobby.declined_by is not None:
        await interaction.response.edit_message(
            content=f"{lobby_text(lobby, title)}\n<@{lobby.declined_by}> declined.", view=None)
        return
    if not lobby.started:
        await interaction.response.edit_message(content=lobby_text(lobby, title), view=lobby_view(lobby))
        return
    await interaction.response.edit_message(content=f"{lobby_text(lobby, title)}\nThe game is on!", view=None)
    message = interaction.message
    assert message is not None
    await open_thread(bot_of(interaction), message, lobby)


async def open_thread(bot: ZBot, message: discord.Message, lobby: Lobby) -> None:
    """The new game's thread and first board. Both are owed (outbox) since the start was saved: a crash
    here leaves the job, and the dispatcher finishes it (finding the thread if it was already made)."""
    title = engines.get(lobby.row.game).title
    if lobby.report is None:  # another process started the game at this moment: its thread and board are its own
        return
    outbox.crash_point("thread")
    try:
        try:
            thread = await message.create_thread(name=thread_name(title, lobby.row.id, lobby.row.settings),
                                                 auto_archive_duration=10080)
        except discord.HTTPException as error:
            if error.code != 160004:  # anything but "this message already has a thread"
                raise
            thread = await bot.fetch_channel(message.id)  # type: ignore[assignment]
        outbox.crash_point("thread_made")
        await bot.host.turns.set_thread(lobby.row.id, thread.id, message.id)
        lobby.report.row.thread_id = thread.id
        sent = await thread.send(**await report_message(bot, lobby.report), nonce=outbox.nonce(lobby.report.owed))
        await board_shown(bot, lobby.report, sent.channel.id, sent.id)
    except discord.HTTPException as error:  # the start is saved and the thread owed: the dispatcher retries
        log.warning("could not open the thread of game %s: %s", lobby.row.id, error)
        await bot.host.outbox.hand_over(lobby.report.owed, bot.host.now())
        return
    outbox.crash_point("posted")
    await report_shown(bot, lobby.report)
