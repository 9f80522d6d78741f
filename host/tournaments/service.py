"""Tournaments (Swiss, round robin, knockout) as a Discord-free service: sign-up, start, withdrawals, standings.

Every command is one version-checked transaction over the event (data/tournaments.py). Everything that happens
without a command (pairing a round, starting its games, recording a result, posting pairings and
standings) is a durable job in the jobs table, enqueued in the transaction that causes it and run by
``host/tournaments/jobs.py``; each is idempotent, so a crash or restart at any point loses nothing and
pairs nothing twice. Pairing, scoring and tie-breaks are the pure functions of ``host/tournaments/pairing/``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from data import jobs
from data import tournaments as repo
from data.db import StaleVersion, Tx
from data.store import GameRow
from data.tournaments import EventRow, Snapshot
from engines import Game
from host.correspondence import clocks
from host.play import bots
from host.ratings.service import display_rating
from host.ratings.standings import NameOf
from host.results import HostError
from host.tournaments import image as tournament_image
from host.tournaments import plan, trf
from host.tournaments.pairing import knockout, scoring
from host.tournaments.pairing.model import seeded_order
from host.tournaments.texts import fit_table, number, parse_options, parse_start, points_text

if TYPE_CHECKING:
    from host.outbox import Outbox
    from host.play.boards import Boards
    from host.play.lobby import Lobby
    from host.play.session import GameSession
    from host.play.turns import Turns

START, RESULT, PAIR, SETTLE, GAMES, WITHDRAW, POST = (
    "event_start", "event_result", "event_pair", "event_settle", "event_games", "event_withdraw", "event_post")
KINDS = (START, RESULT, PAIR, SETTLE, GAMES, WITHDRAW, POST)
MAX_PLAYERS = 64
MAX_SWISS_ROUNDS = 15
MAX_NAME = 40
"""An event's name, short enough for thread names ("Spring Swiss R2: Zaic #5" within Discord's 100)."""
STATUS_SAID = {"open": "is open for sign-up", "running": "is under way", "finished": "is over",
               "cancelled": "was cancelled"}
MEDALS = ("🥇", "🥈", "🥉")
DECISION_WORDS = {"rematch": "a rematch", "second_bye": "a second bye"}
MAX_REQUESTED_BYES = 2
"""Half-point byes a player may ask for in one event."""
FORMAT_NAMES = {plan.SWISS: "Swiss", plan.ROUND_ROBIN: "round robin", plan.KNOCKOUT: "knockout"}


@dataclass(frozen=True)
class Actor:
    """Who acts, with what a permission check needs: Manage Server, and their roles."""

    user_id: int
    manage_guild: bool = False
    roles: tuple[int, ...] = ()


@dataclass(frozen=True)
class StandingsView:
    event: EventRow
    text: str
    """Fits one Discord message: the table as lines (mentions), then what the tie-breaks mean."""
    images: list[bytes]
    """The table as PNG pages (none until the standings renderer is wired in)."""
    table: plan.Table


Picture = plan.Picture
ImageMaker = Callable[[Picture], list[bytes]]
"""Draws the standings as PNG pages."""


def score_text(table: plan.Table, points: float) -> str:
    """A row's score as its table counts it: points (``2½ pts``), or games won in a knockout (``2 won``)."""
    return points_text(points) if table.points == "Pts" else f"{number(points)} won"


def no_image(picture: Picture) -> list[bytes]:
    """Text-only standings (host tests that do not look at the picture)."""
    return []


