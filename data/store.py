"""Game rows, seats and the move log. Every change to a game bumps its version in one transaction."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from data.db import Database, Params, Row, StaleVersion, Tx


@dataclass
class Seat:
    seat: int
    user_id: int | None
    accepted: bool
    team: int = 0


@dataclass
class GameRow:
    """One row of ``games`` with its seats: everything but the move log."""

    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    message_id: int | None
    game: str
    players: int
    options: dict[str, Any]
    settings: dict[str, Any]
    status: str
    version: int
    seed: str
    creator_id: int
    created_at: float
    updated_at: float
    deadline: float | None
    result: dict[str, Any] | None
    draw_offers: list[int]
    seats: list[Seat] = field(default_factory=list)
    clock: str | None = None
    """The clock state as JSON (host/correspondence/clocks.py ``ClockState``); None for a game without clocks."""
    remind_at: float | None = None
    """When the game's next reminder is due."""
    rematch_of: int | None = None
    """The game this one is a rematch of (also in ``settings``; a column so the look-up is indexed)."""
    match_of: int | None = None
    """The first game of the match this later game belongs to (also in ``settings``)."""
    match_len: int = 1
    """Games in its match: 1, 3 or 5 (``settings["match"]``)."""
    match_pending: bool = False
    """A finished match game whose match has not yet taken its next step (next game, or decided)."""

    def seat_of(self, user_id: int) -> int | None:
        """The first seat of a user (a player may hold several seats only when playing themself)."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def seats_of(self, user_id: int) -> list[int]:
        return [s.seat for s in self.seats if s.user_id == user_id]

    def user_at(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class Move:
    ply: int
    seat: int
    text: str
    at: float


def row_to_game(row: Row, seats: list[Seat]) -> GameRow:
    """A ``games`` row and its seats as a ``GameRow`` (public: the bench's old two-statement read builds one too)."""
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], thread_id=row["thread_id"],
        message_id=row["message_id"], game=row["game"], players=row["players"],
        options=json.loads(row["options"]), settings=json.loads(row["settings"]), status=row["status"],
        version=row["version"], seed=row["seed"], creator_id=row["creator_id"], created_at=row["created_at"],
        updated_at=row["updated_at"], deadline=row["deadline"],
        result=json.loads(row["result"]) if row["result"] else None,
        draw_offers=json.loads(row["draw_offers"]), seats=seats, clock=row["clock"], remind_at=row["remind_at"],
        rematch_of=row["rematch_of"], match_of=row["match_of"], match_len=row["match_len"],
        match_pending=bool(row["match_pending"]),
    )


