"""The standings image of an event: the tournament's table drawn by the shared renderer (render/standings.py).

Adapts ``host.tournament_plan.Table`` to the renderer's plain rows: points then the event's tie-breaks as
columns, games in progress, and a note (withdrawn; how far a knockout player got).
"""

from __future__ import annotations

from data.tournaments import Pairing, Snapshot
from host.tournaments import plan
from host.tournaments.plan import Picture, Table
from host.tournaments.texts import number
from render.events import (
    MAX_CROSS,
    Bracket,
    BracketRound,
    CrossRow,
    Crosstable,
    Match,
    Slot,
    render_bracket,
    render_crosstable,
    shown_rounds,
)
from render.standings import StandingsRow, StandingsTable, page_count, render_standings

SMALL_SWISS = 12
"""A Swiss of at most this many players also gets a crosstable (every round robin up to ``MAX_CROSS`` does)."""


def standings_table(picture: Picture) -> StandingsTable:
    table = picture.table
    medals = plan.medals(table)
    rows = []
    for row in table.rows:
        note = ", ".join(x for x in (row.note, "withdrawn" if row.withdrawn else "") if x)
        rows.append(StandingsRow(row.rank, picture.names.get(row.entrant, str(row.entrant)),
                                 (row.points, *row.tiebreaks), None if picture.final else row.in_progress, note,
                                 medal=medals.get(row.entrant, 0)))
    return StandingsTable(picture.title, (table.points, *table.columns), rows, subtitle=picture.subtitle,
                          final=picture.final, notes=table.explanations, empty="Nobody has entered yet.")


def draw(picture: Picture) -> list[bytes]:
    """Every page of the table (32 players a page), then the bracket or the crosstable when the event has one."""
    table = standings_table(picture)
    pages = [render_standings(table, page) for page in range(1, page_count(table) + 1)]
    if picture.bracket is not None:
        pages.append(render_bracket(picture.bracket))
    if picture.crosstable is not None:
        pages.append(render_crosstable(picture.crosstable))
    return pages


# ----- what the bracket and the crosstable show, as plain data -----------------------------------


def _mark(points: float, other: float, forfeit: bool) -> str:
    if forfeit:
        return "+" if points > other else "−"
    return number(points)


def crosstable(snap: Snapshot, table: Table, names: dict[int, str], title: str, subtitle: str) -> Crosstable | None:
    """Rows in standing order, columns numbered by row: each cell the results against that player (None when
    the event is a knockout, has tables of 3-4, or is too big to read: a Swiss over 12, a round robin over 16)."""
    event = snap.event
    limit = MAX_CROSS if event.format == plan.ROUND_ROBIN else SMALL_SWISS
    if event.format == plan.KNOCKOUT or event.table_size != 2 or not table.rows or len(table.rows) > limit:
        return None
    order = [row.entrant for row in table.rows]
    cells: dict[int, dict[int, str]] = {u: {} for u in order}
    byes: dict[int, int] = {}
    for p in snap.pairings:
        if p.points is None:
            continue
        if p.bye:
            byes[p.seats[0]] = byes.get(p.seats[0], 0) + 1
            continue
        a, b = p.seats
        if a in cells and b in cells:
            cells[a][b] = cells[a].get(b, "") + _mark(p.points[0], p.points[1], p.forfeit)
            cells[b][a] = cells[b].get(a, "") + _mark(p.points[1], p.points[0], p.forfeit)
    rows = tuple(CrossRow(row.rank, names.get(row.entrant, str(row.entrant)), number(row.points),
                          tuple(cells[row.entrant].get(o, "") for o in order), "withdrawn" if row.withdrawn else "")
                 for row in table.rows)
    swiss_byes = event.format == plan.SWISS and any(byes.values())
    note = ("Rows in standing order; column n is row n's player. + / − a forfeit won / lost."
            + (" Byes are not shown." if swiss_byes else ""))
    return Crosstable(title, subtitle, rows, note)


def bracket(snap: Snapshot, names: dict[int, str], title: str, subtitle: str) -> Bracket | None:
    """The knockout's rounds (the latest four when there are more): each match's players, seeds and score;
    the third-place match (drawn under the final) once the final round is paired."""
    event = snap.event
    if event.format != plan.KNOCKOUT or event.current_round == 0:
        return None
    seed = {u: i for i, u in enumerate(plan.seed_order(snap), start=1)}
    total = max(event.rounds, event.current_round)
    rounds = []
    third: Match | None = None
    for round_ in shown_rounds(total, event.current_round):
        boards = plan.boards_of(snap, round_)
        size = 2 ** (total - round_)
        matches = [_match(snap, boards.get(board), names, seed) for board in range(1, size + 1)]
        if round_ == total and plan.is_third_place(snap, round_) and boards.get(2):
            third = _match(snap, boards[2], names, seed)
        label = "Final" if round_ == total else "Semi-finals" if round_ == total - 1 else \
            "Quarter-finals" if round_ == total - 2 else f"Round {round_}"
        rounds.append(BracketRound(label, tuple(matches)))
    return Bracket(title, subtitle, tuple(rounds), third)


def _match(snap: Snapshot, games: list[Pairing] | None, names: dict[int, str], seed: dict[int, int]) -> Match:
    """One match of the bracket: both players with seed and match points, the winner marked."""
    if not games:
        return Match(None, None)
    first = games[0]
    state = plan.match_of(games, plan.match_games(snap), plan.gone(snap))
    winner = state.winner if state is not None else None
    if first.bye:
        user = first.seats[0]
        return Match(Slot(names.get(user, str(user)), seed.get(user), "", winner is not None), None, "bye")
    score = {u: 0.0 for u in first.seats}
    for g in games:
        if g.points is not None:
            for u, pts in zip(g.seats, g.points, strict=True):
                score[u] += pts
    slots = [Slot(names.get(u, str(u)), seed.get(u), number(score[u]) if winner or any(score.values())
                  else "", u == winner) for u in first.seats]
    note = "forfeit" if first.forfeit and first.game_id is None else "" if state is not None and state.decided \
        else "playing"  # a game 1 the clock aborted is one game of a match going on
    return Match(slots[0], slots[1], note)
