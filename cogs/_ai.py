"""The Discord side of AI players that every game shares: the ``ai`` option's seating and ``/<game> hint``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs._delivery import deliver_owed
from host.play import bots
from host.results import HostError

if TYPE_CHECKING:
    from zbot import ZBot

AI_CHOICES = [app_commands.Choice(name=level, value=level) for level in bots.LEVELS]
AI_HELP = "Play against the bot at this level: it takes every seat left open"


def seat_users(me: int, opponents: list[discord.User | discord.Member | None], open_seats: int,
               ai: str | None) -> tuple[list[int | None], int]:
    """Opponents' user ids in seat order (``None``: not named) and the open seats left, with AI seats filled.

    Naming the bot itself means an AI (``ai`` or medium). With a level, the unnamed positions become AI
    seats in order, so ``opponent2`` stays the challenger's partner in team games.
    """
    level = ai
    ids: list[int | None] = []
    for user in opponents:
        if user is not None and user.id == me:
            level = level or bots.DEFAULT_LEVEL
            ids.append(bots.user_of(level))
        elif user is not None and user.bot:
            raise HostError("Other bots cannot play; challenge a person, or choose an `ai` level.")
        else:
            ids.append(user.id if user is not None else None)
    if level is None:
        return ids, open_seats
    robot = bots.user_of(level)
    filled: list[int | None] = []
    for user in ids:
        if user is None and open_seats > 0:
            filled.append(robot)
            open_seats -= 1
        else:
            filled.append(user)
    filled += [robot] * open_seats
    if robot not in filled:
        raise HostError("Every seat has a person already: leave a seat open (`open_seats`) for the AI.")
    return filled, 0


class HintCommand:
    """Mixed into every game's group: ``/<game> hint`` (the bot's hard level, for your eyes only)."""

    bot: ZBot

    @app_commands.command(name="hint", description="The hard AI's move for your position, shown only to you")
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        row = await self._game_here(interaction)  # type: ignore[attr-defined]
        why = "A hint is a few seconds of the bot's hardest thinking"
        with self.bot.hints.turn(interaction.user.id, why) as ticket:
            await interaction.response.defer(ephemeral=True, thinking=True)  # the search may take seconds
            try:
                hint = await self.bot.ai.hint(row.id, interaction.user.id)
            except HostError as error:
                await interaction.followup.send(str(error), ephemeral=True)  # a refused hint costs nothing
                return
            ticket.served = True
        await interaction.followup.send(f"💡 Hint for #{row.id}: `{hint.move}` ({hint.label})"[:2000], ephemeral=True)
        if hint.notice_key is not None:
            await deliver_owed(self.bot, [hint.notice_key])
