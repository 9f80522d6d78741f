"""Correspondence play on top of the host: clocks in every move's write, timeouts, reminders, overview.

A timeout is a move: it goes through ``Turns.commit`` (version-checked, the clock columns from ``Clocks``), so a
clock never changes apart from the move that changed it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from data.correspondence import (
    CorrespondenceStore,
    insert_vacation,
    lock_vacations,
    record_reminder,
    take_digest,
    vacation_days,
    vacation_end,
)
from data.store import GameRow, set_remind_at
from engines import CHANCE, Game
from host import outbox
from host.correspondence import clocks
from host.correspondence.clocks import DAY
from host.correspondence.timing import Clocks, control_of, schedule
from host.outbox import Owed
from host.play import bots, dice, match_rules
from host.play.turns import people_moved
from host.ratings.service import unrated_reason
from host.results import HostError, Report

if TYPE_CHECKING:
    from host.play.boards import Boards
    from host.play.session import GameSession
    from host.play.turns import Turns

log = logging.getLogger(__name__)
NOTIFY_MODES = {
    "thread": "turn mentions and reminders in the game thread only",
    "dm": "reminders by DM too (a thread mention when your DMs are closed)",
    "digest": "a daily DM listing every game where it is your turn, and thread mentions",
}
OVERVIEW_LIMIT = 200
"""Active games ``/games`` and the digest look at: the most recently changed ones. Each costs an engine, and a
reply shows about twenty lines, so a player in thousands of games still gets an answer in time."""
HISTORY_PAGE = 8
"""Games per ``/history`` page: a line with three opponents, a reason and an unrated mark is ~240
characters, so a page fits one message."""


@dataclass(frozen=True)
class GameLine:
    """One active game in ``/games``: who plays, whose turn, how long until the clock runs out."""

    game_id: int
    title: str
    guild_id: int | None
    thread_id: int | None
    opponents: list[int]
    to_move: list[int]
    my_turn: bool
    time_left: float | None
    clock: str

    def text(self, player: int | None = None) -> str:
        """The line as its player reads it; ``player``: someone else's list, read by another member."""
        against = ", ".join(bots.mention(u) for u in self.opponents) or ("yourself" if player is None else "themselves")
        mine = "**your turn**" if player is None else f"**{bots.mention(player)}'s turn**"
        turn = mine if self.my_turn else "waiting for " + ", ".join(bots.mention(u) for u in self.to_move)
        left = f" · {clocks.format_duration(self.time_left)} left" if self.time_left is not None else ""
        where = f" · <#{self.thread_id}>" if self.thread_id else ""
        return f"**{self.title}** #{self.game_id} vs {against} · {turn}{left}{where}"


@dataclass(frozen=True)
class HistoryLine:
    """One finished game in ``/history``."""

    game_id: int
    title: str
    thread_id: int | None
    opponents: list[int]
    result: str
    reason: str
    finished_at: float
    unrated: str | None = None
    """Why the game did not count for the ratings, or ``None`` when it did."""
    partners: list[int] = field(default_factory=list)
    """The user's partners in a team game (Ziggurat partners)."""

    def text(self) -> str:
        against = ", ".join(bots.mention(u) for u in self.opponents) or "yourself"
        with_ = f" with {', '.join(bots.mention(u) for u in self.partners)}" if self.partners else ""
        where = f" · <#{self.thread_id}>" if self.thread_id else ""
        when = f"<t:{int(self.finished_at)}:d>"
        unrated = f" · unrated: {self.unrated}" if self.unrated else ""
        return (f"**{self.title}** #{self.game_id}{with_} vs {against}: {self.result} ({self.reason[:80]}) · "
                f"{when}{unrated}{where}")


@dataclass(frozen=True)
class HistoryPage:
    """One page of ``/history``, newest games first."""

    lines: list[HistoryLine]
    page: int
    pages: int
    total: int


@dataclass(frozen=True)
class Due:
    """Game ids whose deadline passed, and those with a reminder due."""

    timeouts: list[int]
    reminders: list[int]


