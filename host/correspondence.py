"""Correspondence play on top of the host: clocks in every move's write, timeouts, reminders, overview.

``Host`` keeps one thin method per command and calls these; they reuse its version-checked
``Host.write``/``Host.commit`` so a clock never changes apart from the move that changed it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from data.correspondence import CorrespondenceStore, record_reminder, take_digest
from data.store import GameRow, Seat, set_remind_at
from engines import CHANCE, Game
from host import bots, clocks, dice, outbox
from host.clocks import DAY, ClockState, TimeControl, Vacation
from host.outbox import Owed
from host.ratings import unrated_reason
from host.results import HostError, Report

if TYPE_CHECKING:
    from host.service import Host

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


@dataclass(frozen=True)
class Digest:
    user_id: int
    text: str
    key: str | None = None
    """Its outbox key: mark it done once sent, or a dispatcher (of any process) sends it."""


# ----- clock state --------------------------------------------------------------------------


def control_of(row: GameRow) -> TimeControl:
    """The game's time control (validated when the challenge was made; older games have none)."""
    return clocks.parse(row.settings.get("clock", "none"))


def _stored(host: Host) -> CorrespondenceStore:
    return CorrespondenceStore(host.db)


async def load_state(host: Host, game_id: int) -> ClockState:
    return ClockState.from_json(await host.store.clock_of(game_id))


async def load_states(host: Host, game_ids: Sequence[int]) -> dict[int, ClockState]:
    """Clock states of many games in one query per 500."""
    return {game_id: ClockState.from_json(text) for game_id, text in (await host.store.clocks_of(game_ids)).items()}


async def vacations_of(host: Host, users: Iterable[int | None], since: float) -> dict[int, list[Vacation]]:
    """Vacations still running at ``since`` or later, per user."""
    wanted = sorted({u for u in users if u is not None})
    found: dict[int, list[Vacation]] = {u: [] for u in wanted}
    if not wanted:
        return found
    for away in await _stored(host).vacations(wanted, since):
        found[away.user_id].append((away.starts, away.ends))
    return found


