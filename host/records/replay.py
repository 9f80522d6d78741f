"""Game records: replay any game step by step, and animate it (export, import, play on: record_exchange).

Replaying a record is CPU work (up to 3000 plies through the rules), so it runs in worker threads,
never on the event loop.

A replay is addressed by a source (``g`` + game id, or ``r`` + imported record id) and a step, so a
replay button needs no memory: every press replays the record again. A step is one move with the
dice that follow it, or a whole turn in Ziggurat (its roll and actions). Secrets: a finished game
(or an imported record) shows all that the end revealed; a game in progress shows only the public
view (``observation(None)`` and ``announce``), and its export leaves secret moves and the seed out.
"""

from __future__ import annotations

import asyncio
import json
import pickle
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import engines
from data.records import RecordStore
from data.reviews import Reviews
from data.store import GameRow
from engines import CHANCE, Game
from host import offload
from host.play import bots, captions, dice
from host.play.shared_renders import SharedRenders
from host.records.formats import GameRecord, Ply, read
from host.results import Board, HostError

if TYPE_CHECKING:
    from host.play.boards import Boards
    from host.play.session import GameSession

Namer = Callable[[int], Awaitable[str]]
MENU_SIZE = 25
META_WORDS = {"resign": "resigned", "timeout": "ran out of time", "draw": "agreed to the draw"}
MARKS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
"""The marks of a game review (lichess's), beside a judged move in the review and in the replay's captions."""


@dataclass(frozen=True)
class Viewer:
    """Who asks, and in which server: a game is shown in its own server, or to its own players."""

    user: int
    guild_id: int | None


@dataclass
class Loaded:
    """A record ready to replay; ``reveal`` False: a game in progress, shown only as the public sees it."""

    kind: str
    ident: int
    record: GameRecord
    reveal: bool
    label: str
    people: list[str]
    guild_id: int | None = None
    members: frozenset[int] = frozenset()
    """Users who may see it anywhere: the players, or whoever imported it."""
    names: list[str | None] | None = None
    """Each seat's name for the board images (as ``Boards.draw`` puts them), ``None`` where unknown."""
    marks: dict[int, dict[str, Any]] = field(default_factory=dict)
    """The stored game review's judged plies by ply (host/ai_players/reviews.py): their marks go in the captions."""

    @property
    def who(self) -> list[str]:
        """Each seat as the game calls it at the end, with its player."""
        return [f"{self.record.sides[s]} ({self.people[s]})" for s in range(self.record.players)]


@dataclass
class Walk:
    """One pass over the plies: where each step ends, a label per step, and the target step in detail."""

    ends: list[int] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    observation: dict[str, Any] | None = None
    seat_names: list[str] = field(default_factory=list)
    """How the game called each seat at the target step (Zodiac's sides are named only after the duel)."""
    frames: list[dict[str, Any]] = field(default_factory=list)
    game: Game | None = None
    next_seat: int | None = None
    first_secret: int | None = None
    """The first step holding a secret choice (Zodiac's duel pick, king, ink square): no play-on from there."""


@dataclass(frozen=True)
class ReplayPage:
    """What a replay message shows: caption, board, where we are, and the jump menu's window."""

    kind: str
    ident: int
    caption: str
    board: Board
    step: int
    last: int
    menu: list[tuple[int, str]]
    can_play_on: bool


# ----- loading ------------------------------------------------------------------------------


def imported(ident: int, record: GameRecord, guild_id: int | None, importer: int) -> Loaded:
    """Imported record R``ident``, shown with everything its end revealed."""
    people = [_plain(n) for n in record.names]
    return Loaded("r", ident, record, True, f"imported record R{ident}", people, guild_id, frozenset({importer}),
                  names=list(people))


def _image_names(boards: Boards, row: GameRow) -> list[str | None] | None:
    """The names the live boards show (the Discord side's display names), an AI seat marked as a bot."""
    names = boards.player_names(row, row.players)
    if names is None:
        return None
    return [bots.plain_name(u) if bots.is_ai(u := row.user_at(s)) else names[s] for s in range(row.players)]


