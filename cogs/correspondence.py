"""Correspondence play in Discord: ``/games``, ``/history``, ``/notify``, ``/vacation`` and the tick's sender.

The job runner ticks (``Scheduler.register``); this cog only delivers what ``Scheduler.tick`` decided:
timeouts with the board in the game thread, reminders by DM (a thread mention when DMs are closed), and
daily digests. Everything due lives in the database, so the first tick after a restart catches up.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs._delivery import MENTION_USERS, deliver_owed, post_report, reply_to, thread_of
from cogs.records import history_view
from host import outbox
from host.correspondence import clocks
from host.correspondence.scheduler import Tick
from host.correspondence.service import NOTIFY_MODES, Reminder
from host.results import HostError

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
CLOCK_CHOICES = [app_commands.Choice(name=clocks.parse(c).describe() if c != "none" else "no clock", value=c)
                 for c in clocks.CHOICES]
"""For the ``clock`` option of each game's ``/<game> new`` command."""
MAX_TEXT = 1900


def _clip(lines: list[str], empty: str) -> str:
    """Join lines up to Discord's message limit, saying how many were left out."""
    if not lines:
        return empty
    shown: list[str] = []
    for line in lines:
        if sum(len(s) + 1 for s in shown) + len(line) > MAX_TEXT:
            shown.append(f"… and {len(lines) - len(shown)} more.")
            break
        shown.append(line)
    return "\n".join(shown)


