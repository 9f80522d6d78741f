"""Tournament storage: events, entrants and pairings (migration 008). Every change bumps the event's version.

The host reads a whole event (``load``: the row, its entrants and every pairing), decides with the pure
functions of ``host/tournaments/pairing/``, and writes in one transaction that starts with ``bump``: the version it
read must still be there, or ``StaleVersion`` rolls everything back. So two workers, or a worker and a
click, can never pair one round twice or record one result twice.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from data.db import Database, Row, StaleVersion, Tx

Conn = Database | Tx
EVENT_COLUMNS = ("channel_id", "message_id", "status", "current_round", "rounds", "starts_at", "rules")
"""Columns ``bump`` may change together with the version."""


@dataclass
class EventRow:
    id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    standings_message_id: int | None
    organiser_id: int
    game: str
    options: dict[str, Any]
    format: str
    rounds: int
    table_size: int
    clock: str
    rated: bool
    max_players: int
    starts_at: float | None
    status: str
    current_round: int
    version: int
    created_at: float
    name: str | None = None
    """The organiser's name for the event (None: "Event #id")."""
    tiebreaks: tuple[str, ...] | None = None
    """The organiser's tie-break codes in order (None: the system's default)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """The organiser's further rules (``match_games``, ``third_place``); empty: the defaults."""


@dataclass(frozen=True)
class Entrant:
    user_id: int
    seed: int | None
    joined_at: float
    status: str
    """``in``, ``withdrawn`` or ``removed``."""
    left_round: int | None


@dataclass(frozen=True)
class Pairing:
    id: int
    round: int
    board: int
    match_game: int
    bye: bool
    seats: tuple[int, ...]
    game_id: int | None
    points: tuple[float, ...] | None
    forfeit: bool


@dataclass(frozen=True)
class NewPairing:
    """A pairing to insert: a table's seats in order, or one entrant's bye; ``points`` when already decided."""

    round: int
    board: int
    seats: tuple[int, ...]
    bye: bool = False
    points: tuple[float, ...] | None = None
    forfeit: bool = False
    match_game: int = 1


@dataclass
class Snapshot:
    """One committed state of an event: everything pairing and scoring need."""

    event: EventRow
    entrants: list[Entrant] = field(default_factory=list)
    pairings: list[Pairing] = field(default_factory=list)


def _event(row: Row) -> EventRow:
    return EventRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        standings_message_id=row["standings_message_id"], organiser_id=row["organiser_id"], game=row["game"],
        options=json.loads(row["options"]), format=row["format"], rounds=row["rounds"], table_size=row["table_size"],
        clock=row["clock"], rated=bool(row["rated"]), max_players=row["max_players"], starts_at=row["starts_at"],
        status=row["status"], current_round=row["current_round"], version=row["version"],
        created_at=row["created_at"], name=row["name"],
        tiebreaks=tuple(json.loads(row["tiebreaks"])) if row["tiebreaks"] is not None else None,
        rules=json.loads(row["rules"]) if row["rules"] else {})


def _pairing(row: Row) -> Pairing:
    points = json.loads(row["points"]) if row["points"] is not None else None
    return Pairing(row["id"], row["round"], row["board"], row["match_game"], bool(row["bye"]),
                   tuple(json.loads(row["seats"])), row["game_id"],
                   tuple(float(p) for p in points) if points is not None else None, bool(row["forfeit"]))


async def create(tx: Tx, *, guild_id: int, channel_id: int | None, organiser_id: int, game: str,
                 options: dict[str, Any], format: str, rounds: int, table_size: int, clock: str, rated: bool,
                 max_players: int, starts_at: float | None, now: float, name: str | None = None,
                 tiebreaks: Sequence[str] | None = None, rules: dict[str, Any] | None = None) -> int:
    return await tx.insert(
        "INSERT INTO events (guild_id, channel_id, organiser_id, game, options, format, rounds, table_size, clock,"
        " rated, max_players, starts_at, status, created_at, updated_at, name, tiebreaks, rules)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)",
        (guild_id, channel_id, organiser_id, game, json.dumps(options), format, rounds, table_size, clock,
         int(rated), max_players, starts_at, now, now, name,
         json.dumps(list(tiebreaks)) if tiebreaks is not None else None, json.dumps(rules) if rules else None))


async def get(conn: Conn, event_id: int) -> EventRow | None:
    row = await conn.fetchone("SELECT * FROM events WHERE id = ?", (event_id,))
    return _event(row) if row is not None else None


async def load(conn: Conn, event_id: int) -> Snapshot | None:
    event = await get(conn, event_id)
    if event is None:
        return None
    entrants = [Entrant(r["user_id"], r["seed"], r["joined_at"], r["status"], r["left_round"])
                for r in await conn.fetchall("SELECT * FROM event_entrants WHERE event_id = ?"
                                             " ORDER BY joined_at, user_id", (event_id,))]
    pairings = [_pairing(r) for r in await conn.fetchall(
        "SELECT * FROM event_pairings WHERE event_id = ? ORDER BY round, board, match_game", (event_id,))]
    return Snapshot(event, entrants, pairings)


async def bump(tx: Tx, event: EventRow, now: float, **changes: Any) -> None:
    """The version check every change starts with: ``StaleVersion`` when someone changed the event since it was read."""
    unknown = set(changes) - set(EVENT_COLUMNS)
    if unknown:
        raise ValueError(f"not an event column: {sorted(unknown)}")
    if "rules" in changes:  # stored as JSON
        changes["rules"] = json.dumps(changes["rules"]) if changes["rules"] else None
    sets = "".join(f", {name} = ?" for name in changes)
    changed = await tx.execute(f"UPDATE events SET version = version + 1, updated_at = ?{sets}"
                               " WHERE id = ? AND version = ?", (now, *changes.values(), event.id, event.version))
    if changed != 1:
        raise StaleVersion(f"event {event.id} changed since version {event.version}")


