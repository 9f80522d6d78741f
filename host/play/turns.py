"""Turns: moves, resignations, draws and aborts, each one version-checked commit, and the live board's place.

After the commit that ends a game, Turns tells its ``after_finish`` subscribers (a match starts its next game
there, wired in ``host/app.py``); it never calls a service above it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from data.boards import BoardPost, BoardPosts, LiveMessage, LiveMessages
from data.store import GameRow
from engines import CHANCE, Game, IllegalMove
from host import outbox
from host.correspondence.timing import Clocks
from host.outbox import Owed
from host.play import bots, captions, dice, match_rules
from host.play.boards import Boards, choices_owed, posted_board
from host.play.captions import mention
from host.play.session import GameSession
from host.results import HostError, Posted, Report, StalePosition

log = logging.getLogger(__name__)
MAX_MOVE_TEXT = 100
"""Longer input is no move of any game; refusing it early keeps every reply short (and never echoes a wall)."""

DRAW_OFFER = "draw"
"""The live message of a game's open draw offer (its Accept and Decline buttons)."""


def choice_menu(user_id: int) -> str:
    """The live message of a player's secret-choice menu (Zodiac's DM, or the thread's Choose privately button)."""
    return f"choice:{user_id}"


FinishedListener = Callable[[Report, Game], Awaitable[Report | None]]
"""Hears, after the commit, that a game ended; may return the start report of a game that follows (a match's)."""


