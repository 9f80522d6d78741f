"""Where each game's newest board message is: the bot retires the old board's buttons with it."""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database


@dataclass(frozen=True)
class BoardPost:
    game_id: int
    channel_id: int
    message_id: int
    ply: int


class BoardPosts:
    """One row per game, replaced whenever a newer board is shown."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game_id: int) -> BoardPost | None:
        row = await self.db.fetchone("SELECT game_id, channel_id, message_id, ply FROM board_posts WHERE game_id = ?",
                                     (game_id,))
        return BoardPost(row["game_id"], row["channel_id"], row["message_id"], row["ply"]) if row else None

    async def set(self, post: BoardPost, now: float) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO board_posts (game_id, channel_id, message_id, ply, posted_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, ply = excluded.ply, posted_at = excluded.posted_at",
                (post.game_id, post.channel_id, post.message_id, post.ply, now))
