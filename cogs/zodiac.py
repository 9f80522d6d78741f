"""``/zodiac``: Zodiac Chess. The side duel and the king choice are secret, so they go by DM.

When a secret choice begins for both players, each gets a DM with a select menu of their options.
A player whose DMs are closed gets a button in the thread that opens the same menu privately.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs._buttons import ForGame
from cogs._delivery import (
    MENTION_USERS,
    bot_of,
    close_live,
    close_menus,
    ended_why,
    menu_closed,
    post_report,
    thread_of,
)
from cogs._errors import guarded
from cogs._game import GameCog
from cogs._new import new_command
from engines import CHANCE
from host import outbox
from host.outbox import Job
from host.play.turns import choice_menu
from host.results import HostError, Report

if TYPE_CHECKING:
    from zbot import ZBot

log = logging.getLogger(__name__)
SECRET_PHASES = {"duel": "your secret pick for the side duel", "king": "your secret king"}


async def choice_view(bot: ZBot, game_id: int, user_id: int) -> discord.ui.View | None:
    """A select menu of the user's legal secret choices, or None when they have none now."""
    choices = await bot.host.boards.move_choices(game_id, user_id, "")
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(SecretChoice(game_id, choices))
    return view


class SecretChoice(ForGame, discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"zs:(?P<game_id>[0-9]+)"):
    """The duel pick or king choice as a select menu; the host checks that it is still the user's to make."""

    def __init__(self, game_id: int, choices: list[tuple[str, str]] | None = None) -> None:
        options = [discord.SelectOption(label=label[:100], value=value) for label, value in (choices or [])]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"zs:{game_id}", placeholder="Choose…", options=options or [discord.SelectOption(label="-")])
        super().__init__(select)
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values:
            raise HostError("Choose one of the options.")
        bot = bot_of(interaction)
        try:
            report = await bot.host.turns.play(self.game_id, interaction.user.id, str(values[0]))
        except HostError as error:
            row = await bot.host.session.row(self.game_id)
            if row.status != "active":  # a menu the game's end left open (its closing failed): say so, once
                await self.answered(interaction, menu_closed(self.game_id, ended_why(row)))
                return
            if await choice_view(bot, self.game_id, interaction.user.id) is not None:
                raise  # the choice is still open: keep the menu, say what went wrong
            await self.answered(interaction, f"**Zodiac Chess** #{self.game_id}: {error}")
            return
        await self.answered(interaction, f"You chose **{values[0]}**. Game #{self.game_id}.")
        await post_report(bot, report)

    async def answered(self, interaction: discord.Interaction, content: str) -> None:
        """This menu is done with: it says ``content`` and loses its select, and is no longer the player's live
        menu (nothing is left to close; any newer menu stays live)."""
        await interaction.response.edit_message(content=content, view=None)
        if interaction.message is not None:
            await bot_of(interaction).host.turns.live_closed(self.game_id, [choice_menu(interaction.user.id)],
                                                             message_id=interaction.message.id)


class ChoosePrivately(ForGame, discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"zp:(?P<game_id>[0-9]+)"):
    """For players whose DMs are closed: opens the secret choice as an ephemeral message."""

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Choose privately", style=discord.ButtonStyle.primary,
                                           custom_id=f"zp:{game_id}"))
        self.game_id = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        view = await choice_view(bot_of(interaction), self.game_id, interaction.user.id)
        if view is None:
            raise HostError("You have no secret choice to make in this game right now.")
        await interaction.response.send_message("Only you see this:", view=view, ephemeral=True)


class ZodiacCog(GameCog, group_name="zodiac", group_description="Zodiac Chess: thirteen animals, hidden kings"):
    game = "zodiac"

    def __init__(self, bot: ZBot) -> None:
        super().__init__(bot)
        outbox.register(bot.worker, "choice_dm", self.outbox_choice_dm, bot.host.outbox)

    new = new_command("zodiac", hidden={"sides"}, match=(1, 3, 5))  # sides: the duel, or swapped within a match

    @commands.Cog.listener()
    async def on_game_report(self, report: Report) -> None:
        """A choice made elsewhere (a typed move, a timeout) closes the menus still open for it. A game's end closes
        them all, saying so, by the job its final move owes (``retire_ended``). Only a report with a secret move
        (a pick, a king: ``Report.secret``) can have made a choice, so every other move reads nothing here."""
        if report.row.game != self.game or report.outcome is not None or not report.secret:
            return
        observation = await self.bot.host.boards.observation(report.row.id, None)
        movers = [s for s in observation["to_move"] if s != CHANCE]
        choosing = {report.row.user_at(s) for s in movers} if observation.get("phase") in SECRET_PHASES else set()
        chosen = {s.user_id for s in report.row.seats if s.user_id is not None} - choosing
        await close_menus(self.bot, report.row.id, "already chosen", chosen)

    async def outbox_choice_dm(self, job: Job) -> None:
        """An owed DM (host/outbox.py): when a secret choice began for both players, each gets the menu.
        Sent by the job runner right after the board, or retried later (a failed send, a restart): still sent
        when the opponent has chosen meanwhile, skipped only once this player's choice of that round is made."""
        assert job.game_id is not None and job.dedupe is not None
        game_id, user_id = job.game_id, int(job.payload["user"])
        phase = (await self.bot.host.boards.observation(game_id, None)).get("phase")
        if phase not in SECRET_PHASES or not await self.bot.host.boards.owes_choice(
                game_id, user_id, int(job.payload["upto"])):
            return
        await self.offer_choice(game_id, user_id, SECRET_PHASES[phase], outbox.nonce(job.dedupe))

    async def offer_choice(self, game_id: int, user_id: int, what: str, nonce: str | None) -> None:
        view = await choice_view(self.bot, game_id, user_id)
        if view is None:
            return
        text = f"**Zodiac Chess** #{game_id}: choose {what}. Nobody else sees it until the game reveals it."
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await self.track_menu(game_id, user_id, await user.send(text, view=view, nonce=nonce), "menu")
            return
        except discord.Forbidden:
            log.info("DMs closed for %s; offering the choice in the thread", user_id)
        row = await self.bot.host.session.row(game_id)
        thread = await thread_of(self.bot, row.thread_id)
        if thread is not None:
            fallback = discord.ui.View(timeout=None)
            fallback.add_item(ChoosePrivately(game_id))
            await self.track_menu(game_id, user_id, await thread.send(
                f"<@{user_id}>, your DMs are closed: press the button to choose {what} privately.",
                view=fallback, allowed_mentions=MENTION_USERS, nonce=nonce), "button")

    async def track_menu(self, game_id: int, user_id: int, sent: discord.Message, what: str) -> None:
        """The newest menu is the open one, recorded in the database (a restarted process closes it too); an older
        one is closed. A repeated send of the same owed DM comes back as the first message (its nonce): that one
        stays open."""
        old = await self.bot.host.turns.live_shown(game_id, choice_menu(user_id), sent.channel.id, sent.id)
        if old is not None:
            await close_live(self.bot, old.channel_id, old.message_id,
                             menu_closed(game_id, f"a new round began: use the newest {what}"))


async def setup(bot: ZBot) -> None:
    bot.add_dynamic_items(SecretChoice, ChoosePrivately)
    await bot.add_cog(ZodiacCog(bot))
