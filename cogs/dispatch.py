"""The outbox dispatcher: sends what the bot owes players (host/outbox.py) and marks it done.

Whatever a command or the scheduler could not deliver itself within ``outbox.GRACE`` (a crash, Discord
down), and everything an earlier process left pending, is claimed here with a lease, rebuilt from the
database and sent. Messages carry a nonce derived from the job's key (Discord returns the first message
for a repeated nonce), and a game's thread is looked up before one is created, so a retry after a
crash between sending and marking done does not post twice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

import engines
from cogs._delivery import (
    MENTION_USERS,
    board_shown,
    post_report,
    reply_to,
    report_message,
    retire_ended,
    thread_of,
)
from host import outbox
from host.outbox import Job
from host.results import GameRow
from host.tournaments.texts import thread_name
from host.worker import NotYet

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
Handler = Callable[[Job], Awaitable[None]]


class Dispatch(commands.Cog):
    """The outbox's Discord-side senders (``outbox_<kind>``), registered on the job runner, which claims, retries
    and gives up by the outbox's policy (host/outbox.py); another cog registers its own (Zodiac's DMs)."""

    def __init__(self, bot: ZBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        for kind in outbox.KINDS:
            handler: Handler | None = getattr(self, f"outbox_{kind}", None)
            if handler is not None:
                outbox.register(self.bot.worker, kind, handler, self.bot.host.outbox)

    async def run_keys(self, keys: Sequence[str]) -> None:
        """Deliver these jobs now (what a command owes right after its reply)."""
        await self.bot.worker.run_keys(keys)

    # ----- handlers ----------------------------------------------------------------------------

    async def outbox_thread(self, job: Job) -> None:
        """A started game's thread (found, or created from its challenge message) and its first board."""
        assert job.game_id is not None and job.dedupe is not None
        row = await self.bot.host.session.row(job.game_id)
        thread = await self.ensure_thread(row)
        report = await self.bot.host.boards.replay_report(row.id, int(job.payload.get("upto", 0)), 0)
        report.row.thread_id = thread.id
        sent = await thread.send(**await report_message(self.bot, report), nonce=outbox.nonce(job.dedupe))
        await board_shown(self.bot, report, sent.channel.id, sent.id)

    async def ensure_thread(self, row: GameRow) -> discord.abc.Messageable:
        if row.thread_id is not None and (known := await thread_of(self.bot, row.thread_id)) is not None:
            return known
        name = thread_name(engines.get(row.game).title, row.id, row.settings)
        channel = await thread_of(self.bot, row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise NotYet(f"game {row.id} has no channel to open its thread in")
        thread: discord.Thread | None = None
        if row.message_id is not None:  # a thread made from a message has the message's id
            try:
                found = await self.bot.fetch_channel(row.message_id)
                thread = found if isinstance(found, discord.Thread) else None
            except discord.NotFound:
                thread = None
            if thread is None:
                message = channel.get_partial_message(row.message_id)
                try:
                    await message.edit(view=None)
                    thread = await message.create_thread(name=name, auto_archive_duration=10080)
                except discord.NotFound:  # the challenge message was deleted: a thread of its own
                    thread = None
        if thread is None:
            thread = next((t for t in channel.threads if t.name == name), None)
        if thread is None:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        await self.bot.host.turns.set_thread(row.id, thread.id, row.message_id)
        return thread

    async def outbox_post(self, job: Job) -> None:
        """A board post a crash (or Discord) kept from its thread, as it was when the moves were made."""
        assert job.game_id is not None and job.dedupe is not None
        row = await self.bot.host.session.row(job.game_id)
        if row.thread_id is None:
            raise NotYet(f"game {row.id} has no thread yet")
        channel = await thread_of(self.bot, row.thread_id)
        if channel is None:
            raise NotYet(f"the thread of game {row.id} is unreachable")
        p = job.payload
        report = await self.bot.host.boards.replay_report(row.id, int(p["upto"]), int(p.get("count", 1)),
                                                   str(p.get("prefix", "")))
        sent = await channel.send(**await report_message(self.bot, report), nonce=outbox.nonce(job.dedupe))
        await board_shown(self.bot, report, sent.channel.id, sent.id)

    async def outbox_notice(self, job: Job) -> None:
        assert job.game_id is not None and job.dedupe is not None
        row = await self.bot.host.session.row(job.game_id)
        channel = await thread_of(self.bot, row.thread_id or row.channel_id)
        if channel is None:
            raise NotYet(f"no channel for game {row.id}")
        quiet = discord.AllowedMentions.none() if job.payload.get("quiet") else MENTION_USERS
        reply = job.payload.get("reply_to") if row.thread_id is None else None
        await channel.send(str(job.payload["text"])[:2000], nonce=outbox.nonce(job.dedupe), allowed_mentions=quiet,
                           reference=reply_to(row.channel_id, reply))

    async def outbox_remind(self, job: Job) -> None:
        """By DM when the player asked for DMs; in the thread (with a mention) otherwise or when DMs are closed.
        A retry after the game ended or the turn was played is stale ("it is your move" would be wrong): dropped."""
        assert job.dedupe is not None
        if not await self.bot.host.correspondence.owes_reminder(job.dedupe):
            log.info("reminder %s dropped: its turn is over", job.dedupe)
            return
        p = job.payload
        text = str(p["text"])[:2000]
        if p.get("dm"):
            try:
                user = self.bot.get_user(int(p["user"])) or await self.bot.fetch_user(int(p["user"]))
                await user.send(text, nonce=outbox.nonce(job.dedupe))
                return
            except discord.Forbidden:
                log.info("DMs closed for %s: reminding in the thread", p["user"])
        thread = await thread_of(self.bot, p.get("thread_id"))
        if thread is not None:
            await thread.send(text, allowed_mentions=MENTION_USERS, nonce=outbox.nonce(job.dedupe + ":thread"))

    async def outbox_digest(self, job: Job) -> None:
        """A daily digest its process took but did not send (it died): by DM, and not at all when DMs are closed."""
        assert job.dedupe is not None
        try:
            user = self.bot.get_user(int(job.payload["user"])) or await self.bot.fetch_user(int(job.payload["user"]))
            await user.send(str(job.payload["text"])[:2000], nonce=outbox.nonce(job.dedupe))
        except discord.Forbidden:
            log.info("digest for %s not sent: DMs closed", job.payload["user"])

    async def outbox_match_next(self, job: Job) -> None:
        """A match game ended and its process did not start the next one (it died): start and post it here."""
        assert job.game_id is not None
        report = await self.bot.host.matches.continue_after(job.game_id)
        if report is not None:
            await post_report(self.bot, report)

    async def outbox_retire(self, job: Job) -> None:
        """A game ended: its secret-choice menus and draw offer close, an aborted game's board loses its buttons."""
        assert job.game_id is not None
        await retire_ended(self.bot, job.game_id)

    async def outbox_challenge_expire(self, job: Job) -> None:
        """Withdraw a challenge nobody answered in time, and say so on its message."""
        assert job.game_id is not None
        row = await self.bot.host.lobby.expire(job.game_id)
        if row is None or row.message_id is None:
            return
        channel = await thread_of(self.bot, row.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        title = engines.get(row.game).title
        try:
            await channel.get_partial_message(row.message_id).edit(
                content=f"**{title}** #{row.id}: this challenge expired unanswered.", view=None)
        except discord.NotFound:
            pass


async def setup(bot: ZBot) -> None:
    await bot.add_cog(Dispatch(bot))
