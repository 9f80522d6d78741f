"""Event pictures besides the standings: a knockout's bracket and a round robin's (or small Swiss's) crosstable.

Pure functions from plain data (built by ``host/tournaments/image.py``) to PNG bytes: no rules, no host.
Both are 720 px wide with large type, so a phone that shrinks them to 400 px still shows every name and
result; every text goes through ``render.common.text`` inside its own box.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import HIGHLIGHT, INK, MUTED, PAPER, SEAT_COLOURS, Box, Colour, readable, text, text_width, to_png

WIDTH = 720
MARGIN = 14
TITLE_SIZE = 26
SUB_SIZE = 17
TOP = 84
SHADE = (240, 236, 226)
LINE = (190, 184, 170)
WON = (255, 243, 196)
MAX_CROSS = 16
"""Players a crosstable shows at most: beyond that a cell would be too small to read at 400 px."""
MAX_BRACKET_ROUNDS = 4
"""Rounds a bracket shows at once (16 players in its first column); a bigger knockout shows its latest rounds."""


@dataclass(frozen=True)
class CrossRow:
    """One player's line: ``cells[j]`` is the result against the player of row j ("" not met yet, several
    games side by side, e.g. "1½"; "+"/"−" a forfeit won/lost); the player's own cell is ignored."""

    rank: int | None
    name: str
    points: str
    cells: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True)
class Crosstable:
    title: str
    subtitle: str
    rows: tuple[CrossRow, ...]
    note: str = ""


@dataclass(frozen=True)
class Slot:
    """One side of a bracket match: a name (seed number in front) and the match score; ``won`` marks the winner."""

    name: str
    seed: int | None = None
    score: str = ""
    won: bool = False


@dataclass(frozen=True)
class Match:
    top: Slot | None
    """None: not known yet (the winner of an earlier match)."""
    bottom: Slot | None
    note: str = ""
    """``bye``, ``playing``, ``forfeit`` ..."""


@dataclass(frozen=True)
class BracketRound:
    label: str
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class Bracket:
    title: str
    subtitle: str
    rounds: tuple[BracketRound, ...]
    third_place: Match | None = None
    """The semi-finals' losers' match, drawn under the final (when the final is shown)."""


def _cell(draw: ImageDraw.ImageDraw, content: str, box: Box, size: int, fill: Colour = INK, align: str = "m",
          bold: bool = False, min_size: int = 11) -> None:
    x0, y0, x1, y1 = box
    x = {"l": x0 + 4, "m": (x0 + x1) / 2, "r": x1 - 4}[align]
    inner: Box = (x0 + 2, y0, x1 - 2, y1)
    text(draw, (x, (y0 + y1) / 2), content, size, fill=fill, anchor=f"{align}m", bold=bold, box=inner,
         min_size=min(size, min_size))


def _head(draw: ImageDraw.ImageDraw, title: str, subtitle: str) -> None:
    draw.rectangle((0, 0, WIDTH, 6), fill=SEAT_COLOURS[0])
    _cell(draw, title, (MARGIN, 12, WIDTH - MARGIN, 48), TITLE_SIZE, INK, "l", bold=True, min_size=14)
    _cell(draw, subtitle, (MARGIN, 48, WIDTH - MARGIN, 76), SUB_SIZE, MUTED, "l", min_size=11)


# ----- the crosstable ---------------------------------------------------------------------------


