"""An event as a FIDE Tournament Report File (TRF-16, FIDE Handbook C.04 Annex 2): pure, from a stored event.

Rating officers and pairing checkers read it. Starting numbers are the seeds; each player line carries the
points, the place and one 10-character block per round: opponent, colour (``w`` = first seat) and result
(``1 = 0`` played, ``+ -`` forfeits; a bye is opponent ``0000`` with ``U`` for the pairing-allocated bye
worth a win, ``Z`` for a round without a game worth nothing: the round robin's bye or a withdrawn
player's absence). The points field is the sum of what the line's results score (``SCORES``), in every
format: a knockout's standings count games won instead, which is not a TRF score. A knockout writes each
game of a match as its own round, in the order they were played (a drawn game and its replay are two
rounds), so the file stays one block per game.
"""

from __future__ import annotations

from datetime import UTC, datetime

from data.tournaments import Snapshot
from host.tournaments import plan
from host.tournaments.plan import Table

SYSTEMS = {plan.SWISS: "Swiss System (FIDE Dutch)", plan.ROUND_ROBIN: "Round Robin (Berger tables)",
           plan.KNOCKOUT: "Knockout"}


SCORES = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "U": 1.0, "H": 0.5, "Z": 0.0, " ": 0.0}
"""What each TRF-16 result code scores (a blank: a game in progress, nothing yet): a player line's points field
is their sum, so a reader adding up the line finds the points it states."""


class NotExportable(ValueError):
    """TRF-16 holds 2-player games only."""


def _date(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y/%m/%d")


def _result(mine: float, theirs: float, forfeit: bool) -> str:
    if forfeit:
        return "+" if mine > theirs else "-"
    return "1" if mine > theirs else "=" if mine == theirs else "0"


def export(snap: Snapshot, table: Table, names: dict[int, str], title: str, now: float) -> str:
    """The TRF-16 text of the event as it stands (rounds so far; a game in progress is left blank)."""
    event = snap.event
    if event.table_size != 2:
        raise NotExportable("TRF-16 describes 2-player games; an event of 3-4 player tables cannot be written")
    order = plan.seed_order(snap)
    number = {u: i for i, u in enumerate(order, start=1)}
    slots = sorted({(p.round, p.match_game) for p in snap.pairings})
    column = {slot: i for i, slot in enumerate(slots)}
    blocks: dict[int, list[str]] = {u: [" " * 10] * len(slots) for u in order}
    scheduled: dict[int, set[int]] = {u: set() for u in order}
    scores = dict.fromkeys(order, 0.0)
    for p in snap.pairings:
        at = column[(p.round, p.match_game)]
        if p.bye:
            user = p.seats[0]
            got = p.points[0] if p.points else 0.0
            code = "U" if got >= 1 else "H" if got > 0 else "Z"  # requested half-point bye: H
            blocks[user][at] = f"0000 - {code}  "
            scores[user] += SCORES[code]
            scheduled[user].add(p.round)
            continue
        for seat, user in enumerate(p.seats):
            other = p.seats[1 - seat]
            result = " " if p.points is None else _result(p.points[seat], p.points[1 - seat], p.forfeit)
            blocks[user][at] = f"{number[other]:>4} {'wb'[seat]} {result}  "
            scores[user] += SCORES[result]
            scheduled[user].add(p.round)
    if event.format == plan.SWISS:  # a withdrawn player's later rounds: absent, no game, nothing scored
        for entrant in snap.entrants:
            if entrant.status != "in" and entrant.left_round is not None:
                for (round_, _), at in column.items():
                    if round_ > entrant.left_round and round_ not in scheduled[entrant.user_id]:
                        blocks[entrant.user_id][at] = "0000 - Z  "
    place = {row.entrant: row.rank for row in table.rows}
    header = [
        f"012 {title}"[:120],
        f"042 {_date(event.created_at)}",
        f"052 {_date(now)}",
        f"062 {len(order)}",
        "072 0",
        f"092 {SYSTEMS[event.format]}",
        "102 the organiser",
        f"XXR {len(slots) if event.format == plan.KNOCKOUT else max(event.rounds, event.current_round)}",
    ]
    lines = []
    for user in order:
        rank, points = place.get(user, number[user]), scores[user]
        name = " ".join(names.get(user, f"user {user}").split())[:33]
        head = f"001 {number[user]:>4}      {name:<33} {'':>4} {'':<3} {'':>11} {'':<10} {points:4.1f} {rank:>4}"
        lines.append(f"{head}  {''.join(blocks[user])}".rstrip())
    return "\n".join(header + lines) + "\n"