class Turns:
    """Every change a player makes to a game in play; reads its reports from Boards."""

    def __init__(self, session: GameSession, clocks: Clocks, boards: Boards, board_posts: BoardPosts,
                 live: LiveMessages, now: Callable[[], float]) -> None:
        self.session = session
        self.clocks = clocks
        self.boards = boards
        self.board_posts = board_posts
        self.live = live
        self.now = now
        self.after_finish: list[FinishedListener] = []
        """Told after the commit that ended a game (a match's continuation)."""
        self.on_shown: list[Callable[[], None]] = []
        """Run after ``shown`` committed when it made jobs due: wake their worker (the AI's)."""

    async def play(self, game_id: int, user: int, text: str, *, expected_ply: int | None = None,
                   row: GameRow | None = None) -> Report:
        """Parse and apply a user's move, roll any dice it leads to, persist, and say what changed.

        ``expected_ply``: the position a button was made for; any other position refuses, and the
        version check makes that refusal exact even against a click at the same instant.
        ``row``: the game's row as the caller has just read it (the command's look-up of its thread's game), so
        it is not read a second time; the version-checked write refuses it as surely if someone was first.
        """
        row = row if row is not None and row.id == game_id else await self.session.row(game_id)
        self.session.require_status(row, "active")
        before = await self.session.cached_engine(row)  # never changed in place: captions describe the move from it
        game = before.clone()
        if expected_ply is not None and len(game.history) != expected_ply:
            raise StalePosition("That button belongs to an earlier position; use the buttons under the newest board.")
        seat = acting_seat(row, game, user)
        if len(text) > MAX_MOVE_TEXT:
            raise HostError(f"That is not a move: you sent {len(text)} characters, and moves are short. "
                            "Start typing the move command and pick one from the list.")
        try:
            canonical = game.play(seat, text)
        except IllegalMove as error:
            raise HostError(captions.clip(str(error), 300)) from None
        applied = [(seat, canonical)] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self.commit(row, game, applied, draw_offers=[])
        return await self.settled(await self.boards.report(row, game, applied, before=before), game)

    async def resign(self, game_id: int, user: int) -> Report:
        row = await self.session.row(game_id)
        self.session.require_status(row, "active")
        game = (await self.session.cached_engine(row)).clone()
        seats = seats_in_play(row, game, user)
        game.eliminate(seats[0], "resign")
        applied = [(seats[0], "resign")] + [(CHANCE, r) for r in dice.roll_pending(game, row.seed)]
        await self.commit(row, game, applied, draw_offers=[])
        return await self.settled(await self.boards.report(row, game, applied), game)

    async def offer_draw(self, game_id: int, user: int, *, accept_only: bool = False) -> Report | str:
        """Offer a draw, or accept the offers on the table; a draw needs every remaining player.

        ``accept_only``: only join an offer already made (the AI answers offers and never makes one).
        """
        row = await self.session.row(game_id)
        self.session.require_status(row, "active")
        if accept_only and not row.draw_offers:
            raise HostError("There is no draw offer to accept.")
        game = (await self.session.cached_engine(row)).clone()
        seats = seats_in_play(row, game, user)
        offers = sorted(set(row.draw_offers) | set(seats))
        if set(row.draw_offers) >= set(seats):
            raise HostError("You have already offered a draw; it stands until someone moves.")
        if set(offers) >= set(game.active_seats()):
            game.agree_draw(seats[0])
            applied = [(seats[0], "draw")]
            await self.commit(row, game, applied, draw_offers=[])
            return await self.settled(await self.boards.report(row, game, applied), game)
        await self.session.write(row, draw_offers=offers, state=game)
        waiting = [mention(row.user_at(s)) for s in game.active_seats() if s not in offers]
        return (f"{mention(user)} offers a draw. {', '.join(waiting)}: press Accept draw (or use the draw command) "
                "to accept, or just move to decline.")

    async def decline_draw(self, game_id: int, user: int) -> str:
        row = await self.session.row(game_id)
        self.session.require_status(row, "active")
        if not row.draw_offers:
            raise HostError("There is no draw offer to decline.")
        seats_in_play(row, await self.session.cached_engine(row), user)  # a resigned player has no say any more
        await self.session.write(row, draw_offers=[])
        return f"{mention(user)} declined the draw offer."

    async def abort(self, game_id: int, user: int) -> str:
        """Cancel a game before any player has moved; it is never rated. Game 1 of a match cancels the match (a
        challenge withdrawn); a later game is refused: the match has begun and its score is owed a result."""
        row = await self.session.row(game_id)
        if row.seat_of(user) is None:
            raise HostError("Only a player of this game can abort it.")
        if "event" in row.settings:
            raise HostError("A tournament game cannot be aborted: resign, or withdraw with /tournament withdraw.")
        if row.settings.get("match_of") is not None:  # the match is under way: its score is owed a result
            which = f"Game {row.settings['match_game']}" if "match_game" in row.settings else "A later game"
            raise HostError(f"{which} of a match cannot be aborted: the match has begun. Resign instead, or offer a "
                            "draw.")
        if row.status == "challenge":
            await self.session.write(row, status="aborted")
            return f"{mention(user)} withdrew the challenge."
        self.session.require_status(row, "active")
        game = await self.session.cached_engine(row)
        if people_moved(row, game):
            raise HostError("The game has started: resign instead, or offer a draw.")
        await self.session.write(row, status="aborted", owed=[outbox.retired(row.id)])
        match = f" {cancelled}." if (cancelled := match_rules.cancelled_with(row)) else ""
        if any(bots.is_ai(row.user_at(seat)) for seat, _ in own_moves(row, game)):
            return (f"{mention(user)} aborted the game before their first move; the AI's moves are taken back with "
                    f"it.{match}")
        return f"{mention(user)} aborted the game before the first move.{match}"

    async def commit(self, row: GameRow, game: Game, applied: list[tuple[int, str]], *, late_ok: bool = False,
                     prefix: str = "", **changes: Any) -> None:
        """Persist moves already applied to ``game`` (a clone) and, only then, make it the cached state.

        ``late_ok``: the moves settle a timeout (the rules' stand-in move), so the deadline does not refuse them.
        The board post it owes (``prefix`` heads its caption) is enqueued in the same transaction.
        """
        changes.update(await self.clocks.clock_changes(row, game, applied, late_ok=late_ok))
        outcome = game.outcome()
        if outcome is not None:
            changes.update(status="finished", result=outcome.to_dict(), deadline=None, finished=game)
        ply = len(game.history)
        post = {"upto": ply, "count": len(applied), "prefix": prefix}
        owed = [Owed("post", outbox.post_key(row.id, ply), row.id, post),
                *choices_owed(row.id, game, row.seats), *(match_rules.owed_next(row) if outcome is not None else []),
                *([outbox.retired(row.id)] if outcome is not None else [])]
        await self.session.write(row, moves=applied, first_ply=ply - len(applied), state=game, owed=owed, **changes)
        self.session.engines[row.id] = (row.version, game)  # a finished game too: every page open on it reads
        # its final view at once, and so does its report; the cache's LRU drops it once nobody does

    async def settled(self, report: Report, game: Game) -> Report:
        """After the commit that ended a game, tell the subscribers (a match starts its next game): explicitly,
        here, never while a report is built (a report only reads). If one fails or the process dies, the job
        written with the finishing move (``match_next``) does the work elsewhere."""
        if report.outcome is None:
            return report
        for listener in self.after_finish:
            try:
                started = await listener(report, game)
            except Exception:  # the finished game stands; the owed job or recover() does the rest
                log.exception("a listener failed after game %s finished", report.row.id)
                continue
            if started is not None:
                report.next_game = started
        return report

    async def set_thread(self, game_id: int, thread_id: int | None, message_id: int | None = None) -> None:
        """Where the game lives in Discord. Not game state, so no version bump: an Accept click or a first
        move racing with it must not fail."""
        await self.session.row(game_id)
        await self.session.store.set_links(game_id, thread_id, message_id)

    async def shown(self, report: Report, channel_id: int, message_id: int) -> Posted | None:
        """The report is on screen as (channel, message). One transaction: the live board is recorded, the outbox
        job that owed the report is done, and an AI seat's reply waiting for this board is due now. Call it
        right after Discord answered the send, before any other REST call: a crash before it commits posts the
        board again (the window docs/correspondence.md states), a crash after it does not. Returns the board it
        replaces, whose buttons the caller takes off (or the post itself when a newer board is already live)."""
        replaced, hurried = await self.board_posts.shown(
            BoardPost(report.row.id, channel_id, message_id, report.ply), done_key=report.owed, hurry=bots.JOB_KINDS,
            now=self.now())
        for wake in self.on_shown if hurried else ():
            wake()
        return posted_board(replaced)

    async def live_shown(self, game_id: int, purpose: str, channel_id: int, message_id: int) -> Posted | None:
        """A draw offer or a secret-choice menu (``purpose``: ``DRAW_OFFER``, ``choice_menu(user)``) is on screen, kept
        in the database so a restarted process still closes it. Returns the older one it replaces, to close."""
        return posted_live(await self.live.put(LiveMessage(game_id, purpose, channel_id, message_id), self.now()))

    async def live_closed(self, game_id: int, purposes: Sequence[str] | None = None, *,
                          message_id: int | None = None) -> list[Posted]:
        """The game's live messages of ``purposes`` (None: all; ``message_id``: only that one) are over: forgotten
        and returned, for the caller to take their components off (each is returned once)."""
        return [Posted(m.channel_id, m.message_id, purpose=m.purpose)
                for m in await self.live.take(game_id, purposes, message_id=message_id)]

    async def set_last_board(self, game_id: int, channel_id: int, message_id: int, ply: int) -> Posted | None:
        """Record the newest board message; returns the one it replaces (for the bot to take its buttons off)."""
        previous = await self.board_posts.get(game_id)
        posted = BoardPost(game_id, channel_id, message_id, ply)
        if previous is not None and previous.ply > ply:  # a late post (the outbox after a crash): not the live one
            return posted_board(posted)
        await self.board_posts.set(posted, self.now())
        return posted_board(previous) if previous is not None and previous.message_id != message_id else None


