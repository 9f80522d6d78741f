"""Imported game records: stored once, read by id whenever a replay button is pressed."""

from __future__ import annotations

import json
from typing import Any

from data.db import Database


class RecordStore:
    """The ``records`` table; the host validates a record before it gets here."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add(self, *, game: str, data: dict[str, Any], imported_by: int, guild_id: int | None,
                  now: float) -> int:
        async with self.db.transaction() as conn:
            return await conn.insert(
                "INSERT INTO records (game, data, imported_by, guild_id, created_at) VALUES (?, ?, ?, ?, ?)",
                (game, json.dumps(data), imported_by, guild_id, now))

    async def get(self, record_id: int) -> tuple[str, dict[str, Any], int, int | None] | None:
        """(game, record data, who imported it, server), or None when there is no such record."""
        row = await self.db.fetchone("SELECT game, data, imported_by, guild_id FROM records WHERE id = ?",
                                     (record_id,))
        return (row["game"], json.loads(row["data"]), row["imported_by"], row["guild_id"]) if row else None
