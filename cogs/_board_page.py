"""The live board page from Discord: **Open board** (a private link for the browser) and **Play on the board**
(the Activity, launched in the game's thread), and ``/<game> play``.

The cogs never import ``web``: zbot.py hands the host a link maker (``host.boards.board_link``) and says whether
the Activity can sign players in (``host.boards.activity``). Without the board pages neither button is shown,
and an older button or the command answers privately why.
"""

from __future__ import annotations

from typing import Any

import discord

import engines
from cogs._buttons import ForGame
from cogs._delivery import bot_of
from cogs._errors import guarded, send_error
from host.results import HostError

NO_PAGES = "The live board is not served by this bot right now; the buttons under the board still play."
NO_ACTIVITY = ("The board Activity is not set up on this bot (it needs the application's OAuth2 secret): "
               "press **Open board** under the board for the same board in your browser.")


def page_buttons(board_link: bool, activity: bool, game_id: int, active: bool) -> list[discord.ui.Item[Any]]:
    """The buttons a board message gets: Open board when the pages are served, Play on the board while the
    game goes on and the Activity can sign players in."""
    items: list[discord.ui.Item[Any]] = []
    if board_link:
        items.append(OpenBoardButton(game_id))
    if activity and active:
        items.append(PlayBoardButton(game_id))
    return items


async def launch(interaction: discord.Interaction, game: str | None = None) -> None:
    """Launch the Activity in this channel if it is a game's thread (of ``game``, for ``/<game> play``)."""
    boards = bot_of(interaction).host.boards
    if not boards.activity:
        raise HostError(NO_ACTIVITY if boards.board_link is not None else NO_PAGES)
    row = await boards.game_in_thread(interaction.channel_id) if interaction.channel_id else None
    if row is None:
        where = f"/{game} play" if game else "/<game> play"
        raise HostError(f"The board Activity opens on a game's thread: use {where} inside the game's thread, or "
                        "press **Play on the board** under its board.")
    if game is not None and row.game != game:
        raise HostError(f"This thread's game is {engines.get(row.game).title}: use /{row.game} play here.")
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:  # Activities switched off for the application, most often
        raise HostError("Discord would not start the board Activity here (is it enabled for this application "
                        f"in the Developer Portal?): {error.text or error.status}. **Open board** works meanwhile."
                        ) from None


class OpenBoardButton(ForGame, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zb:(?P<game_id>[0-9]+)"):
    """Answers privately with a link button: the board page for this user (their own view if seated)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Open board", style=discord.ButtonStyle.secondary, emoji="🌐",
                                           custom_id=f"zb:{game_id}"))
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        host = bot_of(interaction).host
        if host.boards.board_link is None:
            await send_error(interaction, NO_PAGES)
            return
        row = await host.session.row(self.game_id)
        link = host.boards.board_link(interaction.user.id, self.game_id)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Open the board", url=link))
        whose = "your own view" if row.seat_of(interaction.user.id) is not None else "the public view"
        await interaction.response.send_message(
            f"Your link to the live board of game #{self.game_id} ({whose}). Only you see it; it works for an "
            "hour: do not share it.", view=view, ephemeral=True)


class PlayBoardButton(ForGame, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"za:(?P<game_id>[0-9]+)"):
    """Launches the board Activity in the game's thread (interaction callback type 12)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Play on the board", style=discord.ButtonStyle.success,
                                           emoji="🎲", custom_id=f"za:{game_id}"))
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await launch(interaction)
