"""Where a game's messages with live buttons are: its newest board (the bot retires the old board's buttons with it),
and the messages that belong to one moment of the game (a draw offer, a secret-choice menu), closed when it ends."""

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
        if self.db.dialect == "postgres":
            previous, hurried = await self._shown_at_once(post, done_key, hurry, now)
        else:
            previous, hurried = await self._shown(post, done_key, hurry, now)
        if previous is not None and previous.ply > post.ply:
            return post, hurried
        return (previous if previous is not None and previous.message_id != post.message_id else None), hurried

    async def _shown(self, post: BoardPost, done_key: str | None, hurry: Sequence[str],
                     now: float) -> tuple[BoardPost | None, int]:
        """``shown`` as a transaction of several statements (SQLite's statements are calls, not round trips)."""
        async with self.db.transaction() as conn:
            previous = await self._get(conn, post.game_id)
            if previous is None or previous.ply <= post.ply:  # else a late post (the outbox after a crash)
                await self._set(conn, post, now)
            if done_key is not None:
                await jobs.done_key(conn, done_key, now)
            hurried = await jobs.hurry(conn, post.game_id, hurry, now)
        return previous, hurried

    async def _shown_at_once(self, post: BoardPost, done_key: str | None, hurry: Sequence[str],
                             now: float) -> tuple[BoardPost | None, int]:
        """``shown`` on PostgreSQL as one statement, so one round trip where ``_shown`` takes six (``BEGIN``,
        four statements, ``COMMIT``): its parts see one snapshot and land together. The live board is replaced
        unless it is newer (the upsert's own condition, on the row it locked); the job done and the jobs
        hurried are other rows (``hurry`` never names the done job's kind; the key is excluded all the same)."""
        rows = await self.db.write(
            "WITH previous AS (SELECT channel_id, message_id, ply FROM board_posts WHERE game_id = ?),"
            " live AS (INSERT INTO board_posts (game_id, channel_id, message_id, ply, posted_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id,"
            " message_id = excluded.message_id, ply = excluded.ply, posted_at = excluded.posted_at"
            " WHERE board_posts.ply <= excluded.ply),"
            " done AS (UPDATE jobs SET done_at = ?, lease_owner = NULL, lease_until = NULL"
            " WHERE dedupe = ? AND done_at IS NULL),"
            " hurried AS (UPDATE jobs SET due_at = ? WHERE game_id = ? AND done_at IS NULL AND due_at > ?"
            " AND kind = ANY(?::text[]) AND (CAST(? AS text) IS NULL OR dedupe IS DISTINCT FROM ?) RETURNING 1)"
            " SELECT p.channel_id, p.message_id, p.ply, (SELECT COUNT(*) FROM hurried) AS hurried"
            " FROM (SELECT 1) AS one LEFT JOIN previous p ON TRUE",
            (post.game_id, post.game_id, post.channel_id, post.message_id, post.ply, now, now, done_key, now,
             post.game_id, now, list(hurry), done_key, done_key))
        found = rows[0]
        previous = (BoardPost(post.game_id, found["channel_id"], found["message_id"], found["ply"])
                    if found["ply"] is not None else None)
        return previous, int(found["hurried"])

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


@dataclass(frozen=True)
class LiveMessage:
    """A message whose components belong to one moment of a game: ``purpose`` names the moment (``draw``,
    ``choice:<user>``)."""

    game_id: int
    purpose: str
    channel_id: int
    message_id: int


class LiveMessages:
    """One row per (game, purpose): the newest such message; taken (deleted and returned) by whoever closes it, so
    each is closed once, by this process or, after a restart, by the next."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def put(self, message: LiveMessage, now: float) -> LiveMessage | None:
        """Record ``message`` as the live one of its purpose; returns the one it replaces (another message)."""
        async with self.db.transaction() as conn:
            row = await conn.fetchone("SELECT channel_id, message_id FROM live_messages WHERE game_id = ? AND"
                                      " purpose = ?", (message.game_id, message.purpose))
            await conn.execute(
                "INSERT INTO live_messages (game_id, purpose, channel_id, message_id, posted_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, purpose) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, posted_at = excluded.posted_at",
                (message.game_id, message.purpose, message.channel_id, message.message_id, now))
        if row is None or row["message_id"] == message.message_id:
            return None
        return LiveMessage(message.game_id, message.purpose, row["channel_id"], row["message_id"])

    async def take(self, game_id: int, purposes: Sequence[str] | None = None, *,
                   message_id: int | None = None) -> list[LiveMessage]:
        """Forget the game's live messages of ``purposes`` (None: all), or only ``message_id`` among them, and return
        them: the caller closes them."""
        where, params = "game_id = ?", [game_id]
        if purposes is not None:
            if not purposes:
                return []
            where += f" AND purpose IN ({', '.join('?' for _ in purposes)})"
            params += list(purposes)
        if message_id is not None:
            where += " AND message_id = ?"
            params.append(message_id)
        select = f"SELECT purpose, channel_id, message_id FROM live_messages WHERE {where} ORDER BY purpose"
        if not await self.db.fetchall(select, tuple(params)):  # the common case (every board post asks): no write
            return []
        async with self.db.transaction() as conn:
            rows = await conn.fetchall(select, tuple(params))
            if rows:
                await conn.execute(f"DELETE FROM live_messages WHERE {where}", tuple(params))
        return [LiveMessage(game_id, r["purpose"], r["channel_id"], r["message_id"]) for r in rows]
