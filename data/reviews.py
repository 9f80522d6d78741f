"""Stored game reviews: one per finished game, written once by the AI pool's review job and read by the replay."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from data.db import Database


@dataclass(frozen=True)
class StoredReview:
    game_id: int
    level: str
    data: dict[str, Any]
    created_at: float


class Reviews:
    """Keyed by game: a second write of the same game keeps the first (a job retried after a crash)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game_id: int) -> StoredReview | None:
        row = await self.db.fetchone("SELECT game_id, level, data, created_at FROM reviews WHERE game_id = ?",
                                     (game_id,))
        if row is None:
            return None
        return StoredReview(row["game_id"], row["level"], json.loads(row["data"]), row["created_at"])

    async def put(self, game_id: int, level: str, data: dict[str, Any], now: float) -> bool:
        """Store the review; False when the game already had one (that one stays)."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "INSERT INTO reviews (game_id, level, data, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO NOTHING", (game_id, level, json.dumps(data), now))
        return changed == 1