def named(observation: dict[str, Any], loaded: Loaded) -> dict[str, Any]:
    """The observation with the players' names, for the renderer (a copy: walks are replayed, not kept)."""
    if loaded.names is None or len(loaded.names) != loaded.record.players:
        return observation
    return {**observation, "player_names": list(loaded.names)}


def title_of(game: str) -> str:
    return engines.get(game).title


def users_of(row: GameRow) -> list[int | None]:
    return [row.user_at(s) for s in range(row.players)]


def _origin(row: GameRow) -> dict[str, Any] | None:
    origin = row.settings.get("origin")
    return {k: origin[k] for k in ("source", "move", "plies")} if isinstance(origin, dict) else None


def _plain(name: str) -> str:
    """A name from a file, safe inside a caption: no mentions, no markdown."""
    return "".join(c for c in name if c.isalnum() or c in " .-'")[:40] or "?"


def replay_record(record: GameRecord) -> Game:
    """The game after every ply of the record (the rules check each)."""
    game = engines.get(record.game).new(record.players, record.options)
    for seat, text in record.pairs():
        game.apply_record(seat, text)
    return game


# ----- walking the steps --------------------------------------------------------------------


LAST = -1
"""``walk``'s target for the last step, whose number the walk finds as it goes."""


class Steps:
    """Where the replay's steps begin: the one numbering of "move N" (the replay, its buttons and menu, play on,
    and the game review's move numbers all count with it).

    A step is one player's ply with the dice that follow it; in a game with ``stepped_turns`` (Ziggurat) it is a
    whole turn, its roll and every action, and a new step begins when the turn (colour, round, setup) changes.
    """

    def __init__(self, cls: type[Game]) -> None:
        self.turns = cls.stepped_turns
        self.key: Any = None
        self.now: dict[str, Any] = {}
        """The public turn before the ply just asked about (``stepped_turns`` only): the caption's colour."""

    def starts(self, game: Game, ply: int, seat: int) -> bool:
        """Whether ply number ``ply`` (by ``seat``, not yet applied to ``game``) begins a new step."""
        if not self.turns:
            return seat != CHANCE
        self.now = game.observation(None)["turn"]
        key = (self.now["colour"], self.now["round"], self.now["phase"] == "setup")
        begins = ply == 0 or key != self.key
        self.key = key
        return begins


@dataclass(frozen=True)
class StepOf:
    """Where a ply shows in the replay: step ``step`` (``/<game> replay move:<step>``), the ``within``-th of the
    step's ``count`` player plies (a Ziggurat turn's n-th action; 1 of 1 elsewhere, dice aside)."""

    step: int
    within: int
    count: int


def numbering(cls: type[Game], players: int, options: dict[str, Any], history: list[tuple[int, str]]) -> list[StepOf]:
    """Each ply's place in the replay (``Steps``), replaying ``history`` once: CPU work, for a thread."""
    game = cls.new(players, options)
    steps = Steps(cls)
    step, places = 0, []
    for ply, (seat, text) in enumerate(history):
        if steps.starts(game, ply, seat):
            step += 1
        places.append((step, seat))
        game.apply_record(seat, text)
    counts: dict[int, int] = {}
    out = []
    for step, seat in places:
        if seat != CHANCE:
            counts[step] = counts.get(step, 0) + 1
        out.append((step, counts.get(step, 0)))
    return [StepOf(step, max(1, within), max(1, counts.get(step, 0))) for step, within in out]


