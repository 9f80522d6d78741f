"""The one composition root (like lila's ``Env.scala``): builds every host service and wires every hook.

Each service receives only what it needs (the session, the clock, the renderer, the services below it); none
receives this object. Cogs and tests hold a ``Host`` and reach a service through it: ``host.turns.play(...)``,
``host.lobby.challenge(...)``, ``host.boards.board(...)``. The layers, each depending only on those above it
in this list: session → clocks → boards → turns, lobby → matches, correspondence, ladders, tournaments,
records, AI players, reviews. A game's end reaches a match from Turns' ``after_finish`` subscription, made here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor

import engines
import render
from data.boards import BoardPosts, LiveMessages
from data.db import Database
from data.reviews import Reviews
from engines import Game
from host.ai_players.reviews import GameReviews
from host.ai_players.turns import TURN_SECONDS, AiPlayers
from host.correspondence.scheduler import Scheduler
from host.correspondence.service import Correspondence
from host.correspondence.timing import Clocks
from host.engine_cache import ENGINE_CACHE
from host.ladder import service as ladder
from host.ladder.service import Ladders
from host.outbox import Outbox
from host.play import painter
from host.play.boards import Boards, Renderer
from host.play.builder import MoveBuilder
from host.play.clickable import Clickable
from host.play.feed import ChangeFeed
from host.play.lobby import CHALLENGE_TTL, MAX_OPEN_CHALLENGES, Lobby
from host.play.matches import Matches
from host.play.session import ChangeHook, FinishHook, GameSession
from host.play.turns import Turns
from host.ratings import service as ratings
from host.ratings.standings import Standings
from host.records.exchange import RecordExchange
from host.records.replay import Records
from host.results import Report
from host.tournaments.service import Tournaments
from host.worker import Worker
from render import review as review_chart


class Host:
    """Every host service over one database, wired once. It has no method that only passes a call on."""

    def __init__(self, db: Database, *, games: Mapping[str, type[Game]] | None = None,
                 renderer: Renderer = render.render, now: Callable[[], float] = time.time,
                 on_finish: Sequence[FinishHook] = (), on_change: Sequence[ChangeHook] = (),
                 max_open_challenges: int = MAX_OPEN_CHALLENGES, challenge_ttl: float = CHALLENGE_TTL,
                 engine_cache: int = ENGINE_CACHE, display_name: Callable[[int], str | None] | None = None,
                 ai: bool = False, ai_workers: int = 1, ai_think_delay: float = 0.0,
                 ai_pool: Executor | None = None, scope: str | None = None,
                 ai_turn_seconds: Mapping[str, float] | None = None, board_processes: int = 0) -> None:
        """``on_finish``/``on_change``: hooks run inside a game's writes (the bot's ``build`` passes the ratings
        and the ladder). ``ai``: wire the AI players (their turns enqueued on every change, woken when a board
        is shown); the bot does, most tests build their own. ``scope``: this process's name when other processes
        share the database (shards), for the job runner's leases. ``board_processes``: worker processes the boards
        are drawn in (host/play/painter.py; 0: a thread)."""
        self.db = db
        self.games = games if games is not None else engines.GAMES
        self.now = now
        clock = lambda: self.now()  # noqa: E731 - tests move ``host.now`` after building: every service reads it here
        self.session = GameSession(db, self.games, now=clock, on_finish=on_finish, on_change=on_change,
                                   engine_cache=engine_cache)
        self.store = self.session.store
        self.outbox = Outbox(db)
        self.worker = Worker(db, clock, name="jobs", scope=scope)
        """The one job runner (host/worker.py): host services register their handlers here, cogs their senders."""
        board_posts = BoardPosts(db)
        self.clocks = Clocks(self.session, clock)
        self.painter = painter.Painter(renderer, board_processes)
        """Draws the boards off the event loop; ``close()`` lets its worker processes go."""
        self.boards = Boards(self.session, renderer, board_posts, self.painter)
        self.boards.display_name = display_name
        self.turns = Turns(self.session, self.clocks, self.boards, board_posts, LiveMessages(db), clock)
        self.lobby = Lobby(self.session, self.clocks, self.boards, clock, max_open_challenges=max_open_challenges,
                           challenge_ttl=challenge_ttl)
        self.matches = Matches(self.session, self.lobby, clock)
        self.turns.after_finish.append(self.matches.on_finished)  # a match's next game, after the commit
        self.correspondence = Correspondence(self.session, self.clocks, self.turns, self.boards, clock)
        self.correspondence.after_abandon.append(self.matches.continue_after)  # a clock-aborted later match game
        self.scheduler = Scheduler(self.correspondence)
        self.standings = Standings(db, self.games, clock)
        """Leaderboards, profiles and seasons, for ``/leaderboard``, ``/profile`` and ``/season``."""
        self.tournaments = Tournaments(self.session, self.lobby, self.turns, self.boards, self.outbox, clock)
        self.session.on_finish.append(self.tournaments.game_finished)  # an event game's result
        self.ladders = Ladders(self.session, self.lobby, clock)
        self.ladders.register(self.worker)
        reviews = Reviews(db)
        self.records = Records(self.session, self.boards, reviews)
        self.record_exchange = RecordExchange(self.records, self.lobby, clock)
        self.builder = MoveBuilder(load=self.boards.loaded, draw=self.boards.draw, play=self.turns.play)
        """The move builder: a move by clicks, one step at a time (``host/play/builder.py``)."""
        self.clickable = Clickable(self.boards, self.clocks)
        """The clickable board page's views (``web/``): the viewer's observation, PNG, hotspots and picks."""
        self.boards.shared_image = self.clickable.images.image  # a report's board is the pages' image of it
        self.changes = ChangeFeed(db)
        """Committed game changes of every process sharing the database (LISTEN/NOTIFY on PostgreSQL)."""
        self.ai = AiPlayers(self.session, self.turns, self.boards, self.outbox, clock, workers=ai_workers,
                            think_delay=ai_think_delay, pool=ai_pool,
                            turn_seconds=ai_turn_seconds)
        if ai:
            self.session.on_change.append(self.ai.enqueue)  # an AI seat's turn lands with the write
            self.ai.wake = self.worker.wakeup  # an enqueued AI turn wakes the one job loop
            self.turns.on_shown.append(self.worker.wake)  # a shown board made the AI's reply due
        self.reviews = GameReviews(self.session, reviews, self.ai, self.boards, review_chart.chart, clock)
        """Game reviews (``/<game> review``): a job in its own lane, one ply per AI pool call."""
        self.reviews.register(self.worker)

    async def recover(self) -> list[Report]:
        """On start-up, in order: starts a crash interrupted (the lobby), then matches whose next game was never
        created (they may follow a game just started). Returns the start reports, for the bot to post."""
        return await self.lobby.recover() + await self.matches.resume_all()


def build(db: Database, *, max_open_challenges: int = MAX_OPEN_CHALLENGES, challenge_days: float = 7.0,
          engine_cache: int = ENGINE_CACHE, ai_workers: int = 1, ai_think_delay: float = 0.0,
          display_name: Callable[[int], str | None] | None = None, scope: str | None = None,
          ai_turn_seconds: Mapping[str, float] | None = None, board_processes: int | None = None) -> Host:
    """The bot's host: the ratings and the ladder hear every finished game, and the AI players are wired, each
    AI turn capped by ``ai_turn_seconds`` (None: ``TURN_SECONDS``, hard 6 s, medium 2 s, easy 0.5 s), and the
    boards drawn in ``board_processes`` worker processes (None: ``painter.PROCESSES``, read now)."""
    return Host(db, on_finish=[ratings.record_result, ladder.record_finish], max_open_challenges=max_open_challenges,
                challenge_ttl=challenge_days * 86400, engine_cache=engine_cache, display_name=display_name,
                ai=True, ai_workers=ai_workers, ai_think_delay=ai_think_delay, scope=scope,
                ai_turn_seconds=TURN_SECONDS if ai_turn_seconds is None else ai_turn_seconds,
                board_processes=painter.PROCESSES if board_processes is None else board_processes)
