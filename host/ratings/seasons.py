"""Seasons: each guild numbers its own, starting at 1; a new season opens a fresh board, all-time stays.

Discord-free: the permission rule takes a boolean or anything with ``manage_guild``/``administrator``
attributes (``discord.Permissions``), so tests can call it without a client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from data import seasons as stored
from data.db import Database, Tx

FIRST_SEASON = 1


class GuildPermissions(Protocol):
    manage_guild: bool
    administrator: bool


def may_start_season(permissions: bool | GuildPermissions | None) -> bool:
    """Only server admins (Manage Server, or Administrator) may start a season: it resets a public board."""
    if permissions is None:
        return False
    if isinstance(permissions, bool):
        return permissions
    return bool(getattr(permissions, "manage_guild", False) or getattr(permissions, "administrator", False))


@dataclass(frozen=True)
class Season:
    number: int
    started_at: float | None
    """``None`` for season 1, which began with the guild's first game."""


async def current_season(conn: Tx | Database, guild_id: int) -> int:
    """Takes a transaction too, so the finish hook can call it inside its own."""
    found = await stored.latest(conn, guild_id)
    return found if found is not None else FIRST_SEASON


async def seasons(db: Database, guild_id: int) -> list[Season]:
    started = [Season(number, at) for number, at in await stored.started(db, guild_id)]
    return [Season(FIRST_SEASON, None), *started]


async def start_season(db: Database, guild_id: int, user_id: int, now: float) -> int:
    """Open the next season for the guild and return its number. Callers check ``may_start_season`` first."""
    async with db.transaction() as conn:
        number = await current_season(conn, guild_id) + 1
        await stored.add(conn, guild_id, number, now, user_id)
    return number
