"""Matches: best of 3 or 5 between two players, the next game started as soon as one ends.

Every game of a match is an ordinary game (rated on its own); its settings name the first game
(``match_of``) and its number (``match_game``). Later games swap sides: the engine says how
(Zodiac Chess: preset sides, no duel), otherwise the seat order is reversed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from data.db import Tx
from data.store import GameRow, Seat, set_links, settle_match
from engines import Game
from host.play import dice
from host.play.match_rules import LENGTHS as LENGTHS
from host.play.match_rules import NEXT as NEXT
from host.play.match_rules import Score, score
from host.play.match_rules import check_length as check_length
from host.play.match_rules import next_key as next_key
from host.play.match_rules import owed_next as owed_next
from host.results import Report

if TYPE_CHECKING:
    from host.play.lobby import Lobby
    from host.play.session import GameSession

log = logging.getLogger(__name__)


class AlreadyContinued(Exception):
    """Another process (or an earlier call) already took this match's next step."""


class Matches:
    """A match's next game, started from Turns' ``after_finish`` (wired in host/app.py), the owed job or recovery."""

    def __init__(self, session: GameSession, lobby: Lobby, now: Callable[[], float]) -> None:
        self.session = session
        self.lobby = lobby
        self.now = now

    async def continue_after(self, game_id: int) -> Report | None:
        """The owed continuation of a finished match game (its process died first), or of a later game the clock
        aborted (``Correspondence.after_abandon``): the next game's start report, or None when the match is
        decided or its next step was taken already."""
        row = await self.session.row(game_id)
        if row.status not in ("finished", "aborted") or not row.match_pending:
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

        async def settle(conn: Tx, game_id: int) -> None:  # the next game, its thread and the settled mark together
            if not await settle_match(conn, row.id):
                raise AlreadyContinued(row.id)
            await set_links(conn, game_id, row.thread_id, row.message_id)

        try:
            game_id = await self.session.store.create(
                guild_id=row.guild_id, channel_id=row.channel_id, game=row.game, players=row.players,
                options=swapped if swapped is not None else dict(row.options), settings=settings, seed=dice.new_seed(),
                creator_id=row.creator_id, seats=[Seat(i, u, True) for i, u in enumerate(order)], now=self.now(),
                also=settle)
        except AlreadyContinued:
            log.info("the match of game %s was continued elsewhere", row.id)
            return None
        # as a recovery starts it (the sides kept); None when another process's recovery started it first
        lobby = await self.lobby.start_once(await self.session.row(game_id), resume=True)
        return lobby.report