@dataclass(frozen=True)
class Reminder:
    """Send ``text`` by DM when ``dm``; otherwise (or when DMs are closed) mention the user in the thread."""

    user_id: int
    game_id: int
    seat: int
    thread_id: int | None
    text: str
    dm: bool
    key: str | None = None
    """Its outbox key (host/outbox.py): mark it done once sent, or the dispatcher sends it."""


@dataclass(frozen=True)
class Notice:
    """A plain message for a game's thread (a game abandoned before anyone moved)."""

    game_id: int
    thread_id: int | None
    text: str
    key: str | None = None
    """Its outbox key: mark it done once posted."""
    reply_to: int | None = None
    """A game without a thread: the notice answers its challenge message in the channel, naming the players."""
    next_game: Report | None = None
    """A match's next game, started because the clock aborted a later game of it: post it after the notice."""


@dataclass(frozen=True)
class Digest:
    user_id: int
    text: str
    key: str | None = None
    """Its outbox key: mark it done once sent, or a dispatcher (of any process) sends it."""


# ----- timeouts and reminders ---------------------------------------------------------------


def reminder_key(game_id: int, seat: int, turn_start: float) -> str:
    """The outbox key of a turn's reminder: the turn is named by its seat and when it began, as ``reminders`` does."""
    return f"remind:{game_id}:{seat}:{turn_start!r}"


def turn_of_reminder(key: str) -> tuple[int, int, float]:
    """(game id, seat, turn start) of a ``reminder_key``."""
    _, game_id, seat, turn_start = key.split(":")
    return int(game_id), int(seat), float(turn_start)


# ----- overview, notifications, vacation ----------------------------------------------------


def all_out_together(game: Game, late: Sequence[int]) -> bool:
    """Whether ``late`` (seats out of time at the same moment) are every side still in the game, none of them with a
    move the rules make for it (Zodiac's duel Tree): nobody ran out first, so no side can be said to have lost on
    time to another. In a 2-player game that is both players of a simultaneous phase."""
    teams = game.teams()
    out = {teams[s] for s in late if 0 <= s < game.num_players}
    remaining = {teams[s] for s in game.active_seats()}
    return len(remaining) > 1 and out == remaining and all(game.timeout_move(s) is None for s in late)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def place(rank: int, ranks: Sequence[int]) -> str:
    """The user's placing as the result recorded it: ``won``, ``3rd of 4``, ``shared 2nd-4th of 4`` for a tie."""
    if len(set(ranks)) == 1:
        return "draw"
    tied = sum(1 for r in ranks if r == rank)
    if rank == 1:
        return "won" if tied == 1 else f"won, shared with {tied - 1} other{'s' if tied > 2 else ''}"
    if len(ranks) == 2:
        return "lost"
    if tied > 1:
        return f"shared {ordinal(rank)}-{ordinal(rank + tied - 1)} of {len(ranks)}"
    return f"{ordinal(rank)} of {len(ranks)}"


