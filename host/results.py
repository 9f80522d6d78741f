"""What host methods return: plain data a cog turns into Discord messages."""

from __future__ import annotations

from dataclasses import dataclass, field

from data.db import Busy
from data.store import GameRow
from engines import Outcome

__all__ = ["Board", "Busy", "GameRow", "HostError", "Lobby", "Posted", "Report", "StalePosition"]
"""``Busy`` and ``GameRow`` come from data/ and are passed on here, so cogs never import data/."""


class HostError(Exception):
    """A refusal to show the user as is (ephemeral): it says what is wrong and what to do."""


class StalePosition(HostError):
    """A move made for a position the game has since left (a button of an earlier board, a page behind): the text
    says what to do in Discord, and another interface (the live board page) words its own."""


@dataclass(frozen=True)
class Board:
    image: bytes
    filename: str


@dataclass(frozen=True)
class Posted:
    """A message the bot posted for a game, as a cog handles it: where it is; a board's ``ply``, a live draw offer's
    or secret-choice menu's ``purpose`` (data/boards.py keeps them; its rows stay there)."""

    channel_id: int
    message_id: int
    ply: int = 0
    purpose: str = ""


@dataclass
class Report:
    """What a move, resignation or start changed: a caption for the thread and the new board."""

    row: GameRow
    caption: str
    board: Board
    outcome: Outcome | None
    to_notify: list[int] = field(default_factory=list)
    next_game: Report | None = None
    """The next game of a match, started when this one ended: post it after this report."""
    secret: bool = False
    """The move is a hidden choice (a Zodiac king): the mover's own reply must stay private."""
    continues_turn: bool = False
    """A step inside a turn of several (Ziggurat): edit the turn's board message instead of posting anew."""
    ply: int = 0
    """The position shown: a board's buttons are only good for this ply."""
    owed: str | None = None
    """The outbox key of this post (host/outbox.py): mark it done once shown, or the dispatcher posts it."""
    follow: list[str] = field(default_factory=list)
    """Outbox keys of what follows the post (secret-choice DMs), for the dispatcher to run at once."""
    can_build: bool = False
    """A person (not an AI) has a move to make: the board carries the Move button of the move builder."""
    choices: list[tuple[str, str]] = field(default_factory=list)
    """(label, move) of the one-click move buttons under the board, for the position at ``ply``: the legal
    moves when one person is to move and they are few (dice turns, forced captures)."""


@dataclass
class Lobby:
    """The state of a challenge after a command: still waiting, declined, or started (with its report)."""

    row: GameRow
    started: bool
    declined_by: int | None = None
    report: Report | None = None

    @property
    def waiting_for(self) -> list[int]:
        return [s.user_id for s in self.row.seats if s.user_id is not None and not s.accepted]

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.row.seats if s.user_id is None)
