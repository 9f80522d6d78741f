"""Game review (``/<game> review``): the hard level judges every move of a finished game, once per game.

A review is minutes of search, so it is a job (kind ``review``, deduplicated per game) in its own lane of
the one job runner, one at a time. The job asks the AI pool for one ply per call (``AiPlayers.judge``), so
AI turns waiting for the pool run between a review's plies and no player waits for a review. The judged
plies are stored once (``data/reviews.py``) with the move labels, then ``deliver`` (the Discord side) posts
the caption and the evaluation chart in the game's thread. A second request answers from the store.

How the values are computed and why only the mover's information set is used: ``ai/review.py``.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ai.review import VERDICTS, Judged, choices
from data import jobs
from data.jobs import Job, JobQueue
from data.reviews import Reviews
from data.store import GameRow
from engines import Game
from host.ai_players.turns import AiPlayers, ai_seed
from host.play import bots
from host.play.boards import Boards
from host.play.session import GameSession
from host.records.replay import MARKS, StepOf, numbering
from host.results import Board, HostError
from host.worker import Backoff, Worker
from render.common import Named
from render.review import Point

log = logging.getLogger(__name__)
KIND = LANE = "review"
LEVEL = bots.HINT_LEVEL
LEASE = 60.0
"""Seconds a claimed review stays ours without renewal (the runner renews it while the plies are judged)."""
BACKOFF = Backoff(first=30.0, cap=3600.0)
GIVE_UP = 6
SHOWN = ("blunder", "mistake")
"""The verdicts the review's caption lists move by move (inaccuracies are counted only)."""
Chart = Callable[[Sequence[Sequence[Point]], Sequence[str | Named], str, int, str], bytes]


@dataclass(frozen=True)
class ReviewPost:
    """A stored review as shown: the caption (per player, the mistakes with the better move) and the chart."""

    row: GameRow
    caption: str
    chart: Board


@dataclass(frozen=True)
class Requested:
    """The answer to ``/review``: the review itself when stored, else ``text`` says it is being prepared."""

    text: str
    post: ReviewPost | None = None


async def _nowhere(post: ReviewPost) -> None:
    """Until the Discord side sets ``deliver``, a finished review is only stored (``/review`` shows it)."""


def review_key(game_id: int) -> str:
    return f"review:{game_id}"


def start_ply(row: GameRow) -> int:
    """Plies copied from another game (``play on`` from a replay) are replayed, never judged."""
    origin = row.settings.get("origin")
    return int(origin.get("plies", 0)) if isinstance(origin, dict) else 0


def state_before(game: Game, ply: int) -> dict[str, Any]:
    """The game's dict before ``ply`` (the pool rebuilds it by replaying: the history is the truth)."""
    state = game.to_dict()
    state["history"] = state["history"][:ply]
    return state