def walk(loaded: Loaded, target: int | None = None, *, frames: bool = False) -> Walk:
    """Replay every ply once; describe the plies of step ``target`` (``LAST``: the last one) and keep the position
    it ends in. Steps begin where ``Steps`` says."""
    record = loaded.record
    last = target == LAST
    game = engines.get(record.game).new(record.players, record.options)
    out = Walk()
    steps = Steps(engines.get(record.game))
    turn_steps = steps.turns
    label: list[str] = []
    step = 0

    def close(at: int) -> None:
        out.ends.append(at)
        out.labels.append(" ".join(label)[:90] or "Start")
        label.clear()
        if step == target or (last and at == len(record.history)):
            out.observation = _view(game, loaded.reveal)
            out.seat_names = [_side(loaded, game, s) for s in range(record.players)]
        if frames:
            out.frames.append(_view(game, loaded.reveal))

    for ply, (seat, text) in enumerate(record.pairs()):
        if steps.starts(game, ply, seat):
            close(ply)
            step += 1
            if last:  # this step may be the last: only its own plies are described
                out.lines.clear()
            if turn_steps:
                label.append(f"{steps.now['colour']}:")
        announced = game.announce(seat, text) if seat != CHANCE else text
        if announced != text and out.first_secret is None:
            out.first_secret = step
        public = text if loaded.reveal else announced
        if step == target or last:
            mark = mark_line(loaded.marks.get(ply, {}))
            out.lines.append(_line(game, seat, text, public, loaded) + (f" {mark}" if mark else ""))
        if target is not None and step == target + 1 and out.next_seat is None and seat != CHANCE:
            out.next_seat = seat
        label.append(_short(_side(loaded, game, seat), seat, public, turn_steps, len(label) > 1))
        game.apply_record(seat, text)
    close(len(record.history))
    out.game = game
    return out


def mark_line(item: dict[str, Any]) -> str:
    """``?? blunder — better: <label>`` for a judged ply of a review ("" for an unmarked one)."""
    verdict = item.get("verdict", "")
    if verdict not in MARKS:
        return ""
    return f"{MARKS[verdict]} {verdict} — better: {item.get('best_label') or item.get('best', '?')}"


def _view(game: Game, reveal: bool) -> dict[str, Any]:
    return game.revealed_observation() if reveal else game.observation(None)


def _side(loaded: Loaded, game: Game, seat: int) -> str:
    """A seat as the record names it (the sides at its end: Zodiac's Light and Dark even during the duel), so the
    replay and the exported text record call every seat alike."""
    sides = loaded.record.sides or []
    return sides[seat] if 0 <= seat < len(sides) and sides[seat] else game.seat_name(seat)


def _short(name: str, seat: int, public: str, turn_steps: bool, more: bool) -> str:
    if seat == CHANCE:
        return f"🎲 {public.removeprefix('roll ')}"
    if public in META_WORDS:
        return f"{name} {META_WORDS[public]}"
    if turn_steps:
        return f"· {public}" if more else public
    return f"{name}: {public}"


def _line(game: Game, seat: int, text: str, public: str, loaded: Loaded) -> str:
    """One ply in the caption: the move and what it did, or the dice."""
    if seat == CHANCE:
        return f"🎲 {text}"
    who = f"{_side(loaded, game, seat)} ({loaded.people[seat]})"
    if text in META_WORDS:
        return f"{who} {META_WORDS[text]}."
    detail = ""
    if public == text:
        try:
            described = game.describe(seat, text)
        except Exception:  # a label is a nicety; the replay must not fail for it
            described = text
        if described.startswith(text):  # e.g. "Tree c2-c3 (takes Wolf)": say the move once
            described = described[len(text):].strip(" -—:")
            detail = f" {described}" if described.startswith("(") else f" ({described})" if described else ""
        else:
            detail = f" ({described})" if described and described != text else ""
    return f"{who}: `{public}`{detail}"[:300]


# ----- the replay message -------------------------------------------------------------------