def posted_live(message: LiveMessage | None) -> Posted | None:
    return None if message is None else Posted(message.channel_id, message.message_id, purpose=message.purpose)


def seats_in_play(row: GameRow, game: Game, user: int) -> list[int]:
    """The user's seats that have not left the game; refuses anyone else."""
    seats = [s for s in row.seats_of(user) if s not in game.eliminated]
    if not seats and row.seats_of(user):
        raise HostError(captions.not_your_turn(row, game, row.seats_of(user)))  # says they resigned
    if not seats:
        raise HostError("You are not playing in this game.")
    return seats


def acting_seat(row: GameRow, game: Game, user: int) -> int:
    seats = row.seats_of(user)
    if not seats:
        raise HostError("You are not playing in this game.")
    movers = [s for s in seats if s in game.to_move()]
    if not movers:
        raise HostError(captions.not_your_turn(row, game, seats))
    return movers[0]


def own_moves(row: GameRow, game: Game) -> list[tuple[int, str]]:
    """The moves played in this game itself: no dice, and none copied from another game (``origin``)."""
    played_on = (row.settings.get("origin") or {}).get("plies", 0)
    return [(seat, text) for seat, text in game.history[played_on:] if seat != CHANCE]


def people_moved(row: GameRow, game: Game) -> bool:
    """Whether a person (not an AI seat) has made a move: until then the game may be aborted, unrated.

    The AI's moves do not count: it answers within a second (Zodiac's secret choices at once), and a
    player must be able to abort a game against it until they have moved themselves."""
    return any(not bots.is_ai(row.user_at(seat)) for seat, _ in own_moves(row, game))