def render_crosstable(table: Crosstable) -> bytes:
    """Rows in standing order; column j is the player of row j (numbered), then the points."""
    rows = table.rows[:MAX_CROSS]
    n = max(1, len(rows))
    row_h = 34 if n <= 10 else 30
    rank_w, pts_w = 34, 52
    cell_w = max(26, min(48, (WIDTH - 2 * MARGIN - rank_w - pts_w - 170) // n))
    name_w = WIDTH - 2 * MARGIN - rank_w - pts_w - cell_w * n
    size = 20 if cell_w >= 40 else 17 if cell_w >= 32 else 15
    note_h = 30 if table.note else 0
    height = TOP + row_h * (n + 1) + note_h + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _head(draw, table.title, table.subtitle)
    y = TOP
    left_cells = MARGIN + rank_w + name_w
    _cell(draw, "#", (MARGIN, y, MARGIN + rank_w, y + row_h), 15, MUTED, bold=True)
    _cell(draw, "Player", (MARGIN + rank_w, y, left_cells, y + row_h), 15, MUTED, "l", bold=True)
    for j in range(len(rows)):
        x = left_cells + j * cell_w
        _cell(draw, str(j + 1), (x, y, x + cell_w, y + row_h), 15, MUTED, bold=True)
    _cell(draw, "Pts", (WIDTH - MARGIN - pts_w, y, WIDTH - MARGIN, y + row_h), 15, MUTED, "r", bold=True)
    draw.line((MARGIN, y + row_h - 1, WIDTH - MARGIN, y + row_h - 1), fill=MUTED)
    for i, row in enumerate(rows):
        y = TOP + row_h * (i + 1)
        if i % 2:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 1), fill=SHADE)
        _cell(draw, f"{i + 1}", (MARGIN, y, MARGIN + rank_w, y + row_h), 16, MUTED)
        name = row.name if not row.note else f"{row.name} ({row.note})"
        _cell(draw, name, (MARGIN + rank_w, y, left_cells, y + row_h), 19, INK, "l", min_size=16)
        for j in range(len(rows)):
            x = left_cells + j * cell_w
            box: Box = (x, y, x + cell_w, y + row_h)
            draw.line((x, y, x, y + row_h - 1), fill=LINE)
            if j == i:
                draw.rectangle((x + 1, y + 1, x + cell_w - 1, y + row_h - 2), fill=MUTED)
                continue
            value = row.cells[j] if j < len(row.cells) else ""
            if value:
                colour = (30, 120, 50) if value.startswith(("1", "+")) else INK
                _cell(draw, value, box, size, colour, bold=value.startswith(("1", "+")))
        draw.line((left_cells + len(rows) * cell_w, y, left_cells + len(rows) * cell_w, y + row_h - 1), fill=LINE)
        _cell(draw, row.points, (WIDTH - MARGIN - pts_w, y, WIDTH - MARGIN, y + row_h), 19, INK, "r", bold=True)
    if table.note:
        y = TOP + row_h * (n + 1) + 4
        _cell(draw, table.note, (MARGIN, y, WIDTH - MARGIN, y + note_h - 4), 14, MUTED, "l", min_size=10)
    return to_png(image)


# ----- the bracket ------------------------------------------------------------------------------


def shown_rounds(total: int, current: int) -> range:
    """Which rounds (1-based) a bracket shows: all when they fit, else the latest four from the current one."""
    first = max(1, min(current, total - MAX_BRACKET_ROUNDS + 1))
    return range(first, min(total, first + MAX_BRACKET_ROUNDS - 1) + 1)


