"""What every game cog shares: sending host results, ephemeral errors, persistent lobby buttons.

Cogs stay thin: parse the interaction, call the host, send what it returns.
"""

from __future__ import annotations

import functools
import io
import logging
import re
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord import app_commands

import engines
from cogs._limits import admitted, capped, cooldown_text, refuse_after_defer
from host import outbox
from host.captions import lobby_teams, mention
from host.ratings import rating_note
from host.results import Board, Busy, HostError, Lobby, Report
from host.tournament_texts import thread_name

if TYPE_CHECKING:
    from bot import ZBot

log = logging.getLogger(__name__)
MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def bot_of(interaction: discord.Interaction) -> ZBot:
    return interaction.client  # type: ignore[return-value]


GENERIC_FAILURE = "Something went wrong on our side; your game is safe. Please try again."


async def send_error(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral message only the user sees, whether or not we already answered (capped; the whole
    text is logged). After a public "thinking…" placeholder, the placeholder goes first: a followup
    would fill it, publicly."""
    text = capped(text)
    try:
        if await _thinking(interaction):
            await refuse_after_defer(interaction, text)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s: %s", interaction.user.id, text)


async def _thinking(interaction: discord.Interaction) -> bool:
    """The response is still the deferred "thinking…" placeholder (no followup has filled it)."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return False
    try:
        return (await interaction.original_response()).flags.loading
    except discord.HTTPException:
        return False


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """Every slash command's errors: host refusals go back privately; anything else is logged and apologised for."""
    original = getattr(error, "original", error)
    if isinstance(original, (HostError, Busy)):
        await send_error(interaction, str(original))
        return
    if isinstance(error, app_commands.CommandOnCooldown):
        await send_error(interaction, cooldown_text(error))
        return
    if isinstance(error, app_commands.NoPrivateMessage):
        await send_error(interaction, "Games are played in a server channel, not in DMs.")
        return
    name = interaction.command.qualified_name if interaction.command else "?"
    log.error("command /%s failed", name, exc_info=original)
    await send_error(interaction, GENERIC_FAILURE)


def printable(text: str) -> str:
    """``text`` without control characters (what a user typed into an autocomplete box may hold any)."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def fit_choices(choices: Sequence[app_commands.Choice[Any]]) -> list[app_commands.Choice[Any]]:
    """At most 25 autocomplete choices, names printable and of 1-100 characters, string values of 1-100:
    Discord refuses the whole answer otherwise."""
    fitted = []
    for choice in choices[:25]:
        name = printable(choice.name).strip()[:100] or "?"
        value = choice.value
        if isinstance(value, str):
            value = value[:100] or " "
        fitted.append(app_commands.Choice(name=name, value=value))
    return fitted


Callback = Callable[[Any, discord.Interaction], Awaitable[None]]


def guarded(callback: Callback) -> Callback:
    """For button and menu callbacks: a refusal or a failure always gets a private answer."""

    @functools.wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction) -> None:
        if not await admitted(interaction):  # the per-user budget, before any database work
            return
        try:
            await callback(self, interaction)
        except (HostError, Busy) as error:
            await send_error(interaction, str(error))
        except Exception:
            log.exception("%s failed", type(self).__name__)
            await send_error(interaction, GENERIC_FAILURE)

    return wrapper


def board_file(board: Board) -> discord.File:
    return discord.File(io.BytesIO(board.image), filename=board.filename)


async def report_message(bot: ZBot, report: Report) -> dict[str, Any]:
    """What a report shows wherever it is sent: caption, board, and move buttons when they fit."""
    return {"content": report.caption[:2000], "file": board_file(report.board), "allowed_mentions": MENTION_USERS,
            "view": await turn_view(bot, report)}


async def deliver_owed(bot: ZBot, keys: Sequence[str]) -> None:
    """Send these owed jobs now through the dispatcher (what it cannot send stays owed and is retried)."""
    if keys and (dispatcher := bot.get_cog("Dispatch")) is not None:
        await dispatcher.run_keys(keys)  # type: ignore[attr-defined]


async def report_shown(bot: ZBot, report: Report) -> None:
    """After a report is on screen and recorded (``board_shown``): what follows it (Zodiac's DMs) goes out,
    listeners hear of it, and a match's next game follows."""
    await deliver_owed(bot, report.follow)
    bot.dispatch("game_report", report)
    if report.next_game is not None:
        await post_report(bot, report.next_game)


async def post_report(bot: ZBot, report: Report) -> None:
    """Post a caption and the new board in the game's thread (a step inside a turn edits the turn's board)."""
    channel = await thread_of(bot, report.row.thread_id or report.row.channel_id)
    try:
        if channel is None:
            return  # still owed: the dispatcher posts it once the thread is back
        if not await edit_turn_board(bot, report):
            sent = await channel.send(**await report_message(bot, report), nonce=outbox.nonce(report.owed))
            await board_shown(bot, report, sent.channel.id, sent.id)
    except discord.HTTPException as error:  # the move is saved and the post owed: the dispatcher retries it
        log.warning("could not post game %s in its thread: %s", report.row.id, error)
        await bot.host.outbox.hand_over(report.owed, bot.host.now())
        return
    await report_shown(bot, report)


async def edit_turn_board(bot: ZBot, report: Report) -> bool:
    """A step inside a turn (Ziggurat): the turn's message gets the new caption, board and buttons in place."""
    last = await bot.host.boards.last_board(report.row.id) if report.continues_turn else None
    if last is None:
        return False
    message = bot.get_partial_messageable(last.channel_id).get_partial_message(last.message_id)
    shown = await report_message(bot, report)
    try:
        await message.edit(content=shown["content"], attachments=[shown["file"]], view=shown["view"],
                           allowed_mentions=shown["allowed_mentions"])
    except discord.NotFound:  # deleted: post a fresh board instead
        return False
    await bot.host.turns.shown(report, last.channel_id, last.message_id)  # before any other REST call
    await retire_draw_offer(bot, report.row.id)
    return True


_DRAW_OFFERS: weakref.WeakKeyDictionary[Any, dict[int, tuple[int, int]]] = weakref.WeakKeyDictionary()


DRAW_AGREED = "🤝 The game ended in a draw: see the result below."


def open_draw_offers(bot: ZBot) -> dict[int, tuple[int, int]]:
    """game id -> (channel, message) of a draw offer whose buttons are live; a move ends the offer and them.
    Kept per bot in memory: after a restart an old offer's buttons still refuse clearly."""
    return _DRAW_OFFERS.setdefault(bot, {})


async def retire_draw_offer(bot: ZBot, game_id: int, why: str = "Draw offer closed: see the newest board.") -> None:
    where = open_draw_offers(bot).pop(game_id, None)
    if where is None:
        return
    try:
        await bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(content=why, view=None)
    except discord.HTTPException as error:
        log.info("could not close the draw offer of game %s: %s", game_id, error)


async def board_shown(bot: ZBot, report: Report, channel_id: int, message_id: int) -> None:
    """The report's board is on screen as (channel, message). First, before any other REST call, the host's one
    transaction (``Turns.shown``: the live board recorded, the owed job done, an AI's reply due); then the move
    buttons come off the board before it and off a draw offer: only one board is live."""
    old = await bot.host.turns.shown(report, channel_id, message_id)
    outbox.crash_point("shown")
    ended_drawn = report.outcome is not None and report.outcome.is_draw
    await retire_draw_offer(bot, report.row.id, *([DRAW_AGREED] if ended_drawn else []))
    if old is None:
        return
    try:
        await bot.get_partial_messageable(old.channel_id).get_partial_message(old.message_id).edit(view=None)
    except discord.HTTPException as error:  # its buttons refuse anyway: they carry the old ply
        log.info("could not retire the old board of game %s: %s", report.row.id, error)


async def retire_board(bot: ZBot, game_id: int) -> None:
    """A game that ended without a new board (aborted): its last board's buttons go too."""
    last = await bot.host.boards.last_board(game_id)
    if last is None:
        return
    try:
        await bot.get_partial_messageable(last.channel_id).get_partial_message(last.message_id).edit(view=None)
    except discord.HTTPException as error:
        log.info("could not retire the last board of game %s: %s", game_id, error)


async def turn_view(bot: ZBot, report: Report) -> discord.ui.View:
    """The Move button (the move builder) and one button per legal move when there are few (dice turns,
    forced captures): play by clicking. A finished game offers its replay (the move list, step by step) and,
    unless a match goes on, a rematch."""
    from cogs.builder import OpenBuilder  # the builder's module builds on this one
    from cogs.records import ReplayOpen  # so does the records' module

    view = discord.ui.View(timeout=None)
    if report.outcome is None and report.can_build:
        view.add_item(OpenBuilder(report.row.id))
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
        if not row.draw_offers:
            raise HostError("There is no draw offer on the table any more.")
        if self.action == "decline":
            text = await bot.host.turns.decline_draw(self.game_id, interaction.user.id)
            open_draw_offers(bot).pop(self.game_id, None)
            await interaction.response.edit_message(content=text, view=None, allowed_mentions=MENTION_USERS)
            return
        result = await bot.host.turns.offer_draw(self.game_id, interaction.user.id)
        if isinstance(result, str):
            await interaction.response.edit_message(content=result, view=draw_view(self.game_id),
                                                    allowed_mentions=MENTION_USERS)
            return
        open_draw_offers(bot).pop(self.game_id, None)
        await interaction.response.edit_message(content=DRAW_AGREED, view=None)  # no "press Accept" left behind
        await post_report(bot, result)


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


async def thread_of(bot: ZBot, channel_id: int | None) -> discord.abc.Messageable | None:
    if channel_id is None:
        return None
    channel = bot.get_channel(channel_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("channel %s is gone", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


def reply_to(channel_id: int | None, message_id: int | None) -> discord.MessageReference | None:
    """A reply to ``message_id`` (a game's challenge), or none; a deleted message leaves a plain post."""
    if channel_id is None or message_id is None:
        return None
    return discord.MessageReference(message_id=int(message_id), channel_id=channel_id, fail_if_not_exists=False)


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
    assert message is not None and lobby.report is not None
    await open_thread(bot_of(interaction), message, lobby)


async def open_thread(bot: ZBot, message: discord.Message, lobby: Lobby) -> None:
    """The new game's thread and first board. Both are owed (outbox) since the start was saved: a crash
    here leaves the job, and the dispatcher finishes it (finding the thread if it was already made)."""
    title = engines.get(lobby.row.game).title
    assert lobby.report is not None
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


def names_for(client: discord.Client, interaction: discord.Interaction,
              unknown: Callable[[int], str] = lambda user_id: f"user {user_id}") -> Callable[[int], Awaitable[str]]:
    """Display names for the host's pictures: server nickname, else the user's name, else ``unknown``."""

    async def name_of(user_id: int) -> str:
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        if member is not None:
            return member.display_name
        user = client.get_user(user_id)
        if user is not None:
            return user.display_name
        cache = _FETCHED_NAMES.setdefault(client, {})
        now = time.monotonic()
        if (known := cache.get(user_id)) is not None and known[1] > now:
            return known[0]
        try:
            user = await client.fetch_user(user_id)
        except discord.HTTPException:
            return unknown(user_id)
        if len(cache) >= NAME_CACHE_SIZE:
            cache.clear()
        cache[user_id] = (user.display_name, now + NAME_TTL)
        return user.display_name

    return name_of


NAME_TTL = 600.0
"""Seconds a fetched user's name is reused (``/leaderboard`` names players the client does not cache)."""
NAME_CACHE_SIZE = 20_000
_FETCHED_NAMES: weakref.WeakKeyDictionary[Any, dict[int, tuple[str, float]]] = weakref.WeakKeyDictionary()
