"""Names the cogs hand to Discord: players' display names for pictures, autocomplete choices that fit.

Discord refuses a whole autocomplete answer for one bad choice, and a picture must not wait on a name:
these helpers make both safe.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands


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