def _schedule(tc: TimeControl, state: ClockState, users: dict[int, int | None],
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


async def clock_changes(host: Host, row: GameRow, game: Game, applied: Sequence[tuple[int, str]],
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
    now = host.now()
    state = ClockState() if fresh else await load_state(host, row.id)
    users = {s.seat: s.user_id for s in (seats if seats is not None else row.seats)}
    vacations = await vacations_of(host, users.values(), min([now, *state.started.values()]))
    acted = {seat for seat, _ in applied if seat != CHANCE}
    for seat, text in applied:
        if seat in state.started and text not in ("resign", "timeout", "draw") and not late_ok \
                and not bots.is_ai(users.get(seat)):  # an AI never flags, even on a live clock
            deadline = clocks.seat_deadline(tc, state, seat, vacations.get(users.get(seat) or 0, []))
            if deadline is not None and deadline <= now:
                raise HostError("Your time has run out; the timeout will be recorded shortly.")
    movers = sorted(s for s in game.to_move() if s != CHANCE)
    new = clocks.advance(tc, state, movers=movers, acted=acted, seats=game.num_players, now=now)
    return {"clock": new.to_json(), **_schedule(tc, new, users, vacations)}


async def reschedule(host: Host, row: GameRow) -> None:
    """Recompute deadline and reminder from the clock state (after a vacation); a racing move wins."""
    tc = control_of(row)
    state = await load_state(host, row.id)
    if row.status != "active" or (tc.kind != "none" and not state.started):
        return
    users = {s.seat: s.user_id for s in row.seats}
    vacations = await vacations_of(host, users.values(), min([host.now(), *state.started.values()]))
    changes = _schedule(tc, state, users, vacations, skip=await _reminded(host, row.id, state))
    try:
        await host.write(row, **changes)
    except HostError:
        pass


async def _reminded(host: Host, game_id: int, state: ClockState) -> set[int]:
    """Seats already reminded on their current turn."""
    return {seat for seat, start in await _stored(host).reminded(game_id) if state.started.get(seat) == start}


# ----- timeouts and reminders ---------------------------------------------------------------


async def timeout(host: Host, game_id: int, seat: int) -> Report:
    """``seat`` ran out of time: it loses a 2-player game; with more players it is skipped and ranked last."""
    row = await host.get(game_id)
    host.require_status(row, "active")
    tc = control_of(row)
    if tc.kind == "none":
        raise HostError(f"Game #{game_id} has no clock.")
    game = (await host.engine_of(row)).clone()
    state = await load_state(host, game_id)
    user = row.user_at(seat)
    vacations = await vacations_of(host, [user], min([host.now(), *state.started.values()]))
    deadline = clocks.seat_deadline(tc, state, seat, vacations.get(user or 0, []))
    if seat not in game.to_move() or deadline is None:
        raise HostError(f"It is not {game.seat_name(seat)}'s turn in game #{game_id}.")
    if deadline > host.now():
        raise HostError(f"{game.seat_name(seat)} still has {clocks.format_duration(deadline - host.now())}.")
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
    await host.commit(row, game, applied, draw_offers=[], late_ok=True, prefix=prefix)
    report = await host.settled(await host.report(row, game, applied), game)
    report.caption = f"{prefix}\n{report.caption}"
    return report


async def abandon(host: Host, game_id: int) -> Notice | None:
    """Abort a game whose clock ran out before anyone moved: a loss then would only punish the seat order."""
    row = await host.get(game_id)
    if row.status != "active":
        return None
    game = await host.engine_of(row)
    if host.people_moved(row, game):  # only the AI moved: nobody who could run out of time did
        return None
    ran_out = control_of(row).describe()
    text = f"⏰ {game.title} #{row.id} is aborted: nobody moved before the clock ran out ({ran_out})."
    key = f"notice:{row.id}:abandoned"
    payload: dict[str, object] = {"text": text}
    if row.thread_id is None:  # the thread was never made: answer the challenge in the channel, with a ping
        players = " ".join(f"<@{s.user_id}>" for s in row.seats if s.user_id is not None and not bots.is_ai(s.user_id))
        text = payload["text"] = f"{text} {players}".strip()
        payload["reply_to"] = row.message_id
    await host.write(row, status="aborted", deadline=None, remind_at=None,
                      owed=[Owed("notice", key, row.id, payload)])
    return Notice(row.id, row.thread_id or row.channel_id, text, key,
                  reply_to=row.message_id if row.thread_id is None else None)


async def due(host: Host, now: float, limit: int | None = None) -> Due:
    """Two indexed range scans, (status, deadline) and (status, remind_at), earliest first; ``limit`` each
    keeps a tick's reads to the batch it handles, however long the backlog."""
    return Due(await host.store.due_deadlines(now, limit), await host.store.due_reminders(now, limit))


async def late_seat(host: Host, game_id: int, now: float) -> int | None:
    """The seat whose deadline passed first, if any."""
    row = await host.get(game_id)
    if row.status != "active":
        return None
    tc, state = control_of(row), await load_state(host, game_id)
    users = {s.seat: s.user_id for s in row.seats}
    vacations = await vacations_of(host, users.values(), min([now, *state.started.values()]))
    late = [(d, s) for s in state.started
            if (d := clocks.seat_deadline(tc, state, s, vacations.get(users.get(s) or 0, []))) is not None
            and d <= now and not bots.is_ai(users.get(s))]
    return min(late)[1] if late else None


async def notify_mode(host: Host, user: int) -> str:
    return await _stored(host).notify_mode(user) or "dm"


async def remind(host: Host, game_id: int, now: float) -> list[Reminder]:
    """Reminders due in one game, each recorded before it is returned: at most once per turn, restarts included."""
    row = await host.get(game_id)
    if row.status != "active":
        return []
    tc, state = control_of(row), await load_state(host, game_id)
    users = {s.seat: s.user_id for s in row.seats}
    vacations = await vacations_of(host, users.values(), min([now, *state.started.values()]))
    already = await _reminded(host, game_id, state)
    title = host.game_class(row.game).title
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
        key = f"remind:{row.id}:{seat}:{state.started[seat]}"
        out.append(Reminder(user, row.id, seat, row.thread_id, text, await notify_mode(host, user) == "dm", key))
        already.add(seat)
    changes = _schedule(tc, state, users, vacations, skip=already)
    recorded: list[Reminder] = []
    async with host.db.transaction() as conn:
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


# ----- overview, notifications, vacation ----------------------------------------------------


async def games_overview(host: Host, user: int, guild_id: int | None) -> list[GameLine]:
    """Active games of ``user``, most urgent first: your turn before theirs, least time left first. Only the
    ``OVERVIEW_LIMIT`` most recently changed games are looked at."""
    lines: list[GameLine] = []
    now = host.now()
    rows = await host.store.games_of(user, ("active",), guild_id=guild_id, limit=OVERVIEW_LIMIT)
    games = await host.engines_of(rows)  # a few queries for all games, not several per game
    states = await load_states(host, [row.id for row in rows])
    since_all = min([now, *(t for state in states.values() for t in state.started.values())])
    every_vacation = await vacations_of(host, (s.user_id for row in rows for s in row.seats), since_all)
    for row, game in zip(rows, games, strict=True):
        tc, state = control_of(row), states[row.id]
        movers = sorted(s for s in game.to_move() if s != CHANCE)
        mine = [s for s in movers if row.user_at(s) == user]
        seats = mine or movers
        users = {s.seat: s.user_id for s in row.seats}
        since = min([now, *state.started.values()])  # as vacations_of(users, since) would answer
        vacations = {u: [v for v in every_vacation.get(u, []) if v[1] > since] for u in users.values() if u is not None}
        lefts = [left for s in seats if (left := clocks.time_left(
            tc, state, s, now, vacations.get(users.get(s) or 0, []))) is not None and s in state.started]
        lines.append(GameLine(
            game_id=row.id, title=game.title, guild_id=row.guild_id, thread_id=row.thread_id,
            opponents=sorted({u for s in row.seats if (u := s.user_id) is not None and u != user}),
            to_move=sorted({u for s in movers if (u := row.user_at(s)) is not None}),
            my_turn=bool(mine), time_left=min(lefts, default=None), clock=tc.text))
    lines.sort(key=lambda g: (not g.my_turn, g.time_left if g.time_left is not None else math.inf, g.game_id))
    return lines


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


async def history(host: Host, user: int, guild_id: int | None, page: int = 1) -> HistoryPage:
    """Finished games of ``user``, newest first, a page at a time, with their placing and whether they were rated."""
    total = await host.store.count_games_of(user, ("finished",), guild_id=guild_id)
    pages = max(1, math.ceil(total / HISTORY_PAGE))
    page = min(max(1, page), pages)  # only one page of rows is read: a long history stays cheap
    rows = await host.store.games_of(user, ("finished",), guild_id=guild_id, limit=HISTORY_PAGE,
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
            game_id=row.id, title=host.game_class(row.game).title, thread_id=row.thread_id,
            opponents=sorted({u for s in row.seats if (u := s.user_id) is not None and u != user} - set(partners)),
            partners=partners,
            result=outcome, reason=str(result.get("reason", "")), finished_at=row.updated_at,
            unrated=unrated_reason(row, await host.engine_of(row))))
    return HistoryPage(lines, page, pages, total)


async def set_notify(host: Host, user: int, mode: str) -> str:
    """Store the preference; the first digest goes out with the next scheduler tick, then daily."""
    if mode not in NOTIFY_MODES:
        raise HostError(f"Choose one of: {', '.join(NOTIFY_MODES)}.")
    next_digest = host.now() if mode == "digest" else None
    await _stored(host).set_notify(user, mode, next_digest)
    return f"Notifications: {NOTIFY_MODES[mode]}."


async def due_digests(host: Host, now: float, limit: int | None = None) -> list[int]:
    return await _stored(host).due_digests(now, limit)


async def digest(host: Host, user: int, now: float) -> Digest | None:
    """Move the user's next digest a day on (skipping missed days) and list the games awaiting them."""
    due_at = await _stored(host).next_digest(user)
    if due_at is None:
        return None
    following = due_at + DAY * (math.floor((now - due_at) / DAY) + 1)
    waiting = [g for g in await games_overview(host, user, None) if g.my_turn]
    lines = [f"📬 It is your turn in {len(waiting)} game{'s' if len(waiting) != 1 else ''}:"]
    for g in waiting:
        link = f" https://discord.com/channels/{g.guild_id}/{g.thread_id}" if g.guild_id and g.thread_id else ""
        left = f", {clocks.format_duration(g.time_left)} left" if g.time_left is not None else ""
        lines.append(f"• **{g.title}** #{g.game_id}{left}{link}")
    found_digest = Digest(user, "\n".join(lines), f"digest:{user}:{int(due_at)}") if waiting else None
    async with host.db.transaction() as conn:  # taken and owed together: sent once, even if this process dies
        taken = await take_digest(conn, user, due_at, following)
        if taken and found_digest is not None:
            await outbox.write(conn, [Owed("digest", found_digest.key or "", None,
                                           {"user": user, "text": found_digest.text})], now)
    return found_digest if taken else None  # otherwise a concurrent tick (another process) took it


async def vacation(host: Host, user: int, days: int) -> str:
    """Pause the user's per-move clocks for ``days``, continuing any vacation already running."""
    now = host.now()
    year = clocks.year_of(now)
    used_days = await _stored(host).vacation_days(user, year)
    try:
        clocks.check_vacation(days, used_days)
    except ValueError as error:
        raise HostError(str(error)) from None
    running = await _stored(host).vacation_end(user, now)
    start = running if running is not None else now
    end = start + days * DAY
    await _stored(host).add_vacation(user, year, start, end, days)
    for row in await host.store.games_of(user, ("active",)):
        if control_of(row).per_move is not None:
            await reschedule(host, row)
    return (f"🏖️ Your per-move clocks are paused until <t:{int(end)}:f> ({used_days + days} of "
            f"{clocks.VACATION_DAYS_PER_YEAR} vacation days used in {year}). Live games are not paused.")
