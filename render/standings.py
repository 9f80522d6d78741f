"""The standings image of a tournament or a ladder: a pure function from plain rows to PNG bytes.

The caller says what the columns are (points and tie-breaks for a tournament; games and last activity
for the ladder), so one table serves both. Every text goes through ``render.common.text`` with its
cell as the box, so a long name, a wide number or a CJK title shrinks or is cut instead of spilling
into the next column, and a test can check every cell. More than ``PER_PAGE`` rows are split into
pages (``page_count``), each a complete image with the title and the notes: a phone shows 32 rows
at a readable size, and Discord takes up to 10 images in one message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    SEAT_COLOURS,
    Box,
    Colour,
    layout,
    line_height,
    text,
    text_width,
    to_png,
)

WIDTH = 720
MARGIN = 16
ROW = 36
SIZE = 20
HEADER_SIZE = 16
TITLE_SIZE = 26
NOTE_SIZE = 16
NOTE_LINES = 3
"""Lines a note may wrap onto before it is cut."""
TOP = 94
"""Where the column headers start (below the title and subtitle)."""
RANK_WIDTH = 58
MIN_NAME = 220
"""Value columns narrower than this leave the name column at least this wide."""
PER_PAGE = 32
NAME_MIN = 16
"""A long name is cut with an ellipsis at this size rather than shrunk out of reach of a phone."""
MEDALS: tuple[Colour, ...] = ((212, 175, 55), (168, 169, 173), (205, 127, 50))
"""Gold, silver and bronze discs for the podium of a final table."""
SHADE = (240, 236, 226)
Value = str | float | int


@dataclass(frozen=True)
class StandingsRow:
    """One player's line. ``rank`` is None for a player without a place (not yet ranked)."""

    rank: int | None
    name: str
    values: tuple[Value, ...] = ()
    """One per column header, in order; numbers are written with halves and quarters as fractions (2½)."""
    playing: int | None = None
    """Games in progress (shown in a last "Playing" column when any row gives it; 0 leaves the cell empty)."""
    note: str = ""
    """A short remark after the name, e.g. "withdrawn" (drawn muted)."""
    highlight: bool = False
    """The caller's own line."""
    medal: int | None = None
    """A final table's medal disc: 1 gold, 2 silver, 3 bronze, 0 none; None: places 1-3 take their own (an event
    gives medals to the players who finished it, so a withdrawn player's place has none and the next takes it)."""


@dataclass(frozen=True)
class StandingsTable:
    title: str
    columns: tuple[str, ...]
    """Headers of the value columns after the player's name, e.g. ("Pts", "Bh", "SB")."""
    rows: Sequence[StandingsRow]
    subtitle: str = ""
    final: bool = False
    """The event is over: the first three places get medals (the podium)."""
    notes: tuple[str, ...] = field(default_factory=tuple)
    """Lines under the table: what each tie-break means, the ladder's rules."""
    empty: str = "Nobody here yet."
    """What the table says when it has no rows."""


def number(value: Value) -> str:
    """``2.5`` → ``2½``, ``0.25`` → ``¼``, ``3.0`` → ``3``; other numbers with at most two decimals; text as is."""
    if isinstance(value, str):
        return value
    exact = Fraction(value).limit_denominator(4)
    if abs(float(exact) - value) > 1e-9 or exact.denominator == 3:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    whole = int(exact) if exact >= 0 else -int(-exact)
    rest = abs(exact - whole)
    sign = "-" if value < 0 and whole == 0 and rest else ""
    part = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}.get(rest, "")
    return f"{sign}{whole if whole or not part else ''}{part}"


def page_count(table: StandingsTable) -> int:
    return max(1, -(-len(table.rows) // PER_PAGE))


def render_standings(table: StandingsTable, page: int = 1) -> bytes:
    """One page of the table (1-based; pages past the end show the last one)."""
    pages = page_count(table)
    page = min(max(1, page), pages)
    rows = list(table.rows[(page - 1) * PER_PAGE: page * PER_PAGE])
    playing = any(r.playing is not None for r in table.rows)
    headers = [*table.columns, *(["Playing"] if playing else [])]
    widths = _column_widths(table, headers, playing)
    notes_height = _notes_height(table.notes)
    height = TOP + ROW * (1 + max(1, len(rows))) + 12 + notes_height + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 6), fill=MEDALS[0] if table.final else SEAT_COLOURS[0])
    right = WIDTH - MARGIN
    page_text = f"page {page} of {pages}" if pages > 1 else ""
    page_left = right - (110 if page_text else 0)
    text(draw, (MARGIN, 16), table.title or " ", TITLE_SIZE, bold=True, box=(MARGIN, 12, right, 52))
    if table.subtitle:
        text(draw, (MARGIN, 58), table.subtitle, 17, fill=MUTED, box=(MARGIN, 54, page_left - 8, 80))
    if page_text:
        text(draw, (right, 58), page_text, 17, fill=MUTED, anchor="ra", box=(page_left, 54, right, 80))
    lefts = _lefts(widths)
    name_box = (MARGIN + RANK_WIDTH, lefts[0] - 10) if headers else (MARGIN + RANK_WIDTH, right)
    y = TOP
    _cell(draw, "#", (MARGIN, y, MARGIN + RANK_WIDTH, y + ROW), HEADER_SIZE, MUTED, "m", bold=True)
    _cell(draw, "Player", (name_box[0], y, name_box[1], y + ROW), HEADER_SIZE, MUTED, "l", bold=True)
    for header, left, width in zip(headers, lefts, widths, strict=True):
        _cell(draw, header, (left, y, left + width, y + ROW), HEADER_SIZE, MUTED, "r", bold=True)
    draw.line((MARGIN, y + ROW - 2, right, y + ROW - 2), fill=MUTED)
    y += ROW
    if not rows:
        _cell(draw, table.empty, (name_box[0], y, right, y + ROW), SIZE, MUTED, "l")
        y += ROW
    for index, row in enumerate(rows):
        _row(draw, row, y, index % 2 == 1, table.final, name_box, headers, lefts, widths, playing)
        y += ROW
    y += 12
    for note in table.notes:
        lines = _note_lines(note)
        bottom = y + lines * line_height(NOTE_SIZE) + 2
        text(draw, (MARGIN, y), note, NOTE_SIZE, fill=MUTED, lines=NOTE_LINES, min_size=11,
             box=(MARGIN, y, right, bottom))
        y = bottom + 4
    return to_png(image)


