"""The game session under the host services: load a game, rebuild or reuse its engine, and write a change
in one version-checked transaction with its hooks. The lobby, turns, clocks, matches, AI turns and
tournaments are services on top of it; none of them reaches into another's internals.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from data.db import Database, StaleVersion, Tx
from data.store import GameRow, GameStore, Seat
from engines import Game
from host import outbox
from host.engine_cache import ENGINE_CACHE, EngineCache, extend
from host.outbox import Owed
from host.results import HostError

log = logging.getLogger(__name__)
FinishHook = Callable[[Tx, GameRow, Game, float], Awaitable[None]]
"""Runs inside the transaction that records a game's end (ratings), so both land or neither."""


@dataclass(frozen=True)
class Change:
    """A write that moved a game on (start, move, draw offer): the state after it, for ``ChangeHook``s."""

    row: GameRow
    """The row as it was before this write (its version is the one being replaced)."""
    game: Game
    seats: list[Seat]
    changes: dict[str, Any]
    now: float


ChangeHook = Callable[[Tx, Change], Awaitable[None]]
"""Runs inside the transaction of every such write, so work it enqueues (an AI's turn) lands with it."""
CommitHook = Callable[[int, int, "int | None"], None]
"""Told right after a game's write committed: (game id, its new version, its ply when the write carried the game).
Synchronous and cheap (the board pages' push is spawned there), so the push leaves before the report is drawn."""


class GameSession:
    """Loading and version-checked writing of games, with a bounded engine cache that a write keeps true."""

    def __init__(self, db: Database, games: Mapping[str, type[Game]], *, now: Callable[[], float] = time.time,
                 on_finish: Sequence[FinishHook] = (), on_change: Sequence[ChangeHook] = (),
                 engine_cache: int = ENGINE_CACHE) -> None:
        self.db = db
        self.store = GameStore(db)
        self.games = games
        self.now = now
        self.on_finish = list(on_finish)
        self.on_change = list(on_change)
        self.on_committed: list[CommitHook] = []
        """Told after every committed write of a game (``CommitHook``): the board pages hear of it at once."""
        self.engines = EngineCache(engine_cache)
        """Bounded LRU; an entry serves only a row of its exact version (another process may have moved)."""

    def game_class(self, name: str) -> type[Game]:
        """The engine class registered under ``name``; an unknown name is a clear refusal."""
        try:
            return self.games[name]
        except KeyError:
            raise HostError(f"There is no game called {name}.") from None

    async def row(self, game_id: int) -> GameRow:
        """The game's row; an unknown id is a clear refusal."""
        row = await self.store.get(game_id)
        if row is None:
            raise HostError(f"There is no game #{game_id}.")
        return row

    @staticmethod
    def require_status(row: GameRow, status: str) -> None:
        """Refuse, in words a player understands, unless the game is in ``status``."""
        if row.status == status:
            return
        said = {"challenge": "is still waiting for players", "active": "is already under way",
                "finished": "is over", "aborted": "was aborted", "declined": "was declined"}
        raise HostError(f"Game #{row.id} {said.get(row.status, row.status)}.")

    async def engine_copy(self, game_id: int) -> tuple[GameRow, Game]:
        """The row and a copy of its engine, free to change (the AI, hints, a move being tried)."""
        row = await self.row(game_id)
        return row, (await self.cached_engine(row)).clone()

    async def cached_engine(self, row: GameRow) -> Game:
        """The engine at the row's version: cached, else rebuilt by replaying the move log.

        The cached object itself, shared by every reader: never change it (``engine_copy`` gives a copy)."""
        cached = self.engines.get(row.id)
        if cached and cached[0] == row.version:
            return cached[1]
        log_ = [(move.seat, move.text) for move in await self.store.moves(row.id)]
        game = extend(cached[1] if cached else None, log_)  # stale: add the moves another process made
        if game is None:
            game = self.game_class(row.game).new(row.players, row.options)
            for seat, text in log_:
                game.apply_record(seat, text)
        self.engines[row.id] = (row.version, game)
        return game

    async def cached_engines(self, rows: Sequence[GameRow]) -> list[Game]:
        """The engines of many games (listings): cached ones as they are, the rest from one move-log query."""
        found = {row.id: cached[1] for row in rows
                 if (cached := self.engines.get(row.id)) is not None and cached[0] == row.version}
        missing = [row for row in rows if row.id not in found]
        logs = await self.store.moves_of([row.id for row in missing])
        for row in missing:
            game = self.game_class(row.game).new(row.players, row.options)
            for move in logs.get(row.id, []):
                game.apply_record(move.seat, move.text)
            self.engines[row.id] = (row.version, game)
            found[row.id] = game
        return [found[row.id] for row in rows]

    async def write(self, row: GameRow, *, moves: list[tuple[int, str]] | None = None, first_ply: int = 0,
                    seats: list[Seat] | None = None, finished: Game | None = None, state: Game | None = None,
                    owed: Sequence[Owed] = (), **changes: Any) -> None:
        """One version-checked transaction: the change, the finish hooks (ratings), the change hooks (an AI's
        turn, for ``state``: the game after this write) and what it owes (outbox), all or nothing."""
        now = self.now()

        async def also(conn: Tx) -> None:
            for hook in self.on_finish if finished is not None else ():
                await hook(conn, row, finished, now)  # type: ignore[arg-type]
            if state is not None:
                change = Change(row, state, list(seats if seats is not None else row.seats), changes, now)
                for on_change in self.on_change:
                    await on_change(conn, change)
            await outbox.write(conn, owed, now)

        try:
            await self.store.update(row, now=now, new_moves=moves or (), first_ply=first_ply, seats=seats,
                                    also=also if finished is not None or state is not None or owed else None,
                                    **changes)
        except StaleVersion:
            self.engines.pop(row.id, None)
            raise HostError("Someone acted on this game at the same moment; look at the board and try again.") \
                from None
        for committed in self.on_committed:
            try:
                committed(row.id, row.version, len(state.history) if state is not None else None)
            except Exception:  # the write stands: a page that is not told finds it by the sweep
                log.exception("a commit hook failed for game %s", row.id)
        kinds = {item.kind for item in owed}
        outbox.crash_point("start" if "thread" in kinds else "end" if finished is not None else
                           "move" if "post" in kinds else "write")
