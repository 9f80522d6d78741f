"""Private answers to a refusal or a failure: every slash command's error handler and every button's guard.

A host refusal (``HostError``, ``Busy``) is told to the one user who caused it; anything else is logged and
apologised for, so a player never sees a traceback nor an interaction left "thinking…".
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from cogs._limits import admitted, capped, refuse_after_defer
from host.results import Busy, HostError

log = logging.getLogger(__name__)


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
    if isinstance(error, app_commands.NoPrivateMessage):
        await send_error(interaction, "Games are played in a server channel, not in DMs.")
        return
    name = interaction.command.qualified_name if interaction.command else "?"
    log.error("command /%s failed", name, exc_info=original)
    await send_error(interaction, GENERIC_FAILURE)


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