def render_bracket(bracket: Bracket) -> bytes:
    """Columns of rounds, left to right; each match a box of two lines, joined to the match its winner plays."""
    rounds = bracket.rounds[:MAX_BRACKET_ROUNDS]
    columns = max(1, len(rounds))
    first = max(1, len(rounds[0].matches)) if rounds else 1
    slot_h, gap = 36, 14
    box_h = 2 * slot_h
    height = TOP + 30 + first * (box_h + gap) + MARGIN
    # The final sits mid-height in its column: the third-place match goes below it, with its own label.
    final_bottom = TOP + 30 + first * (box_h + gap) / 2 - gap / 2 + slot_h
    third_top = final_bottom + 2 * gap + 26
    if bracket.third_place is not None:
        height = max(height, round(third_top + box_h + MARGIN))
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    _head(draw, bracket.title, bracket.subtitle)
    link = 16
    col_w = (WIDTH - 2 * MARGIN - link * (columns - 1)) // columns
    size = 22 if columns <= 2 else 20 if columns == 3 else 18
    centres: list[list[float]] = []
    for k, rnd in enumerate(rounds):
        x0 = MARGIN + k * (col_w + link)
        _cell(draw, rnd.label, (x0, TOP, x0 + col_w, TOP + 26), 16, MUTED, "l", bold=True)
        here: list[float] = []
        for j, match in enumerate(rnd.matches):
            if k == 0 or len(centres[k - 1]) < 2 * j + 2:
                cy = TOP + 30 + j * (box_h + gap) * (first / max(1, len(rnd.matches))) \
                    + (box_h + gap) * (first / max(1, len(rnd.matches))) / 2 - gap / 2
            else:
                cy = (centres[k - 1][2 * j] + centres[k - 1][2 * j + 1]) / 2
            here.append(cy)
            top = cy - slot_h
            draw.rectangle((x0, top, x0 + col_w, top + box_h), fill=(255, 255, 255), outline=LINE)
            draw.line((x0, cy, x0 + col_w, cy), fill=LINE)
            for s, slot in enumerate((match.top, match.bottom)):
                y = top + s * slot_h
                _slot(draw, slot, (x0, y, x0 + col_w, y + slot_h), size, match.note if s == 1 else "")
            if k > 0 and len(centres[k - 1]) >= 2 * j + 2:
                for feeder in centres[k - 1][2 * j:2 * j + 2]:
                    mid = x0 - link / 2
                    draw.line((x0 - link, feeder, mid, feeder), fill=MUTED, width=2)
                    draw.line((mid, feeder, mid, cy), fill=MUTED, width=2)
                draw.line((x0 - link / 2, cy, x0, cy), fill=MUTED, width=2)
        centres.append(here)
    if bracket.third_place is not None and rounds and len(rounds[-1].matches) == 1:
        x0 = MARGIN + (columns - 1) * (col_w + link)
        _cell(draw, "Third place", (x0, third_top - 28, x0 + col_w, third_top - 2), 16, MUTED, "l", bold=True)
        match = bracket.third_place
        draw.rectangle((x0, third_top, x0 + col_w, third_top + box_h), fill=(255, 255, 255), outline=LINE)
        draw.line((x0, third_top + slot_h, x0 + col_w, third_top + slot_h), fill=LINE)
        for s, slot in enumerate((match.top, match.bottom)):
            y = third_top + s * slot_h
            _slot(draw, slot, (x0, y, x0 + col_w, y + slot_h), size, match.note if s == 1 else "")
    return to_png(image)


def _slot(draw: ImageDraw.ImageDraw, slot: Slot | None, box: Box, size: int, note: str) -> None:
    x0, y0, x1, y1 = box
    if slot is None:
        _cell(draw, note or "…", box, size - 2, MUTED, "l")
        return
    if slot.won:
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=WON)
        draw.rectangle((x0 + 1, y0 + 1, x0 + 5, y1 - 1), fill=HIGHLIGHT)
    drawn_at = max(size, readable(WIDTH))  # text is never drawn smaller: the score's cell is as wide as it needs
    score_w = max(30, round(text_width(draw, slot.score, drawn_at, slot.won)) + 10) if slot.score else 0
    seed_w = 0
    if slot.seed is not None:  # room for two digits at least (the size it is drawn at), so names line up
        seed = str(slot.seed)
        seed_w = round(text_width(draw, "0" * max(2, len(seed)), max(size - 4, readable(WIDTH)))) + 8
        _cell(draw, seed, (x0 + 4, y0, x0 + 4 + seed_w, y1), size - 4, MUTED, "l")
    _cell(draw, slot.name, (x0 + 4 + seed_w, y0, x1 - score_w, y1), size, INK, "l", bold=slot.won,
          min_size=size - 3)  # cut with an ellipsis rather than shrunk out of reach at 400 px
    if score_w:
        _cell(draw, slot.score, (x1 - score_w, y0, x1, y1), size, INK, "r", bold=slot.won)
