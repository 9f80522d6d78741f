"""The correspondence clocks of every game: the clock columns each move or start writes, reschedules after a
vacation, and the vacations they read.
``host/correspondence/clocks.py`` holds the pure arithmetic; this service adds the
database reads, so Turns, Lobby and Correspondence share one copy of it and none calls back into another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from data.correspondence import CorrespondenceStore
from data.store import GameRow, Seat
from engines import CHANCE, Game
from host.correspondence import clocks
from host.correspondence.clocks import ClockState, TimeControl, Vacation
from host.play import bots
from host.play.session import GameSession
from host.results import HostError


def control_of(row: GameRow) -> TimeControl:
    """The game's time control (validated when the challenge was made; older games have none)."""
    return clocks.parse(row.settings.get("clock", "none"))


def schedule(tc: TimeControl, state: ClockState, users: dict[int, int | None],
             vacations: dict[int, list[Vacation]], skip: Iterable[int] = ()) -> dict[str, float | None]:
    """The game's next deadline (earliest seat) and next reminder (earliest seat not in ``skip``)."""
    def away(seat: int) -> list[Vacation]:
        user = users.get(seat)
        return vacations.get(user, []) if user is not None else []

    people = [s for s in state.started if not bots.is_ai(users.get(s))]  # an AI never runs out of time
    deadlines = [d for s in people if (d := clocks.seat_deadline(tc, state, s, away(s))) is not None]
    skipped = set(skip)
    reminders = [r for s in people if s not in skipped
                 and (r := clocks.reminder_time(tc, state, s, away(s))) is not None]
    return {"deadline": min(deadlines, default=None), "remind_at": min(reminders, default=None)}


class Clocks:
    """Clock state, deadlines and reminders as stored; depends on the session only."""

    def __init__(self, session: GameSession, now: Callable[[], float]) -> None:
        self.session = session
        self.now = now
        self.stored = CorrespondenceStore(session.db)

    async def load_state(self, game_id: int) -> ClockState:
        return ClockState.from_json(await self.session.store.clock_of(game_id))

    async def load_states(self, game_ids: Sequence[int]) -> dict[int, ClockState]:
        """Clock states of many games in one query per 500."""
        found = await self.session.store.clocks_of(game_ids)
        return {game_id: ClockState.from_json(text) for game_id, text in found.items()}

    async def vacations_of(self, users: Iterable[int | None], since: float) -> dict[int, list[Vacation]]:
        """Vacations still running at ``since`` or later, per user."""
        wanted = sorted({u for u in users if u is not None})
        found: dict[int, list[Vacation]] = {u: [] for u in wanted}
        if not wanted:
            return found
        for away in await self.stored.vacations(wanted, since):
            found[away.user_id].append((away.starts, away.ends))
        return found

    async def reminded(self, game_id: int, state: ClockState) -> set[int]:
        """Seats already reminded on their current turn."""
        return {seat for seat, start in await self.stored.reminded(game_id) if state.started.get(seat) == start}

    async def clock_changes(self, row: GameRow, game: Game, applied: Sequence[tuple[int, str]],
                            seats: Sequence[Seat] | None = None, fresh: bool = False,
                            late_ok: bool = False) -> dict[str, Any]:
        """Columns to write with a move or start: new clock state, deadline and next reminder.

        ``fresh`` starts the clocks (game start, with its newly drawn ``seats``). Refuses a move made
        after its seat's deadline: the time ran out, and the scheduler records that.
        """
        tc = control_of(row)
        if tc.kind == "none":
            return {}
        if game.outcome() is not None:
            return {"remind_at": None}
        now = self.now()
        state = ClockState() if fresh else await self.load_state(row.id)
        users = {s.seat: s.user_id for s in (seats if seats is not None else row.seats)}
        vacations = await self.vacations_of(users.values(), min([now, *state.started.values()]))
        acted = {seat for seat, _ in applied if seat != CHANCE}
        for seat, text in applied:
            if seat in state.started and text not in ("resign", "timeout", "draw") and not late_ok \
                    and not bots.is_ai(users.get(seat)):  # an AI never flags, even on a live clock
                deadline = clocks.seat_deadline(tc, state, seat, vacations.get(users.get(seat) or 0, []))
                if deadline is not None and deadline <= now:
                    raise HostError("Your time has run out; the timeout will be recorded shortly.")
        movers = sorted(s for s in game.to_move() if s != CHANCE)
        new = clocks.advance(tc, state, movers=movers, acted=acted, seats=game.num_players, now=now)
        return {"clock": new.to_json(), **schedule(tc, new, users, vacations)}

    async def reschedule(self, row: GameRow) -> None:
        """Recompute deadline and reminder from the clock state (after a vacation); a racing move wins."""
        tc = control_of(row)
        state = await self.load_state(row.id)
        if row.status != "active" or (tc.kind != "none" and not state.started):
            return
        users = {s.seat: s.user_id for s in row.seats}
        vacations = await self.vacations_of(users.values(), min([self.now(), *state.started.values()]))
        changes = schedule(tc, state, users, vacations, skip=await self.reminded(row.id, state))
        try:
            await self.session.write(row, **changes)
        except HostError:
            pass