def compose(loaded: Loaded, step: int | None, renderer: Callable[[dict[str, Any]], bytes]) -> ReplayPage:
    """The replay page of ``loaded`` at ``step``: pure work (a thread, or an import's child process)."""
    walked = walk(loaded, LAST if step is None else step)
    last = len(walked.ends) - 1
    if step is None:
        step = last
    kind, ident = loaded.kind, loaded.ident
    if not 0 <= step <= last:
        raise HostError(f"There is no move {step} in {loaded.record.title} {loaded.label}: it has moves 0 to {last}.")
    assert walked.observation is not None and walked.game is not None
    caption = _caption(loaded, walked, step, last)
    image = renderer(named(walked.observation, loaded))
    board = Board(image=image, filename=f"{loaded.record.game}-{kind}{ident}-move{step}.png")
    low = max(0, min(step - MENU_SIZE // 2, last + 1 - MENU_SIZE))
    menu = [(k, f"{k}. {walked.labels[k]}") for k in range(low, min(last, low + MENU_SIZE - 1) + 1)]
    over_here = walked.observation.get("outcome") is not None
    can = (not over_here and (loaded.reveal or not engines.get(loaded.record.game).hidden_information)
           and (walked.first_secret is None or step < walked.first_secret))
    if not over_here and walked.first_secret is not None and step >= walked.first_secret and loaded.reveal:
        caption = (caption + f"\nPlay from here: only before move {walked.first_secret}, the first secret choice"
                   " (this replay shows the secrets).")[:1900]
    return ReplayPage(kind, ident, caption, board, step, last, menu, can)


def _caption(loaded: Loaded, walked: Walk, step: int, last: int) -> str:
    record = loaded.record
    unit = "turn" if engines.get(record.game).stepped_turns else "move"
    head = f"**{record.title}** {loaded.label} replay: " + " vs ".join(loaded.who)
    shown = f"Position after {unit} {step} of {last}" + ("" if loaded.reveal else " (game in progress: public view)")
    lines = [head[:400], shown]
    if step == 0:
        lines.append("The starting position.")
    lines += walked.lines[:12]
    if len(walked.lines) > 12:
        lines.append(f"… and {len(walked.lines) - 12} more plies.")
    obs = walked.observation or {}
    if step == last and record.outcome:
        lines.append(f"🏁 Result: {_result_text(loaded)}")
    elif obs.get("outcome") is None:
        movers = [s for s in obs.get("to_move", []) if s != CHANCE] or (
            [walked.next_seat] if walked.next_seat is not None else [])
        if movers:
            lines.append("Next: " + ", ".join(f"{walked.seat_names[s]} ({loaded.people[s]})" for s in movers))
        elif CHANCE in obs.get("to_move", []):
            lines.append("Next: the dice.")
    if record.origin and step == 0:
        lines.append(f"Played on from {record.origin['source']} after move {record.origin['move']}.")
    return "\n".join(lines)[:1900]


def _result_text(loaded: Loaded) -> str:
    outcome = loaded.record.outcome or {}
    winners = [loaded.who[s] for s in outcome.get("winners", []) if s < len(loaded.who)]
    if len(set(outcome.get("ranks", []))) <= 1:
        return f"draw ({outcome.get('reason', '')})"
    return f"{', '.join(winners)} won ({outcome.get('reason', '')})"


# ----- animated GIF -------------------------------------------------------------------------


GIF_CAP = 120.0
"""Seconds of CPU time one GIF may take (the longest games take about ten)."""


def gif_data(loaded: Loaded, renderer: Callable[[dict[str, Any]], bytes]) -> tuple[bytes, int]:
    """In the GIF child: the animation's bytes and its number of frames."""
    from render.animate import animate

    walked = walk(loaded, frames=True)
    labels = [f"{k}. {text}".replace("🎲", "dice") if k else "Start" for k, text in enumerate(walked.labels)]
    return animate([renderer(named(obs, loaded)) for obs in walked.frames], labels), len(walked.frames)


READ_RECORDS = 32
"""Imported records kept read in memory (a long one is about 1,000 plies)."""


class Records:
    """Replays, GIFs and record loading over the session and the read model (its renderer and names)."""

    def __init__(self, session: GameSession, boards: Boards, reviews: Reviews | None = None) -> None:
        """``reviews``: the stored game reviews, whose marks a finished game's captions show."""
        self.session = session
        self.boards = boards
        self.reviews = reviews if reviews is not None else Reviews(session.db)
        self.read_records: SharedRenders[tuple[GameRecord, int | None, int]] = SharedRenders(READ_RECORDS)
        """Imported records as read (record, server, importer), the latest ``READ_RECORDS``: a record never
        changes once imported, and reading a long one again through the rules at every replay button press cost
        more than drawing its page."""

    async def load(self, kind: str, ident: int) -> Loaded:
        if kind == "r":
            async def read_imported() -> tuple[GameRecord, int | None, int]:
                found = await RecordStore(self.session.db).get(ident)
                if found is None:
                    raise HostError(f"There is no imported record R{ident}.")
                return await asyncio.to_thread(read, json.dumps(found[1]).encode(), found[0]), found[3], found[2]

            return imported(ident, *await self.read_records.get(ident, read_imported))
        row = await self.session.row(ident)
        if row.status not in ("active", "finished"):
            why = "has not started" if row.status == "challenge" else f"was {row.status}"
            raise HostError(f"Game #{ident} has no moves to replay: it {why}.")
        moves = await self.session.store.moves(row.id)
        record = GameRecord(game=row.game, players=row.players, options=dict(row.options),
                            names=[(bots.name(u) if bots.is_ai(u) else f"user {u}") if u else "open seat"
                                   for u in users_of(row)],
                            history=[Ply(m.seat, m.text, m.at) for m in moves], seed=row.seed,
                            commitment=dice.commitment(row.seed), outcome=row.result, date=row.created_at,
                            source=f"game #{row.id}", origin=_origin(row))
        game = await asyncio.to_thread(replay_record, record)
        record.sides = [game.seat_name(s) for s in range(row.players)]
        people = [bots.mention(u) if u else "open seat" for u in users_of(row)]  # an AI seat by its name
        review = await self.reviews.get(row.id) if row.status == "finished" else None
        marks = {int(j["ply"]): j for j in review.data.get("judged", [])} if review is not None else {}
        return Loaded("g", ident, record, row.status == "finished", f"#{row.id}", people, row.guild_id,
                      frozenset(u for u in users_of(row) if u is not None), names=_image_names(self.boards, row),
                      marks=marks)

    async def source(self, kind: str, ident: int, game: str | None = None, viewer: Viewer | None = None) -> Loaded:
        """The record, refused when it is not of ``game`` (the command's game, with the right command) or
        belongs to another server (unless ``viewer`` played it or imported it)."""
        loaded = await self.load(kind, ident)
        if (viewer is not None and loaded.guild_id is not None and loaded.guild_id != viewer.guild_id
                and viewer.user not in loaded.members):
            what = "Game" if kind == "g" else "Record"
            raise HostError(f"{what} {loaded.label} belongs to another server.")
        if game is not None and loaded.record.game != game:
            what = "Game" if kind == "g" else "Record"
            raise HostError(captions.other_game(f"{what} {loaded.label}", loaded.record.title, loaded.record.game))
        return loaded

    async def page(self, kind: str, ident: int, step: int | None, game: str | None = None,
                   viewer: Viewer | None = None) -> ReplayPage:
        """The replay at ``step`` (None: the last); a step beyond the game is refused.

        ``game``: the command's game; a record of another game is refused with the right command.
        """
        loaded = await self.source(kind, ident, game, viewer)
        return await asyncio.to_thread(compose, loaded, step, self.boards.renderer)

    async def gif(self, game_id: int, kind: str = "g", game: str | None = None,
                  viewer: Viewer | None = None, on_place: offload.Place | None = None) -> tuple[str, Board]:
        """The whole game as an animated GIF, one frame per step, built in the GIF lane's child process
        (host/offload.py: one place per user, ``on_place`` hears the place in line; the child is recycled after
        each GIF, so its memory goes back)."""
        loaded = await self.source(kind, game_id, game, viewer)
        try:
            pickle.dumps(self.boards.renderer)
        except (pickle.PicklingError, AttributeError, TypeError):  # a test's lambda renderer: no child can call it
            data, frames = await asyncio.to_thread(gif_data, loaded, self.boards.renderer)
        else:
            user = viewer.user if viewer is not None else -1
            guild = viewer.guild_id if viewer is not None else None
            try:
                data, frames = await offload.lane("GIF").run(user, guild, gif_data, loaded, self.boards.renderer,
                                                             cpu=GIF_CAP, on_place=on_place)
            except offload.Busy as error:
                raise HostError(str(error)) from None
            except offload.TooSlow:
                raise HostError(f"That game is too long to animate ({GIF_CAP:g} s of work was not enough).") from None
            except offload.Failed as error:
                raise HostError(f"The GIF could not be built ({error.kind}).") from None
        unit = "turns" if engines.get(loaded.record.game).stepped_turns else "moves"
        caption = f"**{loaded.record.title}** {loaded.label}: {frames - 1} {unit}" + (
            "" if loaded.reveal else " so far (public view)")
        return caption, Board(image=data, filename=f"{loaded.record.game}-{kind}{game_id}.gif")
