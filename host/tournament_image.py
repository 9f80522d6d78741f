"""The standings image of an event: the tournament's table drawn by the shared renderer (render/standings.py).

Adapts ``host.tournament_plan.Table`` to the renderer's plain rows: points then the event's tie-breaks as
columns, games in progress, and a note (withdrawn; how far a knockout player got).
"""

from __future__ import annotations

from host.tournament_plan import Picture
from render.standings import StandingsRow, StandingsTable, page_count, render_standings


def standings_table(picture: Picture) -> StandingsTable:
    table = picture.table
    rows = []
    for row in table.rows:
        note = ", ".join(x for x in (row.note, "withdrawn" if row.withdrawn else "") if x)
        rows.append(StandingsRow(row.rank, picture.names.get(row.entrant, str(row.entrant)),
                                 (row.points, *row.tiebreaks), None if picture.final else row.in_progress, note))
    return StandingsTable(picture.title, (table.points, *table.columns), rows, subtitle=picture.subtitle,
                          final=picture.final, notes=table.explanations, empty="Nobody has entered yet.")


def draw(picture: Picture) -> list[bytes]:
    """Every page of the table (32 players a page)."""
    table = standings_table(picture)
    return [render_standings(table, page) for page in range(1, page_count(table) + 1)]
