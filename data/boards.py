"""Where each game's newest board message is: the bot retires the old board's buttons with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from data import jobs
from data.db import Database, Tx


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
            await self._set(conn, post, now)

    async def shown(self, post: BoardPost, *, done_key: str | None, hurry: Sequence[str],
                    now: float) -> tuple[BoardPost | None, int]:
        """A board is on screen, in one transaction: it becomes the live board (unless a newer one already is),
        the outbox job that owed it is done, and the game's pending jobs of the kinds in ``hurry`` (the AI's
        reply, which waited for this board) are due now. Returns the board it replaces (if another message) and
        how many jobs were made due."""
        async with self.db.transaction() as conn:
            previous = await self._get(conn, post.game_id)
            if previous is None or previous.ply <= post.ply:  # else a late post (the outbox after a crash)
                await self._set(conn, post, now)
            if done_key is not None:
                await jobs.done_key(conn, done_key, now)
            hurried = await jobs.hurry(conn, post.game_id, hurry, now)
        if previous is not None and previous.ply > post.ply:
            return post, hurried
        return (previous if previous is not None and previous.message_id != post.message_id else None), hurried

    @staticmethod
    async def _get(conn: Tx, game_id: int) -> BoardPost | None:
        row = await conn.fetchone("SELECT game_id, channel_id, message_id, ply FROM board_posts WHERE game_id = ?",
                                  (game_id,))
        return BoardPost(row["game_id"], row["channel_id"], row["message_id"], row["ply"]) if row else None

    @staticmethod
    async def _set(conn: Tx, post: BoardPost, now: float) -> None:
        await conn.execute(
            "INSERT INTO board_posts (game_id, channel_id, message_id, ply, posted_at) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, ply = excluded.ply, posted_at = excluded.posted_at",
            (post.game_id, post.channel_id, post.message_id, post.ply, now))
