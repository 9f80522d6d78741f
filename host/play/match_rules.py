"""A match's rules and score, pure or reading the store only: what the lobby, turns and the read model need
of matches without depending on the ``Matches`` service above them (host/play/matches.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from data.store import GameRow, GameStore
from host.outbox import Owed
from host.play import bots
from host.results import HostError

LENGTHS = (1, 3, 5)
NEXT = "match_next"
"""The job a finished match game owes (with ``match_pending``): its match takes its next step. The process
that finished the game does it at once; if it died first, another process's dispatcher does it once the job
falls due (``outbox.GRACE``), instead of waiting for a restart's ``resume_all``. ``settle_match`` in the
creating transaction keeps it to one next game whoever gets there."""
FORFEIT = "forfeit"
"""The result key of a later match game the clock aborted (nobody moved before the deadline): the seats that
had to move. The game stays aborted and unrated; the match counts it as lost by them (docs/rules/zodiac.md)."""


@dataclass(frozen=True)
class Score:
    length: int
    users: tuple[int, int]
    points: tuple[float, float]
    played: int
    abandoned: bool = False
    """A game of the match was aborted by the clock with both players to move: nobody turned up, so the match
    ends at the score it stands at instead of starting game after game that nobody plays."""

    @property
    def decided(self) -> bool:
        return self.abandoned or self.played >= self.length or max(self.points) > self.length / 2

    def line(self) -> str:
        a, b = self.users
        pa, pb = (f"{p:g}" for p in self.points)
        text = f"Match (best of {self.length}): {bots.mention(a)} {pa} – {pb} {bots.mention(b)}"
        if not self.decided:
            return f"{text}; game {self.played + 1} starts below."
        if self.abandoned:
            text += f"; nobody moved in game {self.played}, so the match ends here"
        if self.points[0] == self.points[1]:
            return f"{text}: the match is drawn."
        return f"{text}: {bots.mention(a if self.points[0] > self.points[1] else b)} wins the match."


def check_length(length: int, players: int) -> None:
    if length not in LENGTHS:
        raise HostError("A match is 1, 3 or 5 games.")
    if length > 1 and players != 2:
        raise HostError("Matches are for two players.")


def cancelled_with(row: GameRow) -> str:
    """What aborting ``row`` before anyone moved does to its match, as a clause: game 1 is the match's own row (its
    later games name it), so the match goes with it; "" for a single game."""
    if row.settings.get("match", 1) <= 1:
        return ""
    return f"The match (best of {row.settings['match']}) is cancelled with it"


def forfeit_result(movers: list[int]) -> dict[str, object]:
    """The result an aborted later match game keeps: who had to move (and so lost it for the match)."""
    return {FORFEIT: sorted(movers), "reason": "nobody moved before the clock ran out"}


async def score(store: GameStore, row: GameRow, *, also: GameRow | None = None) -> Score:
    """Points so far (a win 1, a draw ½ each), counting every finished game of the match and every later game
    the clock aborted (a forfeit: lost by the seats that had to move; nobody scores when both had to): the
    reader the reports use (host/play/boards.py), over the store alone. ``also``: a game counted too, before
    the write that ends it lands."""
    first = row.settings.get("match_of") or row.id
    rows = [r for r in await store.match_games(first) if also is None or r.id != also.id] + ([also] if also else [])
    first_row = await store.get(first)
    assert first_row is not None
    users = (first_row.user_at(0) or 0, first_row.user_at(1) or 0)
    points = {users[0]: 0.0, users[1]: 0.0}
    abandoned = False
    for game_row in rows:
        assert game_row.result is not None
        if FORFEIT in game_row.result:
            absent = set(game_row.result[FORFEIT])
            abandoned = abandoned or len(absent) >= game_row.players
            winners = [game_row.user_at(s) for s in range(game_row.players) if s not in absent]
        else:
            ranks = game_row.result["ranks"]
            winners = [game_row.user_at(s) for s, rank in enumerate(ranks) if rank == 1]
        for user in winners:
            points[user or 0] += 1.0 / len(winners)
    return Score(int(row.settings.get("match", 1)), users, (points[users[0]], points[users[1]]), len(rows),
                 abandoned)


def next_key(game_id: int) -> str:
    return f"match-next:{game_id}"


def owed_next(row: GameRow) -> list[Owed]:
    """Written with the move that ends a match game: the dispatcher continues the match if nobody else does."""
    return [Owed(NEXT, next_key(row.id), row.id)] if row.settings.get("match", 1) > 1 else []
