"""Matches: best of 3 or 5 between two players, the next game started as soon as one ends.

Every game of a match is an ordinary game (rated on its own); its settings name the first game
(``match_of``) and its number (``match_game``). Later games swap sides: the engine says how
(Zodiac Chess: preset sides, no duel), otherwise the seat order is reversed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from data.db import Tx
from data.store import GameRow, GameStore, Seat, settle_match
from engines import Game
from host import bots, dice
from host.outbox import Owed
from host.results import HostError, Report

if TYPE_CHECKING:
    from host.lobby import Lobby
    from host.session import GameSession

LENGTHS = (1, 3, 5)
NEXT = "match_next"
"""The job a finished match game owes (with ``match_pending``): its match takes its next step. The process
that finished the game does it at once; if it died first, another process's dispatcher does it once the job
falls due (``outbox.GRACE``), instead of waiting for a restart's ``resume_all``. ``settle_match`` in the
creating transaction keeps it to one next game whoever gets there."""
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


async def score(store: GameStore, row: GameRow) -> Score:
    """Points so far (a win 1, a draw ½ each), counting every finished game of the match: the reader the
    reports use (host/boards.py), over the store alone."""
    first = row.settings.get("match_of") or row.id
    rows = await store.match_games(first)
    first_row = await store.get(first)
    assert first_row is not None
    users = (first_row.user_at(0) or 0, first_row.user_at(1) or 0)
    points = {users[0]: 0.0, users[1]: 0.0}
    for game_row in rows:
        assert game_row.result is not None
        ranks = game_row.result["ranks"]
        winners = [game_row.user_at(s) for s, rank in enumerate(ranks) if rank == 1]
        for user in winners:
            points[user or 0] += 1.0 / len(winners)
    return Score(int(row.settings.get("match", 1)), users, (points[users[0]], points[users[1]]), len(rows))


def next_key(game_id: int) -> str:
    return f"match-next:{game_id}"


def owed_next(row: GameRow) -> list[Owed]:
    """Written with the move that ends a match game: the dispatcher continues the match if nobody else does."""
    return [Owed(NEXT, next_key(row.id), row.id)] if row.settings.get("match", 1) > 1 else []


class AlreadyContinued(Exception):
    """Another process (or an earlier call) already took this match's next step."""


class Matches:
    """A match's next game, started from Turns' ``after_finish`` (wired in host/app.py), the owed job or recovery."""

    def __init__(self, session: GameSession, lobby: Lobby, now: Callable[[], float]) -> None:
        self.session = session
        self.lobby = lobby
        self.now = now

    async def continue_after(self, game_id: int) -> Report | None:
        """The owed continuation of a finished match game (its process died first): the next game's start report,
        or None when the match is decided or its next step was taken already."""
        row = await self.session.row(game_id)
        if row.status != "finished" or not row.match_pending:
            return None
        current = await score(self.session.store, row)
        if current.decided:
            await self.session.store.settle_match(row.id)
            return None
        return await self._next_game(row, await self.session.cached_engine(row), current)

    async def on_finished(self, report: Report, game: Game) -> Report | None:
        """Turns' ``after_finish`` subscriber: after the commit that ended a game of a match, the next game's start
        report if the match goes on."""
        row = report.row
        if row.settings.get("match", 1) <= 1:
            return None
        current = await score(self.session.store, row)
        if current.decided:
            await self.session.store.settle_match(row.id)
            return None
        return await self._next_game(row, game, current)

    async def resume_all(self) -> list[Report]:
        """Start the next game of every undecided match whose last game ended without one (a crash).

        Reads only the games still marked ``match_pending``: the work left, not every match ever played."""
        started: list[Report] = []
        for row in await self.session.store.pending_matches():
            try:
                first = row.settings.get("match_of") or row.id
                current = await score(self.session.store, row)
                if await self.session.store.has_later_match_game(first, row.id) or current.decided:
                    await self.session.store.settle_match(row.id)
                    continue
                report = await self._next_game(row, await self.session.cached_engine(row), current)
                if report is not None:
                    started.append(report)
            except Exception:
                log.exception("could not continue the match of game %s on recovery", row.id)
        return started

    async def _next_game(self, row: GameRow, game: Game, current: Score) -> Report | None:
        swapped = game.next_match_options()
        users = [row.user_at(s) for s in range(row.players)]
        order = users if swapped is not None else users[::-1]
        settings = {**row.settings, "match_of": row.settings.get("match_of") or row.id,
                    "match_game": current.played + 1}

        async def settle(conn: Tx, game_id: int) -> None:  # the next game and the settled mark land together
            if not await settle_match(conn, row.id):
                raise AlreadyContinued(row.id)

        try:
            game_id = await self.session.store.create(
                guild_id=row.guild_id, channel_id=row.channel_id, game=row.game, players=row.players,
                options=swapped if swapped is not None else dict(row.options), settings=settings, seed=dice.new_seed(),
                creator_id=row.creator_id, seats=[Seat(i, u, True) for i, u in enumerate(order)], now=self.now(),
                also=settle)
        except AlreadyContinued:
            log.info("the match of game %s was continued elsewhere", row.id)
            return None
        await self.session.store.set_links(game_id, row.thread_id, row.message_id)
        lobby = await self.lobby.start(await self.session.row(game_id), shuffle=False)
        return lobby.report
