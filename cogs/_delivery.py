"""Putting a host report on screen: the board posted (or edited in place), recorded as shown, what follows sent.

A move's report is posted in the game's thread; ``board_shown`` records it in the host's one transaction
before any other REST call, then the older board's and a draw offer's buttons come off (one live board).
What cannot be sent stays owed in the outbox and the dispatcher (cogs/dispatch.py) sends it later.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import discord

import engines
from host import outbox
from host.play.turns import DRAW_OFFER, choice_menu
from host.results import Board, GameRow, Report

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)


MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def bot_of(interaction: discord.Interaction) -> ZBot:
    return interaction.client  # type: ignore[return-value]


def board_file(board: Board) -> discord.File:
    return discord.File(io.BytesIO(board.image), filename=board.filename)


async def report_message(bot: ZBot, report: Report) -> dict[str, Any]:
    """What a report shows wherever it is sent: caption, board, and move buttons when they fit."""
    from cogs._buttons import turn_view  # the buttons post reports: their module builds on this one

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


DRAW_AGREED = "🤝 The game ended in a draw: see the result below."


async def close_live(bot: ZBot, channel_id: int, message_id: int, content: str | None = None) -> None:
    """Take the components off a message that is no longer live (an older board, a draw offer, a secret-choice
    menu), saying why in ``content`` if given; its record is gone already, so a failed edit is only logged: a
    press on it still refuses clearly (its buttons carry an old ply, or nothing is on the table)."""
    said = {} if content is None else {"content": content}
    try:
        await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None, **said)
    except discord.HTTPException as error:
        log.info("could not close message %s in %s: %s", message_id, channel_id, error)


OFFER_CLOSED = "Draw offer closed: see the newest board."


async def retire_draw_offer(bot: ZBot, game_id: int, why: str = OFFER_CLOSED) -> None:
    """The game's open draw offer loses its buttons, saying ``why``. Its message is recorded in the database when
    posted (``live_shown``), so an offer made before a restart closes too."""
    for offer in await bot.host.turns.live_closed(game_id, [DRAW_OFFER]):
        await close_live(bot, offer.channel_id, offer.message_id, why)


def menu_closed(game_id: int, why: str) -> str:
    """What a closed secret-choice menu says: its game (Zodiac's, the only game with secret choices), and why."""
    return f"**{engines.get('zodiac').title}** #{game_id}: {why}; this menu is closed."


def ended_why(row: GameRow) -> str:
    return "the game was aborted" if row.status == "aborted" else "the game is over"


async def close_menus(bot: ZBot, game_id: int, why: str, users: Iterable[int] | None = None) -> None:
    """The secret-choice menus of ``users`` (None: everyone's) close, saying ``why``."""
    purposes = None if users is None else [choice_menu(user) for user in users]
    for menu in await bot.host.turns.live_closed(game_id, purposes):
        await close_live(bot, menu.channel_id, menu.message_id, menu_closed(game_id, why))


async def retire_ended(bot: ZBot, game_id: int) -> None:
    """An ended game's owed ``retire`` job (host/outbox.py): nothing of it stays live. Its draw offer and the secret-
    choice menus close, saying the game is over, and an aborted game's last board loses its buttons (a finished
    game's final board keeps its Rematch and Replay)."""
    row = await bot.host.session.row(game_id)
    why = ended_why(row)
    if row.status == "aborted":
        await retire_board(bot, game_id)
    for live in await bot.host.turns.live_closed(game_id):  # its draw offer and its menus, taken at once
        said = f"Draw offer closed: {why}." if live.purpose == DRAW_OFFER else menu_closed(game_id, why)
        await close_live(bot, live.channel_id, live.message_id, said)


async def board_shown(bot: ZBot, report: Report, channel_id: int, message_id: int) -> None:
    """The report's board is on screen as (channel, message). First, before any other REST call, the host's one
    transaction (``Host.shown``: the live board recorded, the owed job done, an AI's reply due); then the move
    buttons come off the board before it and off a draw offer: only one board is live."""
    old = await bot.host.turns.shown(report, channel_id, message_id)
    outbox.crash_point("shown")
    ended_drawn = report.outcome is not None and report.outcome.is_draw
    await retire_draw_offer(bot, report.row.id, *([DRAW_AGREED] if ended_drawn else []))
    if old is not None:
        await close_live(bot, old.channel_id, old.message_id)


async def retire_board(bot: ZBot, game_id: int) -> None:
    """A game that ended without a new board (aborted): its last board's buttons go too."""
    last = await bot.host.boards.last_board(game_id)
    if last is not None:
        await close_live(bot, last.channel_id, last.message_id)


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