def indexed_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings kept in their own indexed columns too."""
    return {"rematch_of": settings.get("rematch_of"), "match_of": settings.get("match_of"),
            "match_len": int(settings.get("match", 1))}


class TooManyChallenges(Exception):
    """The creator already has the allowed number of open challenges."""


async def _insert(conn: Tx, guild_id: int | None, channel_id: int | None, game: str,
                  players: int, options: dict[str, Any], settings: dict[str, Any], seed: str, creator_id: int,
                  seats: Sequence[Seat], now: float) -> int:
    columns = indexed_settings(settings)
    game_id = await conn.insert(
        "INSERT INTO games (guild_id, channel_id, game, players, options, settings, status, seed,"
        " creator_id, created_at, updated_at, rematch_of, match_of, match_len)"
        " VALUES (?, ?, ?, ?, ?, ?, 'challenge', ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, channel_id, game, players, json.dumps(options), json.dumps(settings), seed, creator_id, now, now,
         *columns.values()),
    )
    await conn.executemany(
        "INSERT INTO seats (game_id, seat, user_id, team, accepted) VALUES (?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.team, int(s.accepted)) for s in seats],
    )
    return game_id


class GameStore:
    """The queries the host needs; no game rules here."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(self, *, guild_id: int | None, channel_id: int | None, game: str, players: int,
                     options: dict[str, Any], settings: dict[str, Any], seed: str, creator_id: int,
                     seats: Sequence[Seat], now: float, max_open: int | None = None,
                     also: Callable[[Tx, int], Awaitable[None]] | None = None) -> int:
        """A new challenge. ``max_open``: refuse (``TooManyChallenges``) when the creator already has that many
        open challenges, counted in the same transaction so a burst cannot slip past. ``also(conn, id)``
        writes more in that transaction (the job that expires the challenge)."""
        async with self.db.transaction() as conn:
            if max_open is not None:
                await conn.lock(f"challenges-of-{creator_id}")
                found = await conn.fetchone("SELECT COUNT(*) FROM games WHERE creator_id = ? AND status = 'challenge'",
                                            (creator_id,))
                if found is not None and found[0] >= max_open:
                    raise TooManyChallenges(found[0])
            game_id = await _insert(conn, guild_id, channel_id, game, players, options, settings, seed, creator_id,
                                    seats, now)
            if also is not None:
                await also(conn, game_id)
        return game_id

    async def create_rematch(self, *, rematch_of: int, guild_id: int | None, channel_id: int | None, game: str,
                             players: int, options: dict[str, Any], settings: dict[str, Any], seed: str,
                             creator_id: int, seats: Sequence[Seat], now: float) -> tuple[int, bool]:
        """``(new id, True)``; or ``(its id, False)`` when a rematch of that game is waiting or being played.

        Looked up and created in one transaction, so two presses of Rematch at once make one game.
        """
        async with self.db.transaction() as conn:
            await conn.lock(f"rematch-of-{rematch_of}")  # PostgreSQL: the second press waits, then finds the first
            live = await conn.fetchone(
                "SELECT id FROM games WHERE rematch_of = ? AND status IN ('challenge', 'active')"
                " ORDER BY id LIMIT 1", (rematch_of,))
            if live is not None:
                return int(live[0]), False
            settings = {**settings, "rematch_of": rematch_of}
            return await _insert(conn, guild_id, channel_id, game, players, options, settings, seed, creator_id,
                                 seats, now), True

    async def get(self, game_id: int) -> GameRow | None:
        """The game and its seats in one statement (every command reads it: on PostgreSQL a round trip less,
        and the seats come from the same snapshot as the game)."""
        return await self._one("g.id = ?", (game_id,))

    async def _one(self, which: str, params: Sequence[Any]) -> GameRow | None:
        """The game ``which`` (a condition on ``g``) picks, with its seats, in one statement."""
        rows = await self.db.fetchall(
            "SELECT g.*, s.seat AS seat_no, s.user_id AS seat_user, s.accepted AS seat_accepted,"
            f" s.team AS seat_team FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE {which}"
            " ORDER BY s.seat", params)
        if not rows:
            return None
        seats = [Seat(r["seat_no"], r["seat_user"], bool(r["seat_accepted"]), r["seat_team"])
                 for r in rows if r["seat_no"] is not None]
        return row_to_game(rows[0], seats)

    async def moves(self, game_id: int) -> list[Move]:
        rows = await self.db.fetchall(
            "SELECT ply, seat, text, at FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [Move(r["ply"], r["seat"], r["text"], r["at"]) for r in rows]

    async def moves_of(self, game_ids: Sequence[int]) -> dict[int, list[Move]]:
        """The move logs of many games, one query per 500 games."""
        found: dict[int, list[Move]] = {i: [] for i in game_ids}
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for r in await self.db.fetchall(f"SELECT game_id, ply, seat, text, at FROM moves WHERE game_id IN ({marks})"
                                            " ORDER BY game_id, ply", tuple(chunk)):
                found[r["game_id"]].append(Move(r["ply"], r["seat"], r["text"], r["at"]))
        return found

    async def update(self, row: GameRow, *, now: float, new_moves: Sequence[tuple[int, str]] = (),
                     first_ply: int = 0, seats: Sequence[Seat] | None = None,
                     also: Callable[[Tx], Awaitable[None]] | None = None, **changes: Any) -> int:
        """Append moves, replace seats and change columns iff the stored version is still ``row.version``.

        ``also`` runs more writes in the same transaction (ratings when a game ends), so they land
        together or not at all. Returns the new version; raises ``StaleVersion`` (and writes nothing)
        when someone was first.
        """
        if "settings" in changes:
            changes.update(indexed_settings(changes["settings"]))
        if changes.get("status") == "finished":  # a match now owes its next step (matches.resume_all)
            changes["match_pending"] = int(changes.get("match_len", row.match_len)) > 1
        encoded = {k: json.dumps(v) if k in ("options", "settings", "result", "draw_offers") and v is not None
                   else int(v) if isinstance(v, bool) else v for k, v in changes.items()}
        columns = "".join(f", {name} = ?" for name in encoded)
        update = f"UPDATE games SET version = version + 1, updated_at = ?{columns} WHERE id = ? AND version = ?"
        moves = [(row.id, first_ply + i, seat, text, now) for i, (seat, text) in enumerate(new_moves)]
        params = (now, *encoded.values(), row.id, row.version)
        async with self.db.transaction() as conn:
            checked = self._checked_at_once if conn.dialect == "postgres" and moves else self._checked
            changed = await checked(conn, update, params, moves)
            if changed != 1:
                raise StaleVersion(row.id)
            if seats is not None:
                await conn.execute("DELETE FROM seats WHERE game_id = ?", (row.id,))
                await conn.executemany(
                    "INSERT INTO seats (game_id, seat, user_id, team, accepted) VALUES (?, ?, ?, ?, ?)",
                    [(row.id, s.seat, s.user_id, s.team, int(s.accepted)) for s in seats],
                )
            if also is not None:
                await also(conn)
        if seats is not None:
            row.seats = list(seats)
        for name, value in changes.items():
            setattr(row, name, value)
        row.version += 1
        row.updated_at = now
        return row.version

    @staticmethod
    async def _checked(conn: Tx, update: str, params: Params, moves: list[tuple[Any, ...]]) -> int:
        """The version-checked ``update``, then the moves appended if it held: the rows it changed (1, or 0 when
        someone was first)."""
        changed = await conn.execute(update, params)
        if changed == 1:
            await conn.executemany("INSERT INTO moves (game_id, ply, seat, text, at) VALUES (?, ?, ?, ?, ?)", moves)
        return changed

    @staticmethod
    async def _checked_at_once(conn: Tx, update: str, params: Params, moves: list[tuple[Any, ...]]) -> int:
        """``_checked`` on PostgreSQL in one round trip instead of two: the moves are inserted from the
        ``update``'s returned row, so none goes in when the version check found no row."""
        found = await conn.fetchone(
            f"WITH changed AS ({update} RETURNING id), added AS (INSERT INTO moves (game_id, ply, seat, text, at)"
            " SELECT changed.id, m.ply, m.seat, m.text, m.at FROM changed, unnest(?::integer[], ?::integer[],"
            " ?::text[], ?::double precision[]) AS m (ply, seat, text, at)) SELECT COUNT(*) FROM changed",
            (*params, *([move[k] for move in moves] for k in (1, 2, 3, 4))))  # ply, seat, text, at
        return int(found[0]) if found is not None else 0

    async def set_links(self, game_id: int, thread_id: int | None, message_id: int | None) -> None:
        """The game's thread and challenge message: Discord bookkeeping outside the versioned game state."""
        async with self.db.transaction() as conn:
            await set_links(conn, game_id, thread_id, message_id)

    async def postpone(self, game_id: int, until: float) -> None:
        """Push a game's deadline and reminder out of the scheduler's way (its handling keeps failing)."""
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE games SET deadline = CASE WHEN deadline > ? THEN deadline ELSE ? END,"
                               " remind_at = CASE WHEN remind_at > ? THEN remind_at WHEN remind_at IS NULL THEN NULL"
                               " ELSE ? END WHERE id = ?", (until, until, until, until, game_id))

    async def find_by_thread(self, thread_id: int) -> GameRow | None:
        """The thread's game with its seats, in one statement (every command in a thread starts here: on
        PostgreSQL one round trip, not two). A match's games share a thread: the newest is meant."""
        return await self._one("g.id = (SELECT id FROM games WHERE thread_id = ? ORDER BY id DESC LIMIT 1)",
                               (thread_id,))

    async def games_of(self, user_id: int, statuses: Sequence[str], guild_id: int | None = None,
                       game: str | None = None, limit: int | None = None, offset: int = 0) -> list[GameRow]:
        """The user's games, most recently changed first; ``limit`` and ``offset`` keep a long history cheap."""
        sql, params = self._games_of_query("DISTINCT g.id, g.updated_at", user_id, statuses, guild_id, game)
        sql += " ORDER BY g.updated_at DESC, g.id DESC"
        if limit is not None:
            sql += " LIMIT ? OFFSET ?"
            params += [limit, offset]
        ids = [r["id"] for r in await self.db.fetchall(sql, tuple(params))]
        return await self.get_many(ids)

    async def count_games_of(self, user_id: int, statuses: Sequence[str], guild_id: int | None = None) -> int:
        sql, params = self._games_of_query("COUNT(DISTINCT g.id) AS n", user_id, statuses, guild_id, None)
        row = await self.db.fetchone(sql, tuple(params))
        return int(row["n"]) if row else 0

    @staticmethod
    def _games_of_query(select: str, user_id: int, statuses: Sequence[str], guild_id: int | None,
                        game: str | None) -> tuple[str, list[Any]]:
        marks = ", ".join("?" for _ in statuses)
        sql = (f"SELECT {select} FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
               f" AND g.status IN ({marks})")
        params: list[Any] = [user_id, *statuses]
        if guild_id is not None:
            sql += " AND g.guild_id = ?"
            params.append(guild_id)
        if game is not None:
            sql += " AND g.game = ?"
            params.append(game)
        return sql, params

    async def get_many(self, ids: Sequence[int]) -> list[GameRow]:
        """Several games with their seats in two queries (not two per game), in the order of ``ids``."""
        found: dict[int, GameRow] = {}
        for start in range(0, len(ids), 500):  # SQLite caps the number of parameters
            chunk = list(ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            seats: dict[int, list[Seat]] = {i: [] for i in chunk}
            for r in await self.db.fetchall(f"SELECT game_id, seat, user_id, accepted, team FROM seats"
                                            f" WHERE game_id IN ({marks}) ORDER BY game_id, seat", tuple(chunk)):
                seats[r["game_id"]].append(Seat(r["seat"], r["user_id"], bool(r["accepted"]), r["team"]))
            for r in await self.db.fetchall(f"SELECT * FROM games WHERE id IN ({marks})", tuple(chunk)):
                found[r["id"]] = row_to_game(r, seats[r["id"]])
        return [found[i] for i in ids if i in found]

    # ----- start-up: each query reads an index of pending work only ----------------------------------

    async def full_challenges(self) -> list[int]:
        """Challenges whose every seat is taken and accepted: starts a crash interrupted."""
        rows = await self.db.fetchall(
            "SELECT g.id FROM games g WHERE g.status = 'challenge' AND NOT EXISTS (SELECT 1 FROM seats s"
            " WHERE s.game_id = g.id AND (s.accepted = 0 OR s.user_id IS NULL)) ORDER BY g.id")
        return [int(r["id"]) for r in rows]

    async def threadless(self) -> list[tuple[int, int]]:
        """(game id, plies) of active channel games that have no thread (partial index ``games_threadless``)."""
        rows = await self.db.fetchall(
            "SELECT g.id, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies FROM games g"
            " WHERE g.status = 'active' AND g.thread_id IS NULL AND g.channel_id IS NOT NULL ORDER BY g.id")
        return [(int(r["id"]), int(r["plies"])) for r in rows]

    # ----- matches --------------------------------------------------------------------------------

    async def match_games(self, first: int) -> list[GameRow]:
        """The played games of the match that ``first`` opened, in order: the finished ones and the later ones the
        clock aborted with a forfeit result (host/play/match_rules.py); a game aborted without one never counts."""
        rows = await self.db.fetchall("SELECT id FROM games WHERE (id = ? OR match_of = ?) AND (status = 'finished'"
                                      " OR (status = 'aborted' AND result IS NOT NULL)) ORDER BY id", (first, first))
        return await self.get_many([int(r["id"]) for r in rows])

    async def pending_matches(self) -> list[GameRow]:
        """Finished match games whose match has not taken its next step (partial index ``games_match_pending``)."""
        rows = await self.db.fetchall("SELECT id FROM games WHERE match_pending = 1 ORDER BY id")
        return await self.get_many([int(r["id"]) for r in rows])

    async def has_later_match_game(self, first: int, after: int) -> bool:
        return await self.db.fetchone("SELECT 1 FROM games WHERE match_of = ? AND id > ? LIMIT 1",
                                      (first, after)) is not None

    async def settle_match(self, game_id: int) -> bool:
        """The match took its step after this game (it is decided); False when someone else settled it."""
        async with self.db.transaction() as conn:
            return await settle_match(conn, game_id)

    # ----- clocks and the scheduler ---------------------------------------------------------------

    async def clock_of(self, game_id: int) -> str | None:
        """The stored clock state (JSON), read fresh: a row in hand may be older."""
        found = await self.db.fetchone("SELECT clock FROM games WHERE id = ?", (game_id,))
        return found["clock"] if found else None

    async def clocks_of(self, game_ids: Sequence[int]) -> dict[int, str | None]:
        """Clock states of many games, one query per 500."""
        found: dict[int, str | None] = {}
        for start in range(0, len(game_ids), 500):
            chunk = list(game_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for r in await self.db.fetchall(f"SELECT id, clock FROM games WHERE id IN ({marks})", tuple(chunk)):
                found[int(r["id"])] = r["clock"]
        return found

    async def due_deadlines(self, now: float, limit: int | None = None) -> list[int]:
        """Active games whose deadline passed, earliest first (index ``games_status_deadline``)."""
        return await self._due("deadline", now, limit)

    async def due_reminders(self, now: float, limit: int | None = None) -> list[int]:
        """Active games with a reminder due, earliest first (index ``games_status_remind``)."""
        return await self._due("remind_at", now, limit)

    async def _due(self, column: str, now: float, limit: int | None) -> list[int]:
        sql = f"SELECT id FROM games WHERE status = 'active' AND {column} <= ? ORDER BY {column}, id"
        params: tuple[Any, ...] = (now,)
        if limit is not None:
            sql, params = sql + " LIMIT ?", (now, limit)
        return [int(r["id"]) for r in await self.db.fetchall(sql, params)]


async def set_links(conn: Tx, game_id: int, thread_id: int | None, message_id: int | None) -> None:
    """Inside a transaction: the game's thread and challenge message (a match's next game gets them as it is
    created, so a start by another process's recovery finds them)."""
    await conn.execute("UPDATE games SET thread_id = ?, message_id = COALESCE(?, message_id) WHERE id = ?",
                       (thread_id, message_id, game_id))


async def settle_match(conn: Tx, game_id: int) -> bool:
    """Inside a transaction: clear the game's ``match_pending``; False when it was clear already, so two
    processes never both start a match's next game."""
    return await conn.execute("UPDATE games SET match_pending = 0 WHERE id = ? AND match_pending = 1",
                              (game_id,)) == 1


async def set_remind_at(conn: Tx, game_id: int, version: int, remind_at: float | None) -> bool:
    """Inside a transaction: the next reminder, iff the game is still at ``version`` (no version bump:
    a reminder changes no game state). False when the game moved meanwhile."""
    return await conn.execute("UPDATE games SET remind_at = ? WHERE id = ? AND version = ?",
                              (remind_at, game_id, version)) == 1
