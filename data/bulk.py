"""Loading many whole games at once, for benchmarks and imports: one ``executemany`` per table and chunk.

The games get explicit ids above the current highest (so their seats and moves can be written in the same
batch); on PostgreSQL the id sequence is then moved past them, so later ordinary inserts go on from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from data.db import Database, Tx
from data.store import indexed_settings

CHUNK = 2000
"""Games per transaction: big enough to amortise, small enough to keep one transaction's memory modest."""


@dataclass(frozen=True)
class WholeGame:
    """A game with its seats and move log, written as is (no rules are checked here)."""

    game: str
    players: int
    status: str
    users: Sequence[int | None]
    """One user per seat, seat order; every seat is marked accepted unless ``accepted`` says otherwise."""
    moves: Sequence[tuple[int, str]] = ()
    seed: str = "bulk"
    creator_id: int = 0
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    deadline: float | None = None
    remind_at: float | None = None
    clock: str | None = None
    accepted: Sequence[bool] | None = None
    match_pending: bool = False
    """A finished match game whose next step was never taken (as a crash leaves it)."""


async def load_games(db: Database, games: Iterable[WholeGame]) -> list[int]:
    """Write the games; returns their ids in order."""
    ids: list[int] = []
    batch: list[WholeGame] = []
    for game in games:
        batch.append(game)
        if len(batch) == CHUNK:
            ids += await _load(db, batch)
            batch = []
    if batch:
        ids += await _load(db, batch)
    return ids


async def _load(db: Database, games: list[WholeGame]) -> list[int]:
    async with db.transaction() as tx:
        await tx.lock("bulk-games")
        row = await tx.fetchone("SELECT MAX(id) FROM games")
        first = int(row[0] or 0) + 1 if row else 1
        ids = list(range(first, first + len(games)))
        await tx.executemany(
            "INSERT INTO games (id, guild_id, channel_id, thread_id, game, players, options, settings, status,"
            " version, seed, creator_id, created_at, updated_at, deadline, result, clock, remind_at, rematch_of,"
            " match_of, match_len, match_pending)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(i, g.guild_id, g.channel_id, g.thread_id, g.game, g.players, json.dumps(g.options),
              json.dumps(g.settings), g.status, len(g.moves), g.seed, g.creator_id, g.created_at, g.updated_at,
              g.deadline, json.dumps(g.result) if g.result is not None else None, g.clock, g.remind_at,
              *indexed_settings(g.settings).values(), int(g.match_pending)) for i, g in zip(ids, games, strict=True)])
        await tx.executemany(
            "INSERT INTO seats (game_id, seat, user_id, team, accepted) VALUES (?, ?, ?, ?, ?)",
            [(i, seat, user, seat, int(g.accepted[seat]) if g.accepted is not None else 1)
             for i, g in zip(ids, games, strict=True) for seat, user in enumerate(g.users)])
        await tx.executemany(
            "INSERT INTO moves (game_id, ply, seat, text, at) VALUES (?, ?, ?, ?, ?)",
            [(i, ply, seat, text, g.updated_at) for i, g in zip(ids, games, strict=True)
             for ply, (seat, text) in enumerate(g.moves)])
        await _move_sequence(tx, ids[-1])
    return ids


async def _move_sequence(tx: Tx, highest: int) -> None:
    """PostgreSQL hands out ids from a sequence that explicit ids do not advance."""
    if tx.dialect == "postgres":
        await tx.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), ?)", (highest,))


async def refresh_statistics(db: Database) -> None:
    """After a bulk load: PostgreSQL's planner needs fresh table statistics (autovacuum gathers them only a
    while later), or it plans the new rows as an empty table would be planned. SQLite plans without them."""
    if db.dialect == "postgres":
        async with db.transaction() as tx:
            await tx.execute("ANALYZE")


async def count(db: Database, table: str) -> int:
    """Rows in one of the game tables (a benchmark checks it starts empty)."""
    if table not in ("games", "seats", "moves", "ratings", "rating_history", "jobs"):
        raise ValueError(table)
    row = await db.fetchone(f"SELECT COUNT(*) FROM {table}")
    return int(row[0]) if row else 0


async def game_ids(db: Database) -> list[int]:
    """Every game id, in order (a benchmark touches them all)."""
    return [int(r[0]) for r in await db.fetchall("SELECT id FROM games ORDER BY id")]