def _row(draw: ImageDraw.ImageDraw, row: StandingsRow, y: int, shaded: bool, final: bool,
         name_box: tuple[int, int], headers: list[str], lefts: list[int], widths: list[int], playing: bool) -> None:
    if row.highlight or shaded:
        draw.rectangle((MARGIN - 6, y + 1, WIDTH - MARGIN + 6, y + ROW - 2),
                       fill=_tint(HIGHLIGHT) if row.highlight else SHADE)
    rank_box: Box = (MARGIN, y, MARGIN + RANK_WIDTH, y + ROW)
    medal = row.rank if row.medal is None else row.medal
    if final and medal is not None and row.rank is not None and 1 <= medal <= len(MEDALS):
        cx, cy, r = MARGIN + RANK_WIDTH / 2, y + ROW / 2, ROW / 2 - 4
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MEDALS[medal - 1], outline=INK)
        _cell(draw, str(row.rank), (cx - r + 2, y + 4, cx + r - 2, y + ROW - 4), SIZE - 2, INK, "m", bold=True)
    else:
        _cell(draw, "–" if row.rank is None else str(row.rank), rank_box, SIZE, INK, "m")
    left, end = name_box
    if row.note:
        note_left = max(left + (end - left) // 2, end - 130)
        _cell(draw, row.note, (note_left, y, end, y + ROW), 15, MUTED, "r")
        end = note_left - 6
    _cell(draw, row.name, (left, y, end, y + ROW), SIZE, INK, "l", bold=row.highlight, min_size=NAME_MIN)
    cells = [number(v) for v in row.values[:len(headers) - int(playing)]]
    cells += [""] * (len(headers) - int(playing) - len(cells))
    if playing:
        cells.append(str(row.playing) if row.playing else "")
    for value, cell_left, width in zip(cells, lefts, widths, strict=True):
        if value:
            _cell(draw, value, (cell_left, y, cell_left + width, y + ROW), SIZE, INK, "r")


def _cell(draw: ImageDraw.ImageDraw, content: str, box: Box, size: int, fill: Colour, align: str,
          bold: bool = False, min_size: int = 11) -> None:
    """One text vertically centred in its cell, left, centre or right aligned, shrunk or cut to fit."""
    x0, y0, x1, y1 = box
    x = {"l": x0, "m": (x0 + x1) / 2, "r": x1}[align]
    text(draw, (x, (y0 + y1) / 2), content, size, fill=fill, anchor=f"{align}m", bold=bold, box=box,
         min_size=min(size, min_size))


def _column_widths(table: StandingsTable, headers: list[str], playing: bool) -> list[int]:
    """Each value column as wide as its header or widest value (plus padding), all together leaving the
    name column at least ``MIN_NAME`` wide; too many columns share what is left (their texts shrink)."""
    widths: list[int] = []
    for i, header in enumerate(headers):
        if playing and i == len(headers) - 1:
            values = [str(r.playing or "") for r in table.rows]
        else:
            values = [number(r.values[i]) for r in table.rows if i < len(r.values)]
        widest = max([text_width(None, header, HEADER_SIZE, True), *(text_width(None, v, SIZE) for v in values)])
        widths.append(int(min(max(widest + 18, 56), 150)))
    room = WIDTH - 2 * MARGIN - RANK_WIDTH - MIN_NAME
    if sum(widths) > room and widths:
        widths = [max(36, room * w // sum(widths)) for w in widths]
    return widths


def _lefts(widths: list[int]) -> list[int]:
    """Left edges of the value columns, packed against the right margin."""
    lefts: list[int] = []
    x = WIDTH - MARGIN
    for width in reversed(widths):
        x -= width
        lefts.insert(0, x)
    return lefts


def _note_lines(note: str) -> int:
    _, lines = layout(None, note, NOTE_SIZE, WIDTH - 2 * MARGIN, NOTE_LINES * line_height(NOTE_SIZE),
                      min_size=11, lines=NOTE_LINES)
    return max(1, len(lines))


def _notes_height(notes: Sequence[str]) -> int:
    return sum(_note_lines(n) * line_height(NOTE_SIZE) + 6 for n in notes)


def _tint(colour: Colour) -> Colour:
    r, g, b = (round(c + (255 - c) * 0.6) for c in colour)
    return r, g, b