class Tournaments:
    """The commands; ``host/tournaments/jobs.py`` runs the jobs they and the games enqueue."""

    def __init__(self, session: GameSession, lobby: Lobby, turns: Turns, boards: Boards, outbox: Outbox,
                 now: Callable[[], float], *, image: ImageMaker = tournament_image.draw) -> None:
        """``game_finished`` is a session finish hook: host/app.py registers it."""
        self.session = session
        self.lobby = lobby
        self.turns = turns
        self.boards = boards
        self.outbox = outbox
        self.now = now
        self.db = session.db
        self.image = image
        self.wake = asyncio.Event()
        """Set when a job of ours is enqueued in this process, so the worker needs no poll to notice."""

    # ----- the hook: a game ends ----------------------------------------------------------

    async def game_finished(self, tx: Tx, row: GameRow, game: Game, now: float) -> None:
        """FinishHook: inside the transaction that ends an event game, owe the event its result."""
        event_id = row.settings.get("event")
        if event_id is None:
            return
        await jobs.enqueue(tx, kind=RESULT, due_at=now, now=now, game_id=row.id, payload={"event": int(event_id)},
                           dedupe=f"event:{event_id}:game:{row.id}")
        self.wake.set()

    async def owe(self, tx: Tx, kind: str, event_id: int, key: str, now: float, *, due_at: float | None = None,
                  **payload: Any) -> None:
        """Enqueue one of our jobs in ``tx``; its key (``event:<id>:...``) makes it exist once."""
        await jobs.enqueue(tx, kind=kind, due_at=now if due_at is None else due_at, now=now,
                           payload={"event": event_id, **payload}, dedupe=f"event:{event_id}:{key}")
        self.wake.set()

    # ----- reading ------------------------------------------------------------------------

    async def load(self, event_id: int) -> Snapshot:
        snap = await repo.load(self.db, event_id)
        if snap is None:
            raise HostError(f"There is no event #{event_id}.")
        return snap

    async def resolve(self, guild_id: int | None, event_id: int | None,
                      statuses: Sequence[str] = ("open", "running")) -> int:
        """The event a command means: the one given, else the server's only open or running event."""
        if event_id is not None:
            snap = await self.load(event_id)
            if snap.event.guild_id != guild_id:
                raise HostError(f"There is no event #{event_id} in this server.")
            return event_id
        if guild_id is None:
            raise HostError("Events live in a server.")
        found = await repo.of_guild(self.db, guild_id, statuses)
        if not found:
            said = " or ".join({"open": "open for sign-up", "running": "under way", "finished": "finished"}[s]
                               for s in statuses)
            raise HostError(f"No event here is {said}; an organiser creates one with /tournament create.")
        if len(found) > 1:
            listed = ", ".join(f"#{e.id}" for e in found[:10])
            raise HostError(f"There are several events here ({listed}): say which with the `event` option.")
        return found[0].id

    async def resolve_shown(self, guild_id: int | None, event_id: int | None) -> int:
        """The event ``/tournament standings`` means without ``event:``: the only one running here, else the
        newest running one, else the server's newest event (open, or finished)."""
        if event_id is not None or guild_id is None:
            return await self.resolve(guild_id, event_id)
        found = await repo.of_guild(self.db, guild_id, ("open", "running", "finished"))
        if not found:
            raise HostError("No event here yet; an organiser creates one with /tournament create.")
        running = [e for e in found if e.status == "running"]
        return (running or found)[0].id  # newest first

    async def choices(self, guild_id: int | None, typed: str) -> list[tuple[str, int]]:
        """Autocomplete: (label, id) of the server's events, newest first."""
        if guild_id is None:
            return []
        found = await repo.of_guild(self.db, guild_id, ("open", "running", "finished"))
        labels = [(f"#{e.id} {self.title(e)} ({STATUS_SAID[e.status]})"[:100], e.id) for e in found]
        return [c for c in labels if typed.strip().lower() in c[0].lower()][:25]

    def option_choices(self, game: str | None, typed: str) -> list[str]:
        """Autocomplete for ``options``: what is typed so far, plus one more ``name=value`` of the game's options."""
        cls = self.session.games.get(game or "")
        if cls is None:
            return []
        done, _, last = typed.rpartition(",")
        given = {part.split("=")[0].strip().lower() for part in done.split(",") if "=" in part}
        prefix = f"{done.strip()}, " if done.strip() else ""
        found = [f"{prefix}{o.name}={str(c).lower()}" for o in cls.options_spec if o.name not in given
                 for c in o.choices if f"{o.name}={c}".lower().startswith(last.strip().lower())]
        return [c for c in found if len(c) <= 100][:25]

    @staticmethod
    def tiebreak_choices(typed: str) -> list[str]:
        """Autocomplete for ``tiebreaks``: what is typed so far, plus one more tie-break code."""
        done, _, last = typed.rpartition(",")
        given = {part.strip().lower() for part in done.split(",")}
        prefix = f"{done.strip()}, " if done.strip() else ""
        return [f"{prefix}{code}" for code, t in scoring.CHOICES.items() if code.lower() not in given
                and (code.lower().startswith(last.strip().lower()) or t.name.startswith(last.strip().lower()))][:25]

    def smallest_table(self, event: EventRow) -> int:
        """The fewest players a game of the event seats: the game's least count its options allow."""
        cls = self.session.game_class(event.game)
        for players in cls.players:
            try:
                cls.check_options(players, event.options)
            except ValueError:
                continue
            return players
        return cls.players.stop

    def title(self, event: EventRow) -> str:
        game = self.session.game_class(event.game).title
        tables = f", tables of {event.table_size}" if event.table_size > 2 else ""
        named = f"{event.name}: " if event.name else ""
        return f"{named}{game} {FORMAT_NAMES[event.format]}{tables}"

    # ----- permissions --------------------------------------------------------------------

    async def may_organise(self, guild_id: int, actor: Actor) -> bool:
        role = await repo.organiser_role(self.db, guild_id)
        return actor.manage_guild or (role is not None and role in actor.roles)

    @staticmethod
    async def require_organiser(event: EventRow, actor: Actor) -> None:
        """The event's own organiser, or a server manager: the organiser role lets members create events,
        not run other people's."""
        if actor.user_id == event.organiser_id or actor.manage_guild:
            return
        raise HostError(f"Only the organiser of event #{event.id} (<@{event.organiser_id}>) or someone with "
                        "Manage Server can do that.")

    async def settings(self, guild_id: int | None, actor: Actor, role_id: int | None) -> str:
        """Set (or clear) the role whose members may create events; Manage Server only."""
        if guild_id is None:
            raise HostError("Tournament settings belong to a server.")
        if not actor.manage_guild:
            raise HostError("Only members with Manage Server can change the tournament settings.")
        await repo.set_organiser_role(self.db, guild_id, role_id)
        if role_id is None:
            return "Only members with Manage Server may create events now."
        if role_id == guild_id:  # @everyone's id is the server's; Discord shows no mention <@&id> for it
            return "Everyone in this server may now create events."
        return f"Members with the role <@&{role_id}> (and anyone with Manage Server) may now create events."

    # ----- sign-up ------------------------------------------------------------------------

    async def create(self, *, guild_id: int | None, channel_id: int | None, actor: Actor, game: str, format: str,
                     rounds: int | None = None, clock: str = "none", rated: bool = True, max_players: int = 16,
                     starts: str | None = None, options: str | None = None, table_size: int = 2,
                     name: str | None = None, tiebreaks: str | None = None, match_games: int = 1,
                     third_place: bool = False, late_entry: int | None = None) -> EventRow:
        if guild_id is None:
            raise HostError("Events are run in a server channel.")
        if not await self.may_organise(guild_id, actor):
            raise HostError("Only members with Manage Server, or the role set with /tournament settings, may "
                            "create an event.")
        cls = self.session.game_class(game)
        if format not in plan.FORMATS:
            raise HostError(f"format must be one of {', '.join(plan.FORMATS)}.")
        if table_size not in cls.players or not 2 <= table_size <= 4:
            raise HostError(f"{cls.title} is played by {cls.player_count()}: table_size {table_size} is not possible.")
        if table_size > 2 and format != plan.SWISS:
            raise HostError("Tables of 3 or 4 players are paired Swiss: use format swiss.")
        if format == plan.SWISS and not 1 <= (rounds or 0) <= MAX_SWISS_ROUNDS:
            raise HostError(f"A Swiss event needs `rounds` between 1 and {MAX_SWISS_ROUNDS}.")
        if not 2 <= max_players <= MAX_PLAYERS:
            raise HostError(f"max_players must be between 2 and {MAX_PLAYERS}.")
        order = None
        if tiebreaks is not None and tiebreaks.strip():
            if format == plan.KNOCKOUT:
                raise HostError("A knockout has no tie-breaks: a match is decided by its games.")
            try:
                order = scoring.parse_tiebreaks(tiebreaks, format)
            except ValueError as error:
                raise HostError(f"Cannot use those tie-breaks: {error}.") from None
        rules: dict[str, Any] = {}
        if match_games != 1 or third_place:
            if format != plan.KNOCKOUT:
                raise HostError("match_games and third_place are for a knockout.")
            if match_games not in knockout.MATCH_GAMES:
                raise HostError("A knockout match is 1, 2 or 3 games.")
            rules = {"match_games": match_games} if match_games != 1 else {}
            if third_place:
                rules["third_place"] = True
        if late_entry is not None:
            if format != plan.SWISS:
                raise HostError("Late entries are for a Swiss: a round robin's schedule and a knockout's bracket "
                                "are fixed at the start.")
            if not 1 <= late_entry <= (rounds or 0):
                raise HostError(f"late_entry is a round of the event, 1 to {rounds}.")
            rules["late_entry"] = late_entry
        name = " ".join((name or "").split())[:MAX_NAME] or None
        sizes = plan.table_sizes(table_size) if format == plan.SWISS else (2,)
        checked = parse_options(cls, options, [s for s in sizes if s in cls.players])
        try:
            clock_text = clocks.parse(clock).text
        except ValueError as error:
            raise HostError(f"Cannot use that clock: {error}.") from None
        now = self.now()
        starts_at = parse_start(starts, now)
        async with self.db.transaction() as tx:
            event_id = await repo.create(
                tx, guild_id=guild_id, channel_id=channel_id, organiser_id=actor.user_id, game=game,
                options=checked, format=format, rounds=(rounds or 0) if format == plan.SWISS else 0,
                table_size=table_size, clock=clock_text, rated=rated, max_players=max_players, starts_at=starts_at,
                now=now, name=name, tiebreaks=order, rules=rules)
            if starts_at is not None:
                await self.owe(tx, START, event_id, "start", now, due_at=starts_at)
        return (await self.load(event_id)).event

    async def set_signup_message(self, event_id: int, message_id: int | None) -> None:
        await repo.set_message(self.db, event_id, message_id)

    async def set_standings_message(self, event_id: int, message_id: int | None) -> None:
        await repo.set_standings_message(self.db, event_id, message_id)

    async def join(self, event_id: int, user: int) -> Snapshot:
        snap = await self.load(event_id)
        if snap.event.status == "running" and snap.event.rules.get("late_entry"):
            return await self._join_late(snap, user)
        self._require_open(snap.event)
        if any(e.user_id == user for e in snap.entrants):
            raise HostError(f"You are already entered in event #{event_id}.")
        if len(snap.entrants) >= snap.event.max_players:
            raise HostError(f"Event #{event_id} is full ({snap.event.max_players} players).")
        return await self._change(snap, lambda tx, now: repo.add_entrant(tx, event_id, user, now))

    async def _join_late(self, snap: Snapshot, user: int) -> Snapshot:
        """A late entry into a running Swiss: paired from the next round; the rounds already paired are
        absences worth nothing (a zero bye each), and the seed is the next after everyone's."""
        event = snap.event
        last = int(event.rules["late_entry"])
        if event.current_round >= last:
            raise HostError(f"Late entries to event #{event.id} closed when round {last} was paired.")
        if any(e.user_id == user for e in snap.entrants):
            raise HostError(f"You are already entered in event #{event.id}.")
        if len(snap.entrants) >= event.max_players:
            raise HostError(f"Event #{event.id} is full ({event.max_players} players).")
        seed = max((e.seed or 0 for e in snap.entrants), default=0) + 1
        boards = {r: max((p.board for p in snap.pairings if p.round == r), default=0)
                  for r in range(1, event.current_round + 1)}
        missed = [repo.NewPairing(r, boards[r] + 1, (user,), bye=True, points=(0.0,))
                  for r in range(1, event.current_round + 1)]

        async def write(tx: Tx, now: float) -> None:
            await repo.add_entrant(tx, event.id, user, now, seed=seed)
            await repo.add_pairings(tx, event.id, missed)

        return await self._change(snap, write)

    async def request_bye(self, event_id: int, user: int, round_: int) -> str:
        """A half-point bye for a round not yet paired (asking again for the same round takes it back)."""
        snap = await self.load(event_id)
        event = snap.event
        if event.format != plan.SWISS:
            raise HostError("Byes on request are for a Swiss: a round robin and a knockout have fixed games.")
        if not any(e.user_id == user and e.status == "in" for e in snap.entrants):
            raise HostError(f"You are not playing in event #{event_id}.")
        if event.status not in ("open", "running"):
            raise HostError(f"Event #{event_id} {STATUS_SAID[event.status]}.")
        if round_ <= event.current_round:
            raise HostError(f"Round {round_} of event #{event_id} is already paired.")
        if not 1 <= round_ < event.rounds:
            raise HostError(f"A bye may be asked for rounds 1 to {event.rounds - 1}: not the last round, which "
                            "decides the places.")
        byes = {u: list(r) for u, r in event.rules.get("byes", {}).items()}
        mine = byes.get(str(user), [])
        if round_ in mine:
            mine.remove(round_)
            said = f"Your bye in round {round_} of event #{event_id} is cancelled: you will be paired."
        elif len(mine) >= MAX_REQUESTED_BYES:
            raise HostError(f"You have asked for {MAX_REQUESTED_BYES} byes already (rounds "
                            f"{', '.join(map(str, mine))}); ask again for one of them to cancel it.")
        else:
            mine = sorted([*mine, round_])
            said = f"You will sit out round {round_} of event #{event_id} for ½ point."
        byes[str(user)] = mine
        await self._set_rules(snap, {**event.rules, "byes": {u: r for u, r in byes.items() if r}})
        return said

    async def forbid(self, event_id: int, actor: Actor, first: int, second: int) -> str:
        """The organiser forbids a pairing (e.g. family members); forbidding it again allows it again."""
        snap = await self.load(event_id)
        event = snap.event
        await self.require_organiser(event, actor)
        if event.format != plan.SWISS or event.table_size != 2:
            raise HostError("Forbidden pairings are for a Swiss of 2-player games: a round robin meets everyone, "
                            "and a knockout's bracket is fixed by the seeds.")
        if event.status not in ("open", "running"):
            raise HostError(f"Event #{event_id} {STATUS_SAID[event.status]}.")
        if first == second:
            raise HostError("Name two different players.")
        pair = sorted((first, second))
        pairs = [list(p) for p in event.rules.get("forbidden", [])]
        if pair in pairs:
            pairs.remove(pair)
            said = f"<@{pair[0]}> and <@{pair[1]}> may be paired again in event #{event_id}."
        else:
            pairs.append(pair)
            said = f"<@{pair[0]}> and <@{pair[1]}> will never be paired together in event #{event_id}."
        await self._set_rules(snap, {**event.rules, "forbidden": pairs})
        return said

    async def _set_rules(self, snap: Snapshot, rules: dict[str, Any]) -> None:
        now = self.now()
        try:
            async with self.db.transaction() as tx:
                await repo.bump(tx, snap.event, now, rules={k: v for k, v in rules.items() if v})
        except StaleVersion:
            raise HostError(f"Event #{snap.event.id} changed at the same moment; please try again.") from None

    async def leave(self, event_id: int, user: int) -> Snapshot:
        snap = await self.load(event_id)
        self._require_open(snap.event)
        if not any(e.user_id == user for e in snap.entrants):
            raise HostError(f"You are not entered in event #{event_id}.")
        return await self._change(snap, lambda tx, now: repo.delete_entrant(tx, event_id, user))

    async def add_ai(self, event_id: int, actor: Actor, level: str) -> Snapshot:
        """An AI entrant at ``level``; each level is one player (one rating), so it enters once."""
        snap = await self.load(event_id)
        await self.require_organiser(snap.event, actor)
        self._require_open(snap.event)
        try:
            user = bots.user_of(level)
        except ValueError as error:
            raise HostError(str(error).capitalize() + ".") from None
        if any(e.user_id == user for e in snap.entrants):
            raise HostError(f"{bots.name(user)} is already entered: each AI level plays once in an event.")
        if len(snap.entrants) >= snap.event.max_players:
            raise HostError(f"Event #{event_id} is full ({snap.event.max_players} players).")
        return await self._change(snap, lambda tx, now: repo.add_entrant(tx, event_id, user, now))

    @staticmethod
    def _require_open(event: EventRow) -> None:
        if event.status != "open":
            raise HostError(f"Event #{event.id} {STATUS_SAID[event.status]}: sign-up is closed.")

    async def _change(self, snap: Snapshot, write: Callable[[Tx, float], Any]) -> Snapshot:
        """One version-checked write over the event as it was read; a concurrent change refuses cleanly."""
        now = self.now()
        try:
            async with self.db.transaction() as tx:
                await repo.bump(tx, snap.event, now)
                await write(tx, now)
                await self.owe(tx, POST, snap.event.id, f"signup:{snap.event.version + 1}", now, what="signup")
        except StaleVersion:
            raise HostError(f"Event #{snap.event.id} changed at the same moment; please try again.") from None
        return await self.load(snap.event.id)

    # ----- start, withdraw, remove ----------------------------------------------------------

    async def start(self, event_id: int, actor: Actor | None) -> Snapshot:
        """Close sign-up, fix the seeds, and owe round 1's pairing. ``actor`` None: the scheduled start."""
        snap = await self.load(event_id)
        event = snap.event
        if actor is not None:
            await self.require_organiser(event, actor)
        if event.status != "open":
            raise HostError(f"Event #{event_id} {STATUS_SAID[event.status]}.")
        users = [e.user_id for e in snap.entrants]
        least = 2 if event.format != plan.SWISS or event.table_size == 2 else plan.table_sizes(event.table_size)[-1]
        if len(users) < least:
            raise HostError(f"Event #{event_id} needs at least {least} players to start; it has {len(users)}.")
        order = await self.seeding(event, snap)
        now = self.now()
        rounds = plan.planned_rounds(event.format, len(users), event.rounds)
        try:
            async with self.db.transaction() as tx:
                await repo.bump(tx, event, now, status="running", rounds=rounds)
                await repo.set_seeds(tx, event_id, order)
                await self.owe(tx, PAIR, event_id, "round:1", now, round=1)
                await self.owe(tx, POST, event_id, "signup:started", now, what="signup")
        except StaleVersion:
            raise HostError(f"Event #{event_id} changed at the same moment; please try again.") from None
        return await self.load(event_id)

    async def cancel_unstartable(self, event_id: int) -> None:
        """The set start time came with too few players: the event is cancelled, and says so."""
        snap = await self.load(event_id)
        if snap.event.status != "open":
            return
        now = self.now()
        async with self.db.transaction() as tx:
            await repo.bump(tx, snap.event, now, status="cancelled")
            await self.owe(tx, POST, event_id, "cancelled", now, what="notice",
                           text=f"Event #{event_id} ({self.title(snap.event)}) is cancelled: too few players "
                                "had joined at its start time.")
            await self.owe(tx, POST, event_id, "signup:cancelled", now, what="signup")

    async def seeding(self, event: EventRow, snap: Snapshot) -> list[int]:
        """Initial ranks: by rating, then sign-up time, in a rated event; a reproducible draw otherwise."""
        users = [e.user_id for e in snap.entrants]
        if not event.rated:
            return seeded_order(users, f"event:{event.id}:{event.created_at}")
        rated = await repo.ratings_of(self.db, event.game, users)
        joined = {e.user_id: e.joined_at for e in snap.entrants}
        return sorted(users, key=lambda u: (-display_rating(*rated[u]) if u in rated else 0, u not in rated,
                                            joined[u]))

    async def withdraw(self, event_id: int, user: int) -> str:
        """A player leaves: before the start they simply leave; after it they forfeit what they have not played."""
        snap = await self.load(event_id)
        if snap.event.status == "open":
            await self.leave(event_id, user)
            return f"You left event #{event_id}."
        return await self._drop(snap, user, "withdrawn")

    async def remove(self, event_id: int, actor: Actor, player: int | None = None, ai_level: str | None = None) -> str:
        """The organiser takes a player (or an AI level) off: before the start they are gone, after it they
        are removed like a withdrawal."""
        if (player is None) == (ai_level is None):
            raise HostError("Name the player to remove, or the AI level, but not both.")
        if ai_level is not None:
            try:
                player = bots.user_of(ai_level)
            except ValueError as error:
                raise HostError(str(error).capitalize() + ".") from None
        assert player is not None
        snap = await self.load(event_id)
        await self.require_organiser(snap.event, actor)
        if not any(e.user_id == player for e in snap.entrants):
            raise HostError(f"{bots.mention(player)} is not entered in event #{event_id}.")
        if snap.event.status == "open":
            await self._change(snap, lambda tx, now: repo.delete_entrant(tx, event_id, player))
            return f"{bots.mention(player)} was taken off event #{event_id}."
        return await self._drop(snap, player, "removed")

    async def _drop(self, snap: Snapshot, user: int, status: str) -> str:
        event = snap.event
        if event.status != "running":
            raise HostError(f"Event #{event.id} {STATUS_SAID[event.status]}.")
        entrant = next((e for e in snap.entrants if e.user_id == user), None)
        if entrant is None:
            raise HostError(f"{bots.mention(user)} is not playing in event #{event.id}.")
        if entrant.status != "in":
            raise HostError(f"{bots.mention(user)} has already left event #{event.id}.")
        now = self.now()
        verb = "withdrew from" if status == "withdrawn" else "was removed from"
        text = (f"{bots.mention(user)} {verb} event #{event.id} in round {event.current_round}: any game in "
                "progress is resigned, and later rounds are forfeited.")
        try:
            async with self.db.transaction() as tx:
                await repo.bump(tx, event, now)
                await repo.set_left(tx, event.id, user, status, event.current_round)
                await self.owe(tx, WITHDRAW, event.id, f"drop:{user}", now, user=user)
                await self.owe(tx, SETTLE, event.id, f"settle:drop:{user}", now)
                await self.owe(tx, POST, event.id, f"notice:drop:{user}", now, what="notice", text=text)
                await self.owe(tx, POST, event.id, f"standings:drop:{user}", now, what="standings")
        except StaleVersion:
            raise HostError(f"Event #{event.id} changed at the same moment; please try again.") from None
        return text

    # ----- what is shown --------------------------------------------------------------------

    def name_of(self, user: int) -> str:
        """A plain name for images: the display name the bot knows, an AI's level, else the user id."""
        if bots.is_ai(user):
            return bots.plain_name(user)
        known = self.boards.display_name(user) if self.boards.display_name is not None else None
        return known or f"user {user}"

    def signup_text(self, snap: Snapshot) -> str:
        event = snap.event
        game_cls = self.session.game_class(event.game)
        rounds = f"{event.rounds} rounds" if event.format == plan.SWISS or event.status != "open" else ""
        options = ", ".join(f"{k} {v}" for k, v in event.options.items()
                            if any(o.name == k and o.default != v for o in game_cls.options_spec))
        breaks = ("tie-breaks " + ", ".join(event.tiebreaks)) if event.tiebreaks else ""
        matches = [f"matches of {plan.match_games(snap)} games and a tie-break game" if plan.match_games(snap) > 1
                   else "", "a third-place match" if event.rules.get("third_place") else "",
                   f"late entries until round {event.rules['late_entry']} is paired (/tournament join)"
                   if event.rules.get("late_entry") else ""]
        facts = [f for f in (rounds, clocks.parse(event.clock).describe(), "rated" if event.rated else "unrated",
                             f"up to {event.max_players} players", options, breaks, *matches) if f]
        when = (f"Starts <t:{int(event.starts_at)}:F> (<t:{int(event.starts_at)}:R>)." if event.starts_at is not None
                else "Starts when the organiser runs /tournament start.")
        head = f"🏆 **Event #{event.id}: {self.title(event)}** ({', '.join(facts)}). Organiser <@{event.organiser_id}>."
        people = [bots.mention(e.user_id) + ("" if e.status == "in" else f" ({e.status})") for e in snap.entrants]
        listed = ", ".join(people) if people else "nobody yet"
        if event.status == "open":
            tail = f"{when} Press Join to enter, Leave to drop out."
        else:
            tail = f"Sign-up closed: the event {STATUS_SAID[event.status]}."
        text = f"{head}\nEntrants ({len(people)}/{event.max_players}): {listed}\n{tail}"
        return text if len(text) <= 2000 else f"{head}\nEntrants: {len(people)}/{event.max_players}.\n{tail}"

    async def names(self, users: Sequence[int], name_of: NameOf | None) -> dict[int, str]:
        """Names for the image: an AI's level, else what the Discord side says (nickname), else what the host knows."""
        names = {u: self.name_of(u) for u in users}
        if name_of is not None:
            people = [u for u in users if not bots.is_ai(u)]
            names.update(zip(people, await asyncio.gather(*(name_of(u) for u in people)), strict=True))
        return names

    async def standings(self, event_id: int, *, final: bool | None = None, name_of: NameOf | None = None,
                        explain: bool = True) -> StandingsView:
        """``explain``: the tie-break notes in the text (``/tournament standings``); the update posted after each
        result leaves them to its image and one line, so they are not repeated after every game."""
        snap = await self.load(event_id)
        table = plan.standings(snap)
        final = snap.event.status == "finished" if final is None else final
        head = (f"**Event #{event_id}: {self.title(snap.event)}**, "
                + ("final standings" if final else f"standings after round {snap.event.current_round}"
                   if snap.event.status == "running" else STATUS_SAID[snap.event.status]) + ":")
        lines = [head]
        for row in table.rows:
            breaks = " · ".join(f"{code} {number(v)}" for code, v in zip(table.columns, row.tiebreaks, strict=True))
            extra = [x for x in (breaks, row.note, "withdrawn" if row.withdrawn else "",
                                 f"{row.in_progress} game(s) in progress" if row.in_progress else "") if x]
            score = score_text(table, row.points)
            lines.append(f"{row.rank}. {bots.mention(row.entrant)}: {score}"
                         + (f" ({', '.join(extra)})" if extra else ""))
        notes = list(table.explanations) if explain else \
            ["-# What the columns mean: on the image, and in `/tournament standings`."] if table.explanations else []
        text = fit_table(lines, [f"-# {line}" if explain else line for line in notes])
        subtitle = ("final standings" if final else f"after round {snap.event.current_round}"
                    if snap.event.status == "running" else STATUS_SAID[snap.event.status])
        title = f"Event #{event_id}: {self.title(snap.event)}"
        names = await self.names([row.entrant for row in table.rows], name_of)
        picture = Picture(title, subtitle, table, names, final,
                          bracket=tournament_image.bracket(snap, names, title, subtitle),
                          crosstable=tournament_image.crosstable(snap, table, names, title, subtitle))
        images = await asyncio.to_thread(self.image, picture)
        return StandingsView(snap.event, text, images, table)

    async def export(self, event_id: int, name_of: NameOf | None = None) -> tuple[str, str]:
        """The event as a TRF-16 file (FIDE's tournament report): (file name, text)."""
        snap = await self.load(event_id)
        if snap.event.status in ("open", "cancelled"):
            raise HostError(f"Event #{event_id} {STATUS_SAID[snap.event.status]}: there is nothing to report yet.")
        table = plan.standings(snap)
        names = await self.names(plan.seed_order(snap), name_of)
        try:
            text = trf.export(snap, table, names, f"Event #{event_id}: {self.title(snap.event)}", self.now())
        except trf.NotExportable as error:
            raise HostError(f"{str(error).capitalize()}.") from None
        return f"event-{event_id}.trf", text

    def pairings_text(self, snap: Snapshot, round_: int, thread_of: Callable[[int], int | None]) -> str:
        event = snap.event
        lines = [f"**Event #{event.id}: {self.title(event)}, round {round_}"
                 + (f" of {event.rounds}" if event.rounds else "") + "**"]
        for p in [p for p in snap.pairings if p.round == round_]:
            names = " – ".join(bots.mention(u) for u in p.seats)
            if p.bye:
                lines.append(f"Bye: {names} ({number(p.points[0] if p.points else 0)} pt)")
            elif p.forfeit:
                lines.append(f"Board {p.board}: {names}: not played (forfeit)")
            else:
                thread = thread_of(p.game_id) if p.game_id is not None else None
                where = f" in <#{thread}>" if thread else f" (game #{p.game_id})" if p.game_id else ""
                games = plan.match_games(snap)
                replay = "" if event.format != plan.KNOCKOUT else (
                    f", replay {p.match_game - 1}" if games == 1 and p.match_game > 1
                    else ", tie-break game" if p.match_game > games else f", game {p.match_game}" if games > 1 else "")
                third = " (third place)" if p.board > 1 and plan.is_third_place(snap, round_) else ""
                lines.append(f"Board {p.board}{third}{replay}: {names}{where}")
        return "\n".join(lines)  # may pass 2,000 characters with many boards: the cog splits it by lines

    def decision_text(self, snap: Snapshot, round_: int, conflict: Any) -> str:
        """The organiser's question when no legal pairing exists (FIDE's absolute criteria C.1 and C.2)."""
        ways = " or ".join(" and ".join(DECISION_WORDS[o] for o in way) for way in conflict.options)
        return (f"⚠️ <@{snap.event.organiser_id}>: event #{snap.event.id} cannot pair round {round_} without "
                f"{ways}: every other pairing repeats a game or gives someone a second bye. The event waits "
                "until you choose below (FIDE leaves this to the arbiter).")

    async def decide(self, event_id: int, actor: Actor, round_: int, way: str) -> str:
        """The organiser allows a rematch and/or a second bye for one round that has no legal pairing."""
        snap = await self.load(event_id)
        await self.require_organiser(snap.event, actor)
        allow = tuple(sorted(set(way.split("+"))))
        if not set(allow) <= set(DECISION_WORDS):
            raise HostError("That is not a choice for a pairing.")
        if snap.event.status != "running" or snap.event.current_round != round_ - 1:
            raise HostError(f"Round {round_} of event #{event_id} is no longer waiting for a decision.")
        now = self.now()
        async with self.db.transaction() as tx:
            await self.owe(tx, PAIR, event_id, f"round:{round_}:allow:{'+'.join(allow)}", now, round=round_,
                           allow=list(allow))
        said = " and ".join(DECISION_WORDS[o] for o in allow)
        return f"Round {round_} of event #{event_id} will be paired allowing {said}."

    def podium_text(self, snap: Snapshot) -> str:
        table = plan.standings(snap)
        lines = [f"🏁 **Event #{snap.event.id}: {self.title(snap.event)} is over.**"]
        medals = plan.medals(table)  # to the players who finished: a withdrawn player's place gives none
        for row in table.rows:
            if row.entrant in medals:
                lines.append(f"{MEDALS[medals[row.entrant] - 1]} {bots.mention(row.entrant)}: "
                             f"{score_text(table, row.points)}")
        lines.append("Thank you all for playing! /tournament standings shows the whole table.")
        return "\n".join(lines)[:2000]