def labelled(game: Game, judged: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each judged ply with ``game.describe`` labels of the played and the better move (one replay, a thread)."""
    fresh = type(game).new(game.num_players, game.options)
    wanted = {item["ply"]: item for item in judged}
    out: list[dict[str, Any]] = []
    for ply, (seat, text) in enumerate(game.history):
        item = wanted.get(ply)
        if item is not None:
            out.append({**item, "played_label": _describe(fresh, seat, item["played"]),
                        "best_label": _describe(fresh, seat, item["best"])})
        fresh.apply_record(seat, text)
    return out


def _describe(game: Game, seat: int, move: str) -> str:
    try:
        return game.describe(seat, move)
    except Exception:  # a label is a nicety; a review must not fail for it
        return move


class GameReviews:
    """Requests, the review job, and the stored review's caption and chart."""

    def __init__(self, session: GameSession, store: Reviews, ai: AiPlayers, boards: Boards, chart: Chart,
                 now: Callable[[], float]) -> None:
        self.session = session
        self.store = store
        self.ai = ai
        self.boards = boards
        self.chart = chart
        self.now = now
        self.deliver: Callable[[ReviewPost], Awaitable[None]] = _nowhere
        """Posts a finished review in the game's thread: set by the Discord side."""
        self.wake: Callable[[], None] = lambda: None

    def register(self, worker: Worker) -> None:
        """The review job in its own lane, one review at a time (its pool calls leave room for AI turns)."""
        worker.lane(LANE, slots=1, batch=1)
        worker.register(KIND, self.run, lease=LEASE, backoff=BACKOFF, give_up=GIVE_UP, lane=LANE)
        self.wake = worker.wake

    async def request(self, game_id: int, user: int, game: str | None = None, guild_id: int | None = None) -> Requested:
        """The review of a finished game for ``user``: any player of it may ask, and so may anyone else in the
        server it was played in (it was public there); a game of another server is refused to others, as its
        replay is. A stored review is answered at once; otherwise the job is enqueued (once per game). ``game``:
        the command's game; a game of another kind is refused with the right command."""
        row = await self.session.row(game_id)
        title = self.session.game_class(row.game).title
        if game is not None and row.game != game:
            raise HostError(f"Game #{row.id} is a {title} game: use /{row.game} review for it.")
        if row.status != "finished":
            raise HostError(f"{title} game #{row.id} is not finished: a review judges a whole game, so ask once it"
                            " has ended.")
        if row.guild_id is None and not row.seats_of(user):
            raise HostError(f"Game #{row.id} was not played in a server channel: only its players can review it.")
        if guild_id is not None and row.guild_id is not None and row.guild_id != guild_id and not row.seats_of(user):
            raise HostError(f"Game #{row.id} belongs to another server.")
        stored = await self.store.get(row.id)
        if stored is not None:
            return Requested("", await self.post(row, stored.data))
        failed = sum(1 for j in await JobQueue(self.session.db).given_up(kind=KIND) if j.game_id == row.id)
        key = review_key(row.id) + (f":again{failed}" if failed else "")  # a review given up may be asked again
        now = self.now()
        async with self.session.db.transaction() as tx:
            await jobs.enqueue(tx, kind=KIND, due_at=now, now=now, game_id=row.id, payload={}, dedupe=key)
        self.wake()
        where = f" in <#{row.thread_id}>" if row.thread_id else " here"
        return Requested(f"The review of {title} game #{row.id} is being prepared (the hard level judges every move;"
                         f" this takes a few minutes): it will be posted{where}.")

    async def run(self, job: Job) -> None:
        """The job: judge every ply in order, one pool call each; store; deliver (a failed post is logged: the
        review is stored and ``/review`` shows it)."""
        row, game = await self.session.engine_copy(int(job.game_id or 0))
        stored = await self.store.get(row.id)
        if stored is None:
            seed = ai_seed(row.seed, "review")
            judged = []
            for ply, seat, move in choices(game.history, start_ply(row)):
                found = await self.ai.judge(state_before(game, ply), seat, move, seed, LEVEL)
                if found is not None:
                    judged.append(found)
            data = {"judged": await asyncio.to_thread(labelled, game, judged), "plies": len(game.history)}
            await self.store.put(row.id, LEVEL, data, self.now())
            stored = await self.store.get(row.id)
            assert stored is not None
        post = await self.post(row, stored.data)
        try:
            await self.deliver(post)
        except Exception:  # stored: /review answers from the store
            log.warning("could not post the review of game %s", row.id, exc_info=True)

    async def marks(self, game_id: int) -> dict[int, dict[str, Any]]:
        """The stored review's judged plies by ply (empty without a review): for the replay's captions."""
        stored = await self.store.get(game_id)
        return {} if stored is None else {int(item["ply"]): item for item in stored.data.get("judged", [])}

    async def post(self, row: GameRow, data: dict[str, Any]) -> ReviewPost:
        """The caption and the chart of a stored review (the chart drawn in a thread)."""
        cls = self.session.game_class(row.game)
        judged = [Judged.from_dict(item) for item in data.get("judged", [])]
        labels = {int(item["ply"]): item for item in data.get("judged", [])}
        _, game = await self.session.engine_copy(row.id)  # the sides as named at the end (Zodiac's after the duel)
        sides = [game.seat_name(s) for s in range(row.players)]
        names = self.boards.player_names(row, row.players) or [None] * row.players
        legend: list[str | Named] = []  # the chart cuts a long name to fit, never the side
        for s in range(row.players):
            user = row.user_at(s)
            name = bots.plain_name(user) if bots.is_ai(user) else names[s]
            legend.append(f"{sides[s]} (" + Named.of(name) + ")" if name else sides[s])
        people = [bots.mention(u) if (u := row.user_at(s)) else "open seat" for s in range(row.players)]
        places = await asyncio.to_thread(numbering, cls, game.num_players, game.options, list(game.history))
        lines: list[list[Point]] = [[] for _ in range(row.players)]
        for item in judged:
            place = places[item.ply]  # a turn's n-th action of m sits at (turn - 1) + n/m: its actions in order
            lines[item.seat].append(Point(place.step - 1 + place.within / place.count, item.value, item.verdict))
        title = f"{cls.title} #{row.id}: evaluation by the {LEVEL} level"
        unit = "turn" if cls.stepped_turns else "move"
        last = places[-1].step if places else 0
        image = await asyncio.to_thread(self.chart, lines, legend, title, last, unit)
        caption = self._caption(row, cls.title, judged, labels, people, sides, places, unit)
        return ReviewPost(row, caption, Board(image=image, filename=f"{row.game}-review-{row.id}.png"))

    @staticmethod
    def _caption(row: GameRow, title: str, judged: Sequence[Judged], labels: dict[int, dict[str, Any]],
                 people: Sequence[str], sides: Sequence[str], places: Sequence[StepOf], unit: str = "move") -> str:
        """Per player the counts, then each mistake and blunder under the replay's number (``places``, so
        ``/<game> replay move:N`` shows the move called N here; in Ziggurat the turn and which of its moves)."""
        head = [f"**{title}** #{row.id} review (the {LEVEL} level, each move judged with only what its player"
                f" knew; {unit} N as in `replay move:N`): ?! inaccuracy (drop of 10%+), ? mistake (20%+),"
                " ?? blunder (30%+)."]
        body: list[str] = []
        for seat in range(row.players):
            mine = [j for j in judged if j.seat == seat]
            counts = {v: sum(1 for j in mine if j.verdict == v) for v in MARKS}
            said = ", ".join(_count(counts[v], v) for v in MARKS)
            head.append(f"{sides[seat]} ({people[seat]}): {said} in {_count(len(mine), 'judged move')}.")
            for item in (j for j in mine if j.verdict in SHOWN):
                label = labels.get(item.ply, {})
                body.append(f"{where(places[item.ply], unit)} {sides[seat]}: `{item.played}` {MARKS[item.verdict]}"
                            f" {item.verdict} ({shown_drop(item.drop, item.verdict)} drop) — better:"
                            f" {label.get('best_label') or item.best}")
        if not body:
            body.append("No mistakes or blunders: well played.")
        text = "\n".join(head + body)
        return text if len(text) <= 1900 else text[:1880].rsplit("\n", 1)[0] + "\n… (more in the chart)"


def where(place: StepOf, unit: str) -> str:
    """``move 12``, or for a whole-turn step with several moves ``turn 7 (2nd move of the turn)``."""
    if place.count < 2:
        return f"{unit} {place.step}"
    return f"{unit} {place.step} ({_ordinal(place.within)} move of the turn)"


def shown_drop(drop: float, verdict: str) -> str:
    """The drop in whole percents, rounded down and kept inside the verdict's band: the verdict was taken on the
    exact drop (before the stored values were rounded to 4 places), so the number shown beside it never reaches
    a threshold the move did not, nor falls below the one it did (0.2979, a mistake, reads 29%, not the
    blunder's 30%)."""
    bands = [0.0] + [limit for limit, _ in reversed(VERDICTS)] + [math.inf]
    names = [""] + [name for _, name in reversed(VERDICTS)]
    index = names.index(verdict) if verdict in names else 0
    low, high = round(bands[index] * 100), bands[index + 1] * 100 - 1
    return f"{int(min(max(math.floor(drop * 100 + 1e-9), low), high))}%"


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _count(n: int, word: str) -> str:
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{n} {word if n == 1 else plural}"
