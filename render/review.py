"""The evaluation over a game, as a chart: a pure function from plain points to PNG bytes (no rules here).

Each seat's line is its expected score (0 lost, 1 won) after each of its own moves, in the seat's colour;
a mistake is a ring and a blunder a filled dot on the line, so the turning points read at a glance on a phone.
The vertical axis is labelled in percent, the horizontal one in the replay's move numbers (Ziggurat's turns), so
a point read off the chart is the move ``/<game> replay move:N`` shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import INK, MUTED, PAPER, SEAT_COLOURS, text, to_png

WIDTH, HEIGHT = 720, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 20, 64, 44
LINE = 5
SIZE = 20
TITLE_SIZE = 24
MARK_COLOURS = {"mistake": (230, 159, 0), "blunder": (200, 30, 30)}


@dataclass(frozen=True)
class Point:
    at: float
    """Where on the horizontal axis: the replay's move (turn) number; a turn's actions sit between two turns."""
    value: float
    mark: str = ""
    """"", "inaccuracy", "mistake" or "blunder": only the last two are drawn."""


def chart(lines: Sequence[Sequence[Point]], names: Sequence[str], title: str, last: int, unit: str = "move") -> bytes:
    """One line per seat (``lines[seat]``), with ``names[seat]`` in the legend; ``last`` (the last ``unit``, move or
    turn) sets the x range."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    text(draw, (LEFT, 10), title, TITLE_SIZE, bold=True, box=(LEFT, 4, WIDTH - RIGHT, 40))
    x0, y0, x1, y1 = LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM
    span = max(1, last)

    def at(where: float, value: float) -> tuple[float, float]:
        return x0 + (x1 - x0) * min(where, span) / span, y1 - (y1 - y0) * max(0.0, min(1.0, value))

    draw.rectangle((x0, y0, x1, y1), outline=MUTED, width=2)
    for value, label in ((1.0, "100%"), (0.5, "50%"), (0.0, "0%")):
        y = at(0, value)[1]
        if value == 0.5:
            for x in range(x0, x1, 14):
                draw.line((x, y, min(x + 7, x1), y), fill=MUTED, width=2)
        text(draw, (x0 - 6, y), label, 16, anchor="rm", fill=MUTED, box=(0, y0 - 12, x0 - 2, y1 + 12))
    text(draw, ((x0 + x1) / 2, y1 + 6), f"{unit} 0 to {last}", 16, anchor="ma", fill=MUTED,
         box=(x0, y1 + 2, x1, HEIGHT))
    for seat, points in enumerate(lines):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        xy = [at(p.at, p.value) for p in points]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=LINE, joint="curve")
        for p, (x, y) in zip(points, xy, strict=True):
            mark = MARK_COLOURS.get(p.mark)
            if mark is None:
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
            elif p.mark == "blunder":
                draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=mark, outline=INK, width=2)
            else:
                draw.ellipse((x - 8, y - 8, x + 8, y + 8), outline=mark, width=4)
    _legend(draw, names, (x0, 40, x1, TOP - 4))
    return to_png(image)


def _legend(draw: ImageDraw.ImageDraw, names: Sequence[str], box: tuple[float, float, float, float]) -> None:
    """Each seat's swatch and name, then the two marks, in one row across the top."""
    items = [(name, SEAT_COLOURS[seat % len(SEAT_COLOURS)], "line") for seat, name in enumerate(names)]
    items += [("mistake", MARK_COLOURS["mistake"], "ring"), ("blunder", MARK_COLOURS["blunder"], "dot")]
    shares = [2.0 if kind == "line" else 1.3 for _, _, kind in items]  # names need more room than the marks
    unit = (box[2] - box[0]) / sum(shares)
    left = box[0]
    for (label, colour, kind), share in zip(items, shares, strict=True):
        width = unit * share
        middle = (box[1] + box[3]) / 2
        if kind == "line":
            draw.line((left, middle, left + 18, middle), fill=colour, width=LINE)
        elif kind == "ring":
            draw.ellipse((left + 2, middle - 7, left + 16, middle + 7), outline=colour, width=4)
        else:
            draw.ellipse((left + 1, middle - 8, left + 17, middle + 8), fill=colour, outline=INK, width=2)
        text(draw, (left + 24, middle), label, SIZE, anchor="lm", box=(left + 22, box[1], left + width - 4, box[3]))
        left += width
