"""Seasons: each guild numbers its own, starting at 1; a new season opens a fresh board, all-time stays.

Discord-free: the permission rule takes a boolean or anything with ``manage_guild``/``administrator``
attributes (``discord.Permissions``), so tests can call it without a client.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from data import seasons as stored
from data.db import Database, Tx
from host.play.captions import mention
from host.results import HostError

FIRST_SEASON = 1
RESTART_GUARD = 86_400.0
"""Seconds after a season began during which ``/season start`` alone changes nothing: a second start so soon
is a double submit (a double click, two admins, a retry), and an empty season cannot be taken back. Naming the
season (``season:3``) begins it all the same; a named season that has begun already is refused at any time."""


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
    found = await stored.last(conn, guild_id)
    return found[0] if found is not None else FIRST_SEASON


async def seasons(db: Database, guild_id: int) -> list[Season]:
    started = [Season(number, at) for number, at in await stored.started(db, guild_id)]
    return [Season(FIRST_SEASON, None), *started]


async def start_season(db: Database, guild_id: int, user_id: int, now: float, season: int | None = None) -> int:
    """Open the next season for the guild and return its number. Callers check ``may_start_season`` first.

    Idempotent against a double submit: ``season`` (when given) must be the next one, and without it a start
    within ``RESTART_GUARD`` of the last is refused with a ``HostError`` that says how to go on. Two starts at
    once are serialized by the guild's lock, so the second sees the first's season.
    """
    async with db.transaction() as conn:
        await conn.lock(f"seasons:{guild_id}")
        last = await stored.last(conn, guild_id)
        current = last[0] if last else FIRST_SEASON
        number = current + 1
        if season is not None and season != number:
            raise HostError(_begun(season, last) if season <= current else
                            f"This server is in season {current}: the next to begin is season {number}.")
        if season is None and last is not None and now - last[1] < RESTART_GUARD:
            raise HostError(f"Season {current} began on this server <t:{int(last[1])}:R>{_by(last[2])}, so nothing"
                            " changed: a second start so soon is taken for a double submit. To begin season"
                            f" {number} all the same: `/season start season:{number}`.")
        if not await stored.add(conn, guild_id, number, now, user_id):  # only a writer that skipped the lock
            raise HostError(_begun(number, None))
    return number


def _by(user: int | None) -> str:
    return f" (by {mention(user)})" if user is not None else ""


def _begun(season: int, last: tuple[int, float, int | None] | None) -> str:
    """The refusal of a named season that has begun already."""
    if season == FIRST_SEASON:
        return "Season 1 has already begun: it began with this server's first game. Nothing changed."
    if last is not None and last[0] == season:
        return f"Season {season} has already begun on this server <t:{int(last[1])}:R>{_by(last[2])}. Nothing changed."
    return f"Season {season} has already begun on this server. Nothing changed."
