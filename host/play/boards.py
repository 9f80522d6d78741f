"""The read model of a game: its reports (caption, board, buttons), boards, observations and the lookups the
commands need. It only reads: every write is Turns' or Lobby's, which call this after their commit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from data.boards import BoardPost, BoardPosts
from data.store import GameRow, Seat
from engines import CHANCE, Game
from host import outbox
from host.outbox import Owed
from host.play import bots, captions, dice
from host.play.builder import wants_builder
from host.play.captions import mention
from host.play.choices import narrow
from host.play.match_rules import score
from host.play.painter import Painter
from host.play.session import GameSession
from host.ratings import service as ratings
from host.results import Board, HostError, Posted, Report

Renderer = Callable[[dict[str, Any]], bytes]


class Boards:
    """Reports, boards and lookups over the session; the match score line comes from a reader of the store."""

    def __init__(self, session: GameSession, renderer: Renderer, board_posts: BoardPosts,
                 painter: Painter | None = None) -> None:
        self.session = session
        self.renderer = renderer
        self.painter = painter or Painter(renderer)
        """Draws this renderer's boards off the event loop: in worker processes when the bot's host asks
        (host/play/painter.py), else in a thread."""
        self.board_posts = board_posts
        self.display_name: Callable[[int], str | None] | None = None
        """Set by the Discord side: a user's display name, put on the board images beside the colours."""
        self.board_link: Callable[[int, int], str] | None = None
        """Set by zbot.py when the board pages are served (``WEB_PORT``): ``(user, game_id)`` -> a signed,
        short-lived **Open board** link. ``None``: no board pages, so no button offers one."""
        self.activity = False
        """Set by zbot.py when the Discord Activity can sign its players in (the pages are served and the
        application's OAuth2 secret is configured): **Play on the board** then launches it."""
        self.deliver: Callable[[Report], Awaitable[None]] | None = None
        """Set by zbot.py when the board pages are served: puts a report made outside Discord (a board page's move)
        in the game's thread now, as a command's is. ``None``: the outbox's dispatcher posts it after its grace."""
        self.shared_image: Callable[[dict[str, Any]], Awaitable[bytes]] | None = None
        """Wired by host/app.py to the clickable board's image cache (host/play/clickable.py): a report's board
        goes through it, so the board pages of that position are served the drawing Discord got, not a second one."""

    def player_names(self, row: GameRow, players: int) -> list[str | None] | None:
        """Display names by seat for the renderer (``None`` for a seat whose name is unknown); an AI seat is
        named as everywhere else (``🤖 AI (hard)``)."""
        users = [row.user_at(seat) for seat in range(players)]
        if self.display_name is None and not any(bots.is_ai(u) for u in users):
            return None
        person = self.display_name or (lambda _user: None)
        return [bots.name(u) if bots.is_ai(u) else person(u) if u is not None else None for u in users]

    async def loaded(self, game_id: int) -> tuple[GameRow, Game]:
        """The row and its cached engine, for readers that never change it (the move builder)."""
        row = await self.session.row(game_id)
        return row, await self.session.cached_engine(row)

    async def draw(self, row: GameRow, observation: dict[str, Any], *, shared: bool = False) -> Board:
        """An observation as a board image, with the players' names, drawn off the event loop (``shared``: a
        game's own board, drawn once for Discord and the board pages alike)."""
        names = self.player_names(row, observation["players"])
        if names is not None:
            observation["player_names"] = names
        image = await (self.shared_image(observation) if shared and self.shared_image is not None
                       else self.painter.draw(observation))
        return Board(image=image, filename=f"{row.game}-{row.id}-{observation['ply']}.png")

    async def _board(self, row: GameRow, game: Game, seat: int | None) -> Board:
        return await self.draw(row, game.observation(seat), shared=True)

    async def board(self, game_id: int, user: int | None = None) -> Board:
        """The public board, or a seated user's own view (with their hidden information)."""
        row = await self.session.row(game_id)
        game = await self.session.cached_engine(row)
        seat = row.seat_of(user) if user is not None else None
        return await self._board(row, game, seat)

    async def observation(self, game_id: int, user: int | None) -> dict[str, Any]:
        row = await self.session.row(game_id)
        game = await self.session.cached_engine(row)
        return game.observation(row.seat_of(user) if user is not None else None)

    async def rolls(self, game_id: int) -> list[str]:
        """Every dice result so far, in order: with the seed revealed at the end anyone can recheck them."""
        row = await self.session.row(game_id)
        return [m.text for m in await self.session.store.moves(row.id) if m.seat == CHANCE]

    async def move_choices(self, game_id: int, user: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete: (label, move) of the user's legal moves matching what they typed, at most 25."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return []
        game = await self.session.cached_engine(row)
        seats = [s for s in row.seats_of(user) if s in game.to_move()]
        if not seats:
            return []
        moves = sorted(game.legal_moves(seats[0]), key=lambda m: m == "end")  # finishing the turn comes last
        return narrow(moves, typed, lambda move: game.describe(seats[0], move))

    async def explain_no_choices(self, game_id: int, user: int, typed: str) -> str:
        """Why autocomplete has no move for ``user``: said in the one entry offered instead of an empty list."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return f"Game #{row.id} {captions.STATUS_SAID.get(row.status, row.status)}"
        game = await self.session.cached_engine(row)
        seats = row.seats_of(user)
        if not seats:
            return "You are not playing this game"
        if not any(s in game.to_move() for s in seats):
            return captions.not_your_turn(row, game, seats, short=True)
        return f"No legal move matches {captions.clip(typed.strip(), 40)!r}: clear the box to see them all"

    async def owes_choice(self, game_id: int, user: int, since: int) -> bool:
        """Whether ``user`` still has the simultaneous secret choice that began at ply ``since`` to make (an owed
        choice DM): a seat of theirs is to move and has not moved since. The others' choices in between change the
        ply, not the round; once this seat moved, a later round is a new DM, owed on its own (``choices_owed``)."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return False
        game = await self.session.cached_engine(row)
        if not game.hidden_information or game.outcome() is not None:
            return False
        moved = {seat for seat, _ in game.history[since:]}
        return any(s in game.to_move() and s not in moved for s in row.seats_of(user))

    async def turn_moves(self, game_id: int, limit: int = 20) -> tuple[int, list[str]]:
        """(ply, moves) for one-click buttons: the legal moves when one seat is to move and they fit."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return 0, []
        game = await self.session.cached_engine(row)
        return len(game.history), button_moves(row, game, limit)

    async def turn_choices(self, game_id: int, limit: int = 20) -> tuple[int, list[tuple[str, str]]]:
        """(ply, [(label, move)]) for move buttons: labels read like autocomplete, ``end`` (finish the turn) last."""
        row = await self.session.row(game_id)
        if row.status != "active":
            return 0, []
        game = await self.session.cached_engine(row)
        return len(game.history), button_choices(row, game, limit)

    async def resolve(self, game: str, user: int, *, thread_id: int | None, guild_id: int | None,
                      statuses: tuple[str, ...] = ("active",)) -> GameRow:
        """The game a command means: the thread's game, else the user's only such game in the server."""
        store = self.session.store
        here = await store.find_by_thread(thread_id) if thread_id is not None else None
        if here is not None and here.game == game:
            return here
        mine = await store.games_of(user, statuses, guild_id=guild_id, game=game)
        title = self.session.game_class(game).title
        newest = sorted(mine, key=lambda r: (r.updated_at, r.id), reverse=True)
        live = [row for row in newest if row.status != "finished"]
        if len(live) > 1:  # a game in play (or waiting) is never guessed among several
            kind = "active" if all(row.status == "active" for row in live) else "open"
            raise HostError(f"You have {len(live)} {kind} {title} games here: use the command inside the "
                            "game's thread.")
        if live or newest:
            return (live or newest)[0]  # finished games only count when none is in play: the latest one
        if "challenge" not in statuses:
            waiting = await store.games_of(user, ("challenge",), guild_id=guild_id, game=game)
            if waiting:
                raise HostError(f"Your {title} challenge #{waiting[0].id} is still waiting for players; "
                                "it starts once all have joined.")
        if here is not None:  # another game's thread: the player most likely picked the wrong game's command
            raise HostError(captions.other_game(f"Game #{here.id}", self.session.game_class(here.game).title,
                                                here.game))
        raise HostError(f"You have no {title} game here. Start one with /{game} new.")

    async def game_in_thread(self, thread_id: int) -> GameRow | None:
        """The game whose thread this is (an Activity launched there opens on it), else ``None``."""
        return await self.session.store.find_by_thread(thread_id)

    async def last_board(self, game_id: int) -> Posted | None:
        """The game's newest board message, whose buttons are the live ones."""
        return posted_board(await self.board_posts.get(game_id))

    async def replay_report(self, game_id: int, upto: int, count: int, prefix: str = "") -> Report:
        """The report of the ``count`` moves before ply ``upto``, rebuilt from the move log (the outbox's
        delayed posts): the same caption the live report had, with the board as it was then."""
        row = await self.session.row(game_id)
        game = self.session.game_class(row.game).new(row.players, row.options)
        moves = await self.session.store.moves(row.id)
        first = max(0, upto - count) if count else upto
        for move in moves[:first]:
            game.apply_record(move.seat, move.text)
        before = game.clone()  # the captions describe each move from the position it was played in
        for move in moves[first:upto]:
            game.apply_record(move.seat, move.text)
        applied = [(m.seat, m.text) for m in moves[first:upto]]
        report = await self.report(row, game, applied, before=before)
        if prefix:
            report.caption = f"{prefix}\n{report.caption}"
        return report

    async def report_since(self, game_id: int, first_ply: int) -> Report:
        """The report of the moves from ``first_ply`` on, as it was posted when they were played (re-posting)."""
        row = await self.session.row(game_id)
        game = await self.session.cached_engine(row)
        return await self.report(row, game, list(game.history[first_ply:]))

    async def report(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *,
                     before: Game | None = None) -> Report:
        """The caption and board for moves just applied to ``game`` (``before``: the position they were
        played in). Reads only: it never writes to the database."""
        lines: list[str] = []
        continues = captions.continues_turn(game, applied)
        if continues:  # the turn's message is edited in place: it tells the whole turn so far
            lines += captions.turn_so_far(row, game, before)
        for seat, text in applied:
            if seat == CHANCE and continues:
                continue  # the turn's rolls, a Redo's included, are told by turn_so_far
            if seat == CHANCE:
                lines.append(f"🎲 {text}")
            elif text == "resign" and game.outcome() is None:
                lines.append(f"🏳️ {game.seat_name(seat)} ({mention(row.user_at(seat))}) resigned.")
            elif text in ("resign", "timeout", "draw"):
                continue
            elif not continues:
                lines.append(f"{game.seat_name(seat)} ({mention(row.user_at(seat))}) played "
                             f"{captions.played(game, before, seat, text)}")
        lines += captions.revealed(row, game, before)
        outcome = game.outcome()
        if outcome is not None:
            lines.append(result_line(row, game))
            if game.has_chance:  # a game without dice has nothing to check against its seed
                lines.append(f"Seed: `{row.seed}` (its SHA-256 was shown at the start).")
            if row.settings.get("match", 1) > 1:
                lines.append((await score(self.session.store, row)).line())
        else:
            status = game.status()
            if status:
                lines.append(status)
            movers = sorted(s for s in game.to_move() if s != CHANCE)
            names = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in movers)
            lines.append(f"To move: {names}")
            thinking = sorted({u for s in movers if bots.is_ai(u := row.user_at(s))})
            lines += [f"{bots.name(u)} is thinking…" for u in thinking if u is not None]
        if not applied:
            header = (f"**{game.title}** #{row.id} begins: "
                      + ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in range(row.players)))
            seed = f"\nDice seed SHA-256: `{dice.commitment(row.seed)}`" if game.has_chance else ""
            lines.insert(0, f"{header}{seed}")
            lines.append(f"How to move: press **Move** under the board, or type `/{row.game} move`.")
            if isinstance(origin := row.settings.get("origin"), dict):
                lines.insert(1, f"Played on from {origin.get('source')} after move {origin.get('move')} (never rated).")
            elif note := ratings.rating_note(row, type(game)):
                lines.insert(1, note)
            if teams := captions.teams_line(row, game):
                lines.insert(1, teams)
        to_notify = sorted({u for s in game.to_move()
                            if s != CHANCE and (u := row.user_at(s)) is not None and not bots.is_ai(u)})
        board = await self._board(row, game, None)
        secret = any(game.announce(seat, text) != text for seat, text in applied if seat != CHANCE)
        key = outbox.post_key(row.id, len(game.history)) if applied else outbox.thread_key(row.id)
        follow = [item.key for item in choices_owed(row.id, game, row.seats)]
        if outcome is not None:
            follow.append(outbox.retire_key(row.id))  # the ended game's menus and offer close after its final board
        return Report(row=row, caption=captions.fit("\n".join(lines)), board=board, outcome=outcome,
                      to_notify=to_notify, secret=secret, continues_turn=continues,
                      ply=len(game.history), owed=key, follow=follow, can_build=wants_builder(row, game),
                      choices=button_choices(row, game) if row.status == "active" else [])