class Correspondence:
    """Timeouts, reminders, digests, vacations and the game lists, over Turns (a timeout is a move) and Clocks."""

    def __init__(self, session: GameSession, clocks: Clocks, turns: Turns, boards: Boards,
                 now: Callable[[], float]) -> None:
        self.session = session
        self.clocks = clocks
        self.turns = turns
        self.boards = boards
        self.now = now
        self.stored = CorrespondenceStore(session.db)
        self.after_abandon: list[Callable[[int], Awaitable[Report | None]]] = []
        """Told the id of a later match game the clock aborted (after the commit): the match's next step (wired
        in host/app.py); may return the next game's start report. The owed ``match_next`` job is the fallback."""

    async def timeout(self, game_id: int, seat: int) -> Report:
        """``seat`` ran out of time: it loses a 2-player game; with more players it is skipped and ranked last."""
        row = await self.session.row(game_id)
        self.session.require_status(row, "active")
        tc = control_of(row)
        if tc.kind == "none":
            raise HostError(f"Game #{game_id} has no clock.")
        game = (await self.session.cached_engine(row)).clone()
        state = await self.clocks.load_state(game_id)
        user = row.user_at(seat)
        vacations = await self.clocks.vacations_of([user], min([self.now(), *state.started.values()]))
        deadline = clocks.seat_deadline(tc, state, seat, vacations.get(user or 0, []))
        if seat not in game.to_move() or deadline is None:
            raise HostError(f"It is not {game.seat_name(seat)}'s turn in game #{game_id}.")
        if deadline > self.now():
            raise HostError(f"{game.seat_name(seat)} still has {clocks.format_duration(deadline - self.now())}.")
        stand_in = game.timeout_move(seat)
        if stand_in is not None:
            applied = [(seat, game.play(seat, stand_in))]
            then = " The rules make that move for them."
        else:
            game.eliminate(seat, "timeout")
            applied = [(seat, "timeout")]
            then = "" if game.outcome() is not None else " They are skipped from now on and rank last."
        applied += [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        who = f"{game.seat_name(seat)} ({bots.mention(user)})" if user is not None else game.seat_name(seat)
        prefix = f"⏰ {who} ran out of time ({tc.describe()}).{then}"
        await self.turns.commit(row, game, applied, draw_offers=[], late_ok=True, prefix=prefix)
        report = await self.turns.settled(await self.boards.report(row, game, applied), game)
        report.caption = f"{prefix}\n{report.caption}"
        return report

    async def abandon(self, game_id: int, late: Sequence[int] = ()) -> Notice | None:
        """Abort a game whose clock ran out before anyone moved: a loss then would only punish the seat order.
        ``late``: the seats out of time at the earliest deadline (``late_seats``); when they are every player still
        in the game, all out at the same moment, nobody ran out first: a double forfeit, aborted the same way.

        A later game of a match is owed to the match's score, so the match counts it as a forfeit lost by the
        seats that had to move (as an event does, docs/tournaments.md) and takes its next step; game 1 of a
        match is the match's row, so aborting it cancels the match."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return None
        game = await self.session.cached_engine(row)
        moved = people_moved(row, game)  # only the AI moved: nobody who could run out of time did
        together = moved and all_out_together(game, late)
        if moved and not together:
            return None
        ran_out = control_of(row).describe()
        if together:
            who = " and ".join(bots.mention(row.user_at(s)) if row.user_at(s) is not None else game.seat_name(s)
                               for s in sorted(late))
            every = "both" if len(late) == 2 else "all"
            text = (f"⏰ {game.title} #{row.id} is aborted: {who} {every} ran out of time at the same moment"
                    f" ({ran_out}), so nobody lost on time to another. The game is unrated.")
        else:
            text = f"⏰ {game.title} #{row.id} is aborted: nobody moved before the clock ran out ({ran_out})."
        key = f"notice:{row.id}:abandoned"
        later = row.settings.get("match_of") is not None
        forfeit: dict[str, Any] = {}
        if later:
            movers = sorted(s for s in game.to_move() if 0 <= s < row.players) or list(range(row.players))
            forfeit = {"result": match_rules.forfeit_result(movers), "match_pending": True}
            absent = " and ".join(bots.mention(row.user_at(s)) for s in movers)
            some = len(movers) < row.players
            text += (f" For the match it counts as a game lost by {absent}, who had to move." if some
                     else f" For the match neither player scores: {absent} both had to move.")
            # the score after this game, in the notice: when it ends the match, nothing else says so
            text += f"\n{(await self._score_with(row, forfeit['result'])).line()}"
        elif cancelled := match_rules.cancelled_with(row):
            text += f" {cancelled}." if together else f" {cancelled}: it never began."
        payload: dict[str, object] = {"text": text}
        if row.thread_id is None:  # the thread was never made: answer the challenge in the channel, with a ping
            players = " ".join(f"<@{s.user_id}>" for s in row.seats
                               if s.user_id is not None and not bots.is_ai(s.user_id))
            text = payload["text"] = f"{text} {players}".strip()
            payload["reply_to"] = row.message_id
        owed = [Owed("notice", key, row.id, payload), outbox.retired(row.id),
                *(match_rules.owed_next(row) if later else [])]
        await self.session.write(row, status="aborted", deadline=None, remind_at=None, owed=owed, **forfeit)
        started = None
        for listener in self.after_abandon if later else ():
            try:
                started = await listener(row.id) or started
            except Exception:  # the abort stands; the owed match_next job takes the match's next step
                log.exception("the match of game %s did not go on after its abort", row.id)
        return Notice(row.id, row.thread_id or row.channel_id, text, key,
                      reply_to=row.message_id if row.thread_id is None else None, next_game=started)

    async def _score_with(self, row: GameRow, result: dict[str, Any]) -> match_rules.Score:
        """The match's score once this game counts with ``result``: read before the write that records it, as the
        owed notice is written with it."""
        return await match_rules.score(self.session.store, row, also=replace(row, status="aborted", result=result))

    async def due(self, now: float, limit: int | None = None) -> Due:
        """Two indexed range scans, (status, deadline) and (status, remind_at), earliest first; ``limit`` each
        keeps a tick's reads to the batch it handles, however long the backlog."""
        store = self.session.store
        return Due(await store.due_deadlines(now, limit), await store.due_reminders(now, limit))

    async def late_seats(self, game_id: int, now: float) -> list[int]:
        """The seats whose deadline passed first: several when they ran out at the same moment (a simultaneous
        phase, whose clocks all started together); none when no deadline has passed."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return []
        tc, state = control_of(row), await self.clocks.load_state(game_id)
        users = {s.seat: s.user_id for s in row.seats}
        vacations = await self.clocks.vacations_of(users.values(), min([now, *state.started.values()]))
        late = [(d, s) for s in state.started
                if (d := clocks.seat_deadline(tc, state, s, vacations.get(users.get(s) or 0, []))) is not None
                and d <= now and not bots.is_ai(users.get(s))]
        first = min((d for d, _ in late), default=None)
        return sorted(s for d, s in late if d == first)

    async def owes_reminder(self, key: str) -> bool:
        """Whether the reminder owed under ``key`` (a retried send) still has news: its game is active and its seat
        is still on the turn it was reminded of. A game over or a turn played since makes it stale: dropped."""
        game_id, seat, turn_start = turn_of_reminder(key)
        row = await self.session.store.get(game_id)
        if row is None or row.status != "active":
            return False
        return (await self.clocks.load_state(game_id)).started.get(seat) == turn_start

    async def notify_mode(self, user: int) -> str:
        return await self.stored.notify_mode(user) or "dm"

    async def remind(self, game_id: int, now: float) -> list[Reminder]:
        """Reminders due in one game, each recorded before it is returned: at most once per turn, restarts included."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return []
        tc, state = control_of(row), await self.clocks.load_state(game_id)
        users = {s.seat: s.user_id for s in row.seats}
        vacations = await self.clocks.vacations_of(users.values(), min([now, *state.started.values()]))
        already = await self.clocks.reminded(game_id, state)
        title = self.session.game_class(row.game).title
        out: list[Reminder] = []
        for seat in sorted(state.started):
            away = vacations.get(users.get(seat) or 0, [])
            when = clocks.reminder_time(tc, state, seat, away)
            deadline = clocks.seat_deadline(tc, state, seat, away)
            user = users.get(seat)
            if seat in already or when is None or when > now or deadline is None or deadline <= now or user is None \
                    or bots.is_ai(user):
                continue
            text = (f"⏳ <@{user}>, it is your move in **{title}** #{row.id}: "
                    f"{clocks.format_duration(deadline - now)} left ({tc.describe()}).")
            if row.guild_id and row.thread_id:
                text += f" https://discord.com/channels/{row.guild_id}/{row.thread_id}"
            key = reminder_key(row.id, seat, state.started[seat])
            out.append(Reminder(user, row.id, seat, row.thread_id, text, await self.notify_mode(user) == "dm", key))
            already.add(seat)
        changes = schedule(tc, state, users, vacations, skip=already)
        recorded: list[Reminder] = []
        async with self.session.db.transaction() as conn:
            for item in out:  # a concurrent tick may have recorded the same reminder: only the first sends it
                if await record_reminder(conn, game_id, item.seat, state.started[item.seat], now):
                    recorded.append(item)  # recorded and owed in one transaction: sent once, even across a crash
                    await outbox.write(conn, [Owed("remind", item.key or "", game_id, {
                        "user": item.user_id, "thread_id": item.thread_id, "text": item.text, "dm": item.dm})], now)
            if not await set_remind_at(conn, game_id, row.version, changes["remind_at"]):
                raise HostError(f"Game #{game_id} changed meanwhile.")
        if recorded:
            outbox.crash_point("remind")
        return recorded

    async def games_overview(self, user: int, guild_id: int | None) -> list[GameLine]:
        """Active games of ``user``, most urgent first: your turn before theirs, least time left first. Only the
        ``OVERVIEW_LIMIT`` most recently changed games are looked at."""
        lines: list[GameLine] = []
        now = self.now()
        rows = await self.session.store.games_of(user, ("active",), guild_id=guild_id, limit=OVERVIEW_LIMIT)
        games = await self.session.cached_engines(rows)  # a few queries for all games, not several per game
        states = await self.clocks.load_states([row.id for row in rows])
        since_all = min([now, *(t for state in states.values() for t in state.started.values())])
        every_vacation = await self.clocks.vacations_of((s.user_id for row in rows for s in row.seats), since_all)
        for row, game in zip(rows, games, strict=True):
            tc, state = control_of(row), states[row.id]
            movers = sorted(s for s in game.to_move() if s != CHANCE)
            mine = [s for s in movers if row.user_at(s) == user]
            seats = mine or movers
            users = {s.seat: s.user_id for s in row.seats}
            since = min([now, *state.started.values()])  # as vacations_of(users, since) would answer
            vacations = {u: [v for v in every_vacation.get(u, []) if v[1] > since]
                         for u in users.values() if u is not None}
            lefts = [left for s in seats if (left := clocks.time_left(
                tc, state, s, now, vacations.get(users.get(s) or 0, []))) is not None and s in state.started]
            lines.append(GameLine(
                game_id=row.id, title=game.title, guild_id=row.guild_id, thread_id=row.thread_id,
                opponents=sorted({u for s in row.seats if (u := s.user_id) is not None and u != user}),
                to_move=sorted({u for s in movers if (u := row.user_at(s)) is not None}),
                my_turn=bool(mine), time_left=min(lefts, default=None), clock=tc.text))
        lines.sort(key=lambda g: (not g.my_turn, g.time_left if g.time_left is not None else math.inf, g.game_id))
        return lines

    async def history(self, user: int, guild_id: int | None, page: int = 1) -> HistoryPage:
        """Finished games of ``user``, newest first, a page at a time, with their placing and whether rated."""
        total = await self.session.store.count_games_of(user, ("finished",), guild_id=guild_id)
        pages = max(1, math.ceil(total / HISTORY_PAGE))
        page = min(max(1, page), pages)  # only one page of rows is read: a long history stays cheap
        rows = await self.session.store.games_of(user, ("finished",), guild_id=guild_id, limit=HISTORY_PAGE,
                                         offset=(page - 1) * HISTORY_PAGE)
        lines: list[HistoryLine] = []
        for row in rows:
            result = row.result or {}
            ranks = result.get("ranks") or []
            seats = row.seats_of(user)
            best = min((ranks[s] for s in seats if s < len(ranks)), default=None)
            team_of = {s.seat: s.team for s in row.seats}
            mine = {team_of.get(s) for s in seats}
            teamed = len(set(team_of.values())) < len(team_of) and len(ranks) == len(team_of)
            if teamed and best is not None:  # a team game is won or lost by the team: "lost", not "shared 3rd-4th"
                by_team: dict[int, int] = {}
                for s, r in enumerate(ranks):
                    by_team[team_of[s]] = min(r, by_team.get(team_of[s], r))
                outcome = place(best, sorted(by_team.values()))
            else:
                outcome = place(best, ranks) if best is not None else "?"
            partners = sorted({u for s in row.seats if (u := s.user_id) is not None and u != user
                               and teamed and s.team in mine})
            lines.append(HistoryLine(
                game_id=row.id, title=self.session.game_class(row.game).title, thread_id=row.thread_id,
                opponents=sorted({u for s in row.seats if (u := s.user_id) is not None and u != user} - set(partners)),
                partners=partners,
                result=outcome, reason=str(result.get("reason", "")), finished_at=row.updated_at,
                unrated=unrated_reason(row, await self.session.cached_engine(row))))
        return HistoryPage(lines, page, pages, total)

    async def set_notify(self, user: int, mode: str) -> str:
        """Store the preference; the first digest goes out with the next scheduler tick, then daily."""
        if mode not in NOTIFY_MODES:
            raise HostError(f"Choose one of: {', '.join(NOTIFY_MODES)}.")
        next_digest = self.now() if mode == "digest" else None
        await self.stored.set_notify(user, mode, next_digest)
        return f"Notifications: {NOTIFY_MODES[mode]}."

    async def due_digests(self, now: float, limit: int | None = None) -> list[int]:
        return await self.stored.due_digests(now, limit)

    async def postpone_digest(self, user: int, until: float) -> None:
        """A digest whose building failed steps aside until ``until``, as a broken game's clock does."""
        await self.stored.postpone_digest(user, until)

    async def digest(self, user: int, now: float) -> Digest | None:
        """Move the user's next digest a day on (skipping missed days) and list the games awaiting them."""
        due_at = await self.stored.next_digest(user)
        if due_at is None or due_at > now:  # not due: a concurrent tick (another process) just took it and moved it
            return None  # on, and taking the next day's now would send tomorrow's digest today, a second one
        following = due_at + DAY * (math.floor((now - due_at) / DAY) + 1)
        waiting = [g for g in await self.games_overview(user, None) if g.my_turn]
        lines = [f"📬 It is your turn in {len(waiting)} game{'s' if len(waiting) != 1 else ''}:"]
        for g in waiting:
            link = f" https://discord.com/channels/{g.guild_id}/{g.thread_id}" if g.guild_id and g.thread_id else ""
            left = f", {clocks.format_duration(g.time_left)} left" if g.time_left is not None else ""
            lines.append(f"• **{g.title}** #{g.game_id}{left}{link}")
        found_digest = Digest(user, "\n".join(lines), f"digest:{user}:{int(due_at)}") if waiting else None
        async with self.session.db.transaction() as conn:  # taken and owed together: sent once, even after a crash
            taken = await take_digest(conn, user, due_at, following)
            if taken and found_digest is not None:
                await outbox.write(conn, [Owed("digest", found_digest.key or "", None,
                                               {"user": user, "text": found_digest.text})], now)
        return found_digest if taken else None  # otherwise a concurrent tick (another process) took it

    async def vacation(self, user: int, days: int) -> str:
        """Pause the user's per-move clocks for ``days``, continuing any vacation already running."""
        now = self.now()
        async with self.session.db.transaction() as conn:  # checked and taken together: a double submit waits
            await lock_vacations(conn, user)  # for the first request, then sees its days
            running = await vacation_end(conn, user, now)
            start = running if running is not None else now
            end = start + days * DAY
            year = clocks.year_of(start)  # counted by the day it starts: one continuing into January is next year's
            used_days = await vacation_days(conn, user, year)
            try:
                clocks.check_vacation(days, used_days, year)
            except ValueError as error:
                raise HostError(str(error)) from None
            await insert_vacation(conn, user, year, start, end, days)
        for row in await self.session.store.games_of(user, ("active",)):
            if control_of(row).per_move is not None:
                await self.clocks.reschedule(row)
        return (f"🏖️ Your per-move clocks are paused until <t:{int(end)}:f> ({used_days + days} of "
                f"{clocks.VACATION_DAYS_PER_YEAR} vacation days used in {year}). Live games are not paused.")
