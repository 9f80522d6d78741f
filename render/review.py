"""The evaluation over a game, as a chart: a pure function from plain points to PNG bytes (no rules here).

Each seat's line is its expected score (0 lost, 1 won) after each of its own moves, in the seat's colour;
a mistake is a hollow ring and a blunder a large filled dot, both in the colour of the seat that made it, so the
turning points read at a glance on a phone and say whose they are. The vertical axis is labelled in percent, the
horizontal one in the replay's move numbers (Ziggurat's turns), so a point read off the chart is the move
``/<game> replay move:N`` shows. The legend names the seats two to a row when there are more than two (one row of
four cut every name to a letter), and the marks' key sits under the plot, beside the axis label.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import INK, MUTED, PAPER, SEAT_COLOURS, Named, readable, text, text_width, to_png

WIDTH, HEIGHT = 720, 400
"""The size with one legend row; each further row makes the image ``LEGEND_ROW`` taller, the plot keeps its size."""
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 64, 44
LEGEND_ROW = 26
LINE = 5
SIZE = 20
TITLE_SIZE = 24
AXIS_SIZE = 16
KEY = MUTED
"""The marks' key is drawn in grey: on the chart each mark takes its seat's colour."""


@dataclass(frozen=True)
class Point:
    at: float
    """Where on the horizontal axis: the replay's move (turn) number; a turn's actions sit between two turns."""
    value: float
    mark: str = ""
    """"", "inaccuracy", "mistake" or "blunder": only the last two are drawn."""


def legend_rows(seats: int) -> int:
    """One row for up to two seats, else two seats a row."""
    return 1 if seats <= 2 else math.ceil(seats / 2)


def plot_box(seats: int) -> tuple[int, int, int, int]:
    """The plot's frame (x0, y0, x1, y1) on a chart of ``seats`` lines: below the legend's rows."""
    extra = LEGEND_ROW * (legend_rows(seats) - 1)
    return LEFT, TOP + extra, WIDTH - RIGHT, HEIGHT + extra - BOTTOM


def place(point: Point, last: int, seats: int) -> tuple[float, float]:
    """Where ``point`` is drawn, in pixels."""
    x0, y0, x1, y1 = plot_box(seats)
    span = max(1, last)
    return x0 + (x1 - x0) * min(point.at, span) / span, y1 - (y1 - y0) * max(0.0, min(1.0, point.value))


def mistake_ring(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int]) -> None:
    """A hollow ring in ``colour`` with a dark edge, the paper showing through (the line stops at it)."""
    draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=PAPER, outline=INK, width=1)
    draw.ellipse((x - 8, y - 8, x + 8, y + 8), outline=colour, width=4)


def blunder_dot(draw: ImageDraw.ImageDraw, x: float, y: float, colour: tuple[int, int, int]) -> None:
    """A large dot filled with ``colour`` and edged dark: twice the line's width, so it stands out on it."""
    draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=colour, outline=INK, width=3)


def chart(lines: Sequence[Sequence[Point]], names: Sequence[str | Named], title: str, last: int,
          unit: str = "move") -> bytes:
    """One line per seat (``lines[seat]``), with ``names[seat]`` in the legend (a ``Named`` has its player's name
    cut, never the colour, when it does not fit); ``last`` (the last ``unit``, move or turn) sets the x range."""
    seats = max(len(lines), len(names))
    x0, y0, x1, y1 = plot_box(seats)
    height = y1 + BOTTOM
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    text(draw, (LEFT, 10), title, TITLE_SIZE, bold=True, box=(LEFT, 4, WIDTH - RIGHT, 40))
    draw.rectangle((x0, y0, x1, y1), outline=MUTED, width=2)
    for value, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        y = place(Point(0, value), last, seats)[1]
        if value == 0.5:
            for x in range(x0, x1, 14):
                draw.line((x, y, min(x + 7, x1), y), fill=MUTED, width=2)
        text(draw, (x0 - 6, y), label, AXIS_SIZE, anchor="rm", fill=MUTED, box=(0, y0 - 12, x0 - 2, y1 + 12))
    key_left = _key(draw, (x0, y1 + 2, x1, height))
    text(draw, (x0, y1 + 6), f"{unit} 0 to {last}", AXIS_SIZE, anchor="la", fill=MUTED,
         box=(x0, y1 + 2, key_left - 12, height))
    for seat, points in enumerate(lines):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        xy = [place(p, last, seats) for p in points]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=LINE, joint="curve")
        for p, (x, y) in zip(points, xy, strict=True):
            if p.mark == "blunder":
                blunder_dot(draw, x, y, colour)
            elif p.mark == "mistake":
                mistake_ring(draw, x, y, colour)
            else:
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
    _legend(draw, names, (x0, 40, x1, y0 - 4))
    return to_png(image)


def _legend(draw: ImageDraw.ImageDraw, names: Sequence[str | Named], box: tuple[float, float, float, float]) -> None:
    """Each seat's swatch and name, in rows of two when there are more than two seats."""
    per_row = max(1, len(names)) if len(names) <= 2 else 2
    width = (box[2] - box[0]) / per_row
    for seat, name in enumerate(names):
        left = box[0] + width * (seat % per_row)
        top = box[1] + LEGEND_ROW * (seat // per_row)
        middle = top + (LEGEND_ROW - 4) / 2
        draw.line((left, middle, left + 18, middle), fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)], width=LINE)
        text(draw, (left + 24, middle), name, SIZE, anchor="lm",
             box=(left + 22, top, left + width - 8, top + LEGEND_ROW - 4))


def _key(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> float:
    """The marks' key at the right of the row under the plot: a ring "mistake", a dot "blunder"; returns its left."""
    middle = box[1] + 4 + AXIS_SIZE * 0.6
    size = max(AXIS_SIZE, readable(WIDTH))  # the size ``text`` draws it at
    words = [("mistake", mistake_ring), ("blunder", blunder_dot)]
    right = box[2]
    for word, mark in reversed(words):
        drawn = text_width(draw, word, size)
        left = right - drawn - 26
        mark(draw, left + 10, middle, KEY)
        text(draw, (left + 24, middle), word, size, anchor="lm", fill=MUTED, box=(left + 22, box[1], right + 1, box[3]))
        right = left - 14
    return right