def result_line(row: GameRow, game: Game) -> str:
    outcome = game.outcome()
    assert outcome is not None
    if outcome.is_draw:
        return f"🤝 Draw: {outcome.reason}."
    winners = ", ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in sorted(outcome.winners))
    teams = game.teams()
    if len(set(teams)) < len(teams):  # a team game: say which team won, and that the other lost
        won = {teams[s] for s in outcome.winners}
        losers = [s for s in range(game.num_players) if teams[s] not in won]
        lost = " & ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in losers)
        winners = " & ".join(f"{game.seat_name(s)} {mention(row.user_at(s))}" for s in sorted(outcome.winners))
        return f"🏆 Team {winners} won: {outcome.reason}. Team {lost} lost."
    return f"🏆 {winners} won: {outcome.reason}."


def choices_owed(game_id: int, game: Game, seats: Sequence[Seat]) -> list[Owed]:
    """Secret choices that begin for several players at once (Zodiac's duel and king): a DM each."""
    movers = [s for s in game.to_move() if s != CHANCE]
    if not game.hidden_information or len(movers) < 2 or game.outcome() is not None:
        return []
    users = {s.seat: s.user_id for s in seats}
    ply = len(game.history)
    return [Owed("choice_dm", outbox.choice_key(game_id, ply, user), game_id, {"user": user, "upto": ply})
            for seat in movers if (user := users.get(seat)) is not None and not bots.is_ai(user)]


def button_moves(row: GameRow, game: Game, limit: int = 20) -> list[str]:
    """The legal moves for one-click buttons: when one person is to move, in the open, and they are few."""
    movers = [s for s in game.to_move() if s != CHANCE]
    if len(movers) != 1 or game.hidden_information or bots.is_ai(row.user_at(movers[0])):
        return []
    moves = game.legal_moves(movers[0])
    return moves if len(moves) <= limit else []


def button_choices(row: GameRow, game: Game, limit: int = 20) -> list[tuple[str, str]]:
    """(label, move) of those buttons: labels read like autocomplete, ``end`` (finish the turn) last."""
    moves = button_moves(row, game, limit)
    if not moves:
        return []
    seat = next(s for s in game.to_move() if s != CHANCE)
    return [(captions.clip(game.describe(seat, m), 80), m) for m in sorted(moves, key=lambda m: m == "end")]


def posted_board(post: BoardPost | None) -> Posted | None:
    """A board message as the cogs get it: no data-layer row leaves the host."""
    return None if post is None else Posted(post.channel_id, post.message_id, ply=post.ply)
