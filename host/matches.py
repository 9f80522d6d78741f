"""Matches: best of 3 or 5 between two players, the next game started as soon as one ends.

Every game of a match is an ordinary game (rated on its own); its settings name the first game
(``match_of``) and its number (``match_game``). Later games swap sides: the engine says how
(Zodiac Chess: preset sides, no duel), otherwise the seat order is reversed.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data import jobs
from data.db import Tx
from data.store import GameRow, Seat
from engines import Game
from host import bots
from host.outbox import Owed
from host.results import HostError, Report

if TYPE_CHECKING:
    from host.service import Host

LENGTHS = (1, 3, 5)
NEXT = "match_next"
"""The job owed by a finished match game: its match goes on. Whoever creates the next game marks it done in
that same transaction, so the process that finished the game, a restart's ``resume_all`` and the dispatcher
of another process (when the first one died) never create two."""
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Score:
    length: int
    users: tuple[int, int]
    points: tuple[float, float]
    played: int

    @property
    def decided(self) -> bool:
        return self.played >= self.length or max(self.points) > self.length / 2

    def line(self) -> str:
        a, b = self.users
        pa, pb = (f"{p:g}" for p in self.points)
        text = f"Match (best of {self.length}): {bots.mention(a)} {pa} – {pb} {bots.mention(b)}"
        if not self.decided:
            return f"{text}; game {self.played + 1} starts below."
        if self.points[0] == self.points[1]:
            return f"{text}: the match is drawn."
        return f"{text}: {bots.mention(a if self.points[0] > self.points[1] else b)} wins the match."


def check_length(length: int, players: int) -> None:
    if length not in LENGTHS:
        raise HostError("A match is 1, 3 or 5 games.")
    if length > 1 and players != 2:
        raise HostError("Matches are for two players.")


async def score(host: Host, row: GameRow) -> Score:
    """Points so far (a win 1, a draw ½ each), counting every finished game of the match."""
    first = row.settings.get("match_of") or row.id
    rows = await host.db.fetchall(
        "SELECT id, result FROM games WHERE (id = ? OR json_extract(settings, '$.match_of') = ?)"
        " AND status = 'finished' ORDER BY id", (first, first))
    first_row = await host.store.get(first)
    assert first_row is not None
    users = (first_row.user_at(0) or 0, first_row.user_at(1) or 0)
    points = {users[0]: 0.0, users[1]: 0.0}
    for found in rows:
        game_row = await host.store.get(found["id"])
        assert game_row is not None
        ranks = json.loads(found["result"])["ranks"]
        winners = [game_row.user_at(s) for s, rank in enumerate(ranks) if rank == 1]
        for user in winners:
            points[user or 0] += 1.0 / len(winners)
    return Score(int(row.settings.get("match", 1)), users, (points[users[0]], points[users[1]]), len(rows))


def next_key(game_id: int) -> str:
    return f"match-next:{game_id}"


def owed_next(row: GameRow) -> list[Owed]:
    """Written with the move that ends a match game: the dispatcher continues the match if nobody else does."""
    return [Owed(NEXT, next_key(row.id), row.id)] if row.settings.get("match", 1) > 1 else []


class _Taken(Exception):
    """Another process created the next game first."""


async def continue_after(host: Host, game_id: int) -> Report | None:
    """The owed continuation of a finished match game (its process died first): the next game's start report,
    or None when the match is decided or the next game exists."""
    row = await host.get(game_id)
    if row.status != "finished" or row.settings.get("match", 1) <= 1:
        return None
    current = await score(host, row)
    if current.decided:
        return None
    return await _next_game(host, row, await host.engine_of(row), current)


async def continue_match(host: Host, row: GameRow, game: Game) -> tuple[str, Report | None]:
    """After a game of a match ends: the score line, and the next game's start report if it goes on."""
    current = await score(host, row)
    if current.decided:
        return current.line(), None
    return current.line(), await _next_game(host, row, game, current)


async def resume_all(host: Host) -> list[Report]:
    """Start the next game of every undecided match whose last game ended without one (a crash)."""
    started: list[Report] = []
    for found in await host.db.fetchall("SELECT id FROM games WHERE status = 'finished'"
                                        " AND json_extract(settings, '$.match') > 1"):
        try:
            row = await host.get(found["id"])
            first = row.settings.get("match_of") or row.id
            later = await host.db.fetchone("SELECT 1 FROM games WHERE json_extract(settings, '$.match_of') = ?"
                                           " AND id > ?", (first, row.id))
            current = await score(host, row)
            if later is None and not current.decided:
                report = await _next_game(host, row, await host.engine_of(row), current)
                if report is not None:
                    started.append(report)
        except Exception:
            log.exception("could not continue the match of game %s on recovery", found["id"])
    return started


async def _next_game(host: Host, row: GameRow, game: Game, current: Score) -> Report | None:
    swapped = game.next_match_options()
    users = [row.user_at(s) for s in range(row.players)]
    order = users if swapped is not None else users[::-1]
    settings = {**row.settings, "match_of": row.settings.get("match_of") or row.id,
                "match_game": current.played + 1}
    now = host.now()

    async def first(conn: Tx, _: int) -> None:
        if not await jobs.settle(conn, kind=NEXT, key=next_key(row.id), now=now, game_id=row.id):
            raise _Taken

    try:
        game_id = await host.store.create(
            guild_id=row.guild_id, channel_id=row.channel_id, game=row.game, players=row.players,
            options=swapped if swapped is not None else dict(row.options), settings=settings, seed=host.new_seed(),
            creator_id=row.creator_id, seats=[Seat(i, u, True) for i, u in enumerate(order)], now=now, also=first)
    except _Taken:
        return None
    await host.store.set_links(game_id, row.thread_id, row.message_id)
    lobby = await host.start(await host.get(game_id), shuffle=False)
    return lobby.report