class Correspondence(commands.Cog):
    def __init__(self, bot: ZBot) -> None:
        self.bot = bot
        self.scheduler = bot.host.scheduler

    async def cog_load(self) -> None:
        self.scheduler.register(self.bot.worker, self.deliver)

    # ----- what the tick decided ------------------------------------------------------------

    async def run_once(self) -> Tick:
        """Tick until nothing due is left and deliver it (what the job runner does every few seconds)."""
        return await self.scheduler.run_once(self.deliver)

    async def deliver(self, tick: Tick) -> None:
        for report in tick.timeouts:
            try:
                await post_report(self.bot, report)
            except discord.HTTPException:
                log.warning("could not post the timeout of game %s", report.row.id)
        for notice in tick.aborted:  # each is owed (outbox): marked done once posted, else the dispatcher posts it
            thread = await thread_of(self.bot, notice.thread_id)
            if thread is not None:
                try:
                    await thread.send(notice.text, nonce=outbox.nonce(notice.key), allowed_mentions=MENTION_USERS,
                                      reference=reply_to(notice.thread_id, notice.reply_to))
                    await self.bot.host.outbox.done(notice.key, self.bot.host.now())
                except discord.HTTPException:
                    log.warning("could not post the abort of game %s", notice.game_id)
            await deliver_owed(self.bot, [outbox.retire_key(notice.game_id)])  # its board and menus close
            if notice.next_game is not None:  # the match goes on after a later game the clock aborted
                await post_report(self.bot, notice.next_game)
        for reminder in tick.reminders:
            await self.send_reminder(reminder)
        for digest in tick.digests:  # owed (outbox) since it was taken: marked done once sent or refused
            if not await self.send_dm(digest.user_id, digest.text, nonce=outbox.nonce(digest.key)):
                log.info("digest for %s not sent: DMs closed", digest.user_id)
            await self.bot.host.outbox.done(digest.key, self.bot.host.now())

    async def send_reminder(self, reminder: Reminder) -> None:
        """Owed (outbox) since it was recorded: marked done once sent, else the dispatcher sends it."""
        key = reminder.key
        if reminder.dm and await self.send_dm(reminder.user_id, reminder.text, nonce=outbox.nonce(key)):
            await self.bot.host.outbox.done(reminder.key, self.bot.host.now())
            return
        thread = await thread_of(self.bot, reminder.thread_id)
        if thread is None:
            return
        try:
            await thread.send(reminder.text, allowed_mentions=MENTION_USERS,
                              nonce=outbox.nonce(key and key + ":thread"))
            await self.bot.host.outbox.done(reminder.key, self.bot.host.now())
        except discord.HTTPException:
            log.warning("could not remind %s in game %s", reminder.user_id, reminder.game_id)

    async def send_dm(self, user_id: int, text: str, nonce: str | None = None) -> bool:
        """False when the user cannot be DMed (Forbidden, code 50007) or is unknown."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text[:2000], nonce=nonce)
        except discord.HTTPException as error:
            if not isinstance(error, discord.Forbidden):
                log.warning("DM to %s failed: %s", user_id, error)
            return False
        return True

    # ----- commands -----------------------------------------------------------------------

    @app_commands.command(name="games", description="Active games, most urgent first")
    @app_commands.describe(user="Whose games to show (default: yours)")
    async def games(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        target = self._whose(interaction, user)
        await interaction.response.defer(ephemeral=True, thinking=True)  # a long list can take a second or more
        lines = await self.bot.host.correspondence.games_overview(target.id, interaction.guild_id)
        start = ". Start one with `/<game> new` (for example `/zrtz new`), or see `/help`"
        reader = None if target.id == interaction.user.id else target.id  # someone else's list: "their turn"
        await self._listing(interaction, target, "active games", [g.text(reader) for g in lines],
                            "none" + (start if target.id == interaction.user.id else ""))

    async def _listing(self, interaction: discord.Interaction, target: discord.User | discord.Member, title: str,
                       lines: list[str], empty: str, view: discord.ui.View | None = None) -> None:
        """A private list about ``target``: the caller's own, or someone else's without pinging them."""
        whose = "Your" if target.id == interaction.user.id else f"<@{target.id}>'s"
        text = _clip([f"{whose} {title}:", *lines] if lines else [], f"{whose} {title}: {empty}.")
        await interaction.followup.send(text, ephemeral=True, view=view or discord.utils.MISSING,
                                        allowed_mentions=discord.AllowedMentions.none())

    @staticmethod
    def _whose(interaction: discord.Interaction,
               user: discord.User | discord.Member | None) -> discord.User | discord.Member:
        """Your own games anywhere; someone else's only in a server, and only that server's games."""
        if user is not None and user.id != interaction.user.id and interaction.guild_id is None:
            raise HostError("Another player's games can be listed only in a server you share, not in DMs.")
        return user or interaction.user

    @app_commands.command(name="history", description="Finished games with their results")
    @app_commands.describe(user="Whose games to show (default: yours)", page="Older games: page 2, 3 …")
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None,
                      page: app_commands.Range[int, 1, 1000] = 1) -> None:
        target = self._whose(interaction, user)
        await interaction.response.defer(ephemeral=True, thinking=True)
        found = await self.bot.host.correspondence.history(target.id, interaction.guild_id, page)
        title = "finished games"
        if found.pages > 1:  # in the heading, so the way to older games is never clipped away
            more = f"; older ones: `/history page:{found.page + 1}`" if found.page < found.pages else ""
            title += f" (page {found.page} of {found.pages}, {found.total} games{more})"
        view = history_view([h.game_id for h in found.lines])  # a replay button per game
        await self._listing(interaction, target, title, [h.text() for h in found.lines], "none yet", view)

    @app_commands.command(name="notify", description="How the bot tells you it is your turn")
    @app_commands.describe(mode="thread: mentions only; dm: reminders by DM too; digest: one DM a day")
    @app_commands.choices(mode=[app_commands.Choice(name=f"{name}: {help_}"[:100], value=name)
                                for name, help_ in NOTIFY_MODES.items()])
    async def notify(self, interaction: discord.Interaction, mode: str) -> None:
        text = await self.bot.host.correspondence.set_notify(interaction.user.id, mode)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(name="vacation", description="Pause your per-move clocks (up to 14 days a year)")
    @app_commands.describe(days="How many days; live games are not paused")
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[int, 1, clocks.VACATION_DAYS_PER_YEAR]) -> None:
        text = await self.bot.host.correspondence.vacation(interaction.user.id, days)
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: ZBot) -> None:
    await bot.add_cog(Correspondence(bot))
