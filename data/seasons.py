"""Seasons per guild: only started seasons have a row (season 1 is implicit, host/ratings/seasons.py)."""

from __future__ import annotations

from data.db import Database, Tx


async def started(db: Database, guild_id: int) -> list[tuple[int, float]]:
    """(season, start time) of every started season, in order."""
    rows = await db.fetchall("SELECT season, started_at FROM seasons WHERE guild_id = ? ORDER BY season", (guild_id,))
    return [(int(r["season"]), float(r["started_at"])) for r in rows]


async def last(conn: Tx | Database, guild_id: int) -> tuple[int, float, int | None] | None:
    """(season, start time, who started it) of the latest started season, or None (still in season 1). Takes a
    transaction too, for the finish hook."""
    row = await conn.fetchone("SELECT season, started_at, started_by FROM seasons WHERE guild_id = ?"
                              " ORDER BY season DESC LIMIT 1", (guild_id,))
    if row is None:
        return None
    by = row["started_by"]
    return int(row["season"]), float(row["started_at"]), int(by) if by is not None else None


async def add(conn: Tx, guild_id: int, season: int, now: float, started_by: int) -> bool:
    """Record a season's start; False when that season had begun already (nothing written, no error)."""
    added = await conn.execute("INSERT INTO seasons (guild_id, season, started_at, started_by) VALUES (?, ?, ?, ?)"
                               " ON CONFLICT (guild_id, season) DO NOTHING", (guild_id, season, now, started_by))
    return added == 1