async def add_entrant(tx: Tx, event_id: int, user_id: int, now: float, seed: int | None = None) -> bool:
    """False when the user was already entered. ``seed``: a late entrant's (after the start)."""
    return await tx.execute("INSERT INTO event_entrants (event_id, user_id, joined_at, seed) VALUES (?, ?, ?, ?)"
                            " ON CONFLICT DO NOTHING", (event_id, user_id, now, seed)) == 1


async def delete_entrant(tx: Tx, event_id: int, user_id: int) -> bool:
    return await tx.execute("DELETE FROM event_entrants WHERE event_id = ? AND user_id = ?",
                            (event_id, user_id)) == 1


async def set_seeds(tx: Tx, event_id: int, order: Sequence[int]) -> None:
    await tx.executemany("UPDATE event_entrants SET seed = ? WHERE event_id = ? AND user_id = ?",
                         [(seed, event_id, user) for seed, user in enumerate(order, start=1)])


async def set_left(tx: Tx, event_id: int, user_id: int, status: str, left_round: int) -> None:
    await tx.execute("UPDATE event_entrants SET status = ?, left_round = ? WHERE event_id = ? AND user_id = ?",
                     (status, left_round, event_id, user_id))


async def add_pairings(tx: Tx, event_id: int, pairings: Sequence[NewPairing]) -> None:
    await tx.executemany(
        "INSERT INTO event_pairings (event_id, round, board, match_game, bye, seats, points, forfeit)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(event_id, p.round, p.board, p.match_game, int(p.bye), json.dumps(list(p.seats)),
          json.dumps(list(p.points)) if p.points is not None else None, int(p.forfeit)) for p in pairings])


async def link_game(tx: Tx, pairing_id: int, game_id: int) -> bool:
    """Attach the started game to its pairing; False when the pairing already has one (never two games)."""
    return await tx.execute("UPDATE event_pairings SET game_id = ? WHERE id = ? AND game_id IS NULL",
                            (game_id, pairing_id)) == 1


async def set_points(tx: Tx, pairing_id: int, points: Sequence[float], forfeit: bool = False) -> bool:
    """Record a result once; False when the pairing already had one."""
    return await tx.execute("UPDATE event_pairings SET points = ?, forfeit = ? WHERE id = ? AND points IS NULL",
                            (json.dumps(list(points)), int(forfeit), pairing_id)) == 1


async def set_message(db: Database, event_id: int, message_id: int | None) -> None:
    """Where the sign-up message is: Discord bookkeeping, not event state, so no version bump."""
    async with db.transaction() as tx:
        await tx.execute("UPDATE events SET message_id = ? WHERE id = ?", (message_id, event_id))


async def set_standings_message(db: Database, event_id: int, message_id: int | None) -> None:
    async with db.transaction() as tx:
        await tx.execute("UPDATE events SET standings_message_id = ? WHERE id = ?", (message_id, event_id))


async def of_guild(db: Database, guild_id: int, statuses: Sequence[str]) -> list[EventRow]:
    marks = ", ".join("?" for _ in statuses)
    return [_event(r) for r in await db.fetchall(
        f"SELECT * FROM events WHERE guild_id = ? AND status IN ({marks}) ORDER BY id DESC LIMIT 25",
        (guild_id, *statuses))]


async def unsettled_games(db: Database) -> list[tuple[int, int, str]]:
    """(event, game, game status) of pairings whose game ended (finished or aborted) without a recorded result:
    what a lost hook or an abort left behind, for the recovery sweep."""
    rows = await db.fetchall(
        "SELECT p.event_id, p.game_id, g.status FROM event_pairings p JOIN games g ON g.id = p.game_id"
        " JOIN events e ON e.id = p.event_id WHERE e.status = 'running' AND p.points IS NULL"
        " AND g.status IN ('finished', 'aborted')")
    return [(int(r["event_id"]), int(r["game_id"]), str(r["status"])) for r in rows]


async def running_without_games(db: Database) -> list[int]:
    """Running events with a pairing still owed a game (a crash between pairing and starting)."""
    rows = await db.fetchall(
        "SELECT DISTINCT p.event_id FROM event_pairings p JOIN events e ON e.id = p.event_id"
        " WHERE e.status = 'running' AND p.points IS NULL AND p.bye = 0 AND p.game_id IS NULL")
    return [int(r["event_id"]) for r in rows]


async def ratings_of(conn: Conn, game: str, users: Sequence[int]) -> dict[int, tuple[float, float]]:
    """Global all-time (mu, sigma) of the users who have one, for seeding a rated event."""
    if not users:
        return {}
    marks = ", ".join("?" for _ in users)
    rows = await conn.fetchall(f"SELECT user_id, mu, sigma FROM ratings WHERE game = ? AND scope = 'global'"
                               f" AND season = 0 AND user_id IN ({marks})", (game, *users))
    return {int(r["user_id"]): (float(r["mu"]), float(r["sigma"])) for r in rows}


async def organiser_role(conn: Conn, guild_id: int) -> int | None:
    row = await conn.fetchone("SELECT organiser_role FROM event_settings WHERE guild_id = ?", (guild_id,))
    return int(row["organiser_role"]) if row is not None and row["organiser_role"] is not None else None


async def set_organiser_role(db: Database, guild_id: int, role_id: int | None) -> None:
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO event_settings (guild_id, organiser_role) VALUES (?, ?)"
                         " ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role",
                         (guild_id, role_id))
