"""Limits for expensive commands: a per-user cooldown, and deferring with private refusals.

``@expensive()`` on an app command (import, GIF, hint ...) lets each user run it once per
``COOLDOWN`` seconds; the error handler in cogs/_shared.py answers a user on cooldown privately.
A command whose work may take over a second defers first (``interaction.response.defer``);
``refuse_after_defer`` then turns the public "thinking…" placeholder into a private refusal.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

T = TypeVar("T")
log = logging.getLogger(__name__)
COOLDOWN = 10.0
"""Seconds between two expensive commands of one user."""


def expensive(seconds: float = COOLDOWN) -> Callable[[T], T]:
    """A per-user cooldown (one use per ``seconds``), shared by every server."""
    def key(interaction: discord.Interaction) -> int:
        return interaction.user.id

    return app_commands.checks.cooldown(1, seconds, key=key)  # type: ignore[return-value]


def cooldown_text(error: app_commands.CommandOnCooldown) -> str:
    return f"This command is busy work for the bot: try again in {error.retry_after:.0f} s."


MAX_ERROR = 1900
"""Characters of a refusal shown to a user (Discord's limit is 2,000); a longer one is cut and logged whole."""


def capped(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` within ``limit`` characters; a cut text ends in "…" and is logged whole."""
    if len(text) <= limit:
        return text
    log.info("refusal cut from %d characters: %s", len(text), text)
    return text[:limit - 1] + "…"


async def refuse_after_defer(interaction: discord.Interaction, text: str) -> None:
    """The deferred placeholder is public: remove it and tell only the user why."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        pass
    await interaction.followup.send(capped(text), ephemeral=True)




class Ration:
    """A per-user cooldown that only successful uses spend (a hint refused as 'not your turn' costs nothing)."""

    def __init__(self, seconds: float = COOLDOWN, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.last: dict[int, float] = {}

    def wait(self, user_id: int) -> float:
        """Seconds the user must still wait; 0 when they may go ahead."""
        since = self.clock() - self.last.get(user_id, float("-inf"))
        return max(0.0, self.seconds - since)

    def spend(self, user_id: int) -> None:
        self.last[user_id] = self.clock()
