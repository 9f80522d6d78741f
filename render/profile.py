"""A small rating-history chart for ``/profile``: one line per game, rating after each rated game.

The x axis counts games, not days (bursts of play and long breaks would squash the line), and every
line ends at the right edge, so each game's latest rating sits at "now".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import MUTED, PAPER, SEAT_COLOURS, Colour, text_width, to_png
from render.leaderboard import fit, write

WIDTH, HEIGHT = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 48, 64
# One line per game (five games): the seat colours plus two more Okabe-Ito colours.
LINE_COLOURS = (*SEAT_COLOURS, (230, 159, 0), (86, 180, 233))
LEGEND_ROW = 20
SMALL = 13  # axis and legend labels: 9 px high once the chart is shown 400 px wide
SPREAD = 4
"""Pixels between lines that would lie on top of each other (the same rating after the same game)."""
MARKERS = ("circle", "square", "triangle", "diamond", "down", "cross")
"""One marker shape per line, on its points and in the legend: identical lines stay told apart."""


@dataclass(frozen=True)
class Series:
    label: str
    ratings: Sequence[int]
    """The rating before the oldest game shown, then after each rated game."""


def _ticks(low: int, high: int) -> list[int]:
    """Round gridline values (multiples of 50, 100, 200 ...) covering ``low..high``, at most five gaps."""
    step = 50
    low, high = min(low, high - 25), max(high, low + 25)  # one value, or a flat line: keep it off the edges
    while (high - low) / step > 4:
        step *= 2
    start = (low // step) * step
    stop = -(-high // step) * step
    return list(range(start, max(stop, start + step) + 1, step))


def render_rating_chart(title: str, series: Sequence[Series]) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    write(draw, (LEFT, 22), fit(draw, title, 18, WIDTH - LEFT - RIGHT - 100), 18)
    shown = [s for s in series if s.ratings][: len(LINE_COLOURS)]
    if not shown:
        write(draw, (WIDTH // 2, HEIGHT // 2), "No rated games yet.", 16, MUTED, align="centre")
        return to_png(image)
    ticks = _ticks(min(r for s in shown for r in s.ratings), max(r for s in shown for r in s.ratings))
    low, high = ticks[0], ticks[-1]
    longest = max(len(s.ratings) for s in shown)
    plot = (LEFT, TOP, WIDTH - RIGHT, HEIGHT - BOTTOM)

    def point(index: int, value: int) -> tuple[float, float]:
        x = plot[2] - (plot[2] - plot[0]) * ((longest - 1 - index) / max(longest - 1, 1))
        y = plot[3] - (plot[3] - plot[1]) * ((value - low) / (high - low))
        return x, y

    for tick in ticks:
        _, y = point(0, tick)
        draw.line((plot[0], y, plot[2], y), fill=(225, 220, 210))
        write(draw, (plot[0] - 6, y), str(tick), SMALL, MUTED, align="right")
    write(draw, (plot[2], 22), f"last {longest - 1} games" if longest > 2 else "first game", SMALL, MUTED,
          align="right")
    taken: dict[tuple[int, int], int] = {}  # (game index, rating) -> lines already drawn through it
    for k, (colour, line) in enumerate(zip(LINE_COLOURS, shown, strict=False)):
        points = []
        for i, r in enumerate(line.ratings):
            index = longest - len(line.ratings) + i
            below = taken.get((index, r), 0)  # an identical stretch is drawn beside the earlier one, not on it
            taken[(index, r)] = below + 1
            x, y = point(index, r)
            points.append((x, y - SPREAD * below))
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        every = max(1, len(points) // 12)  # markers on a dozen points at most, always on the latest
        for x, y in points[::-1][::every]:
            marker(draw, (x, y), MARKERS[k % len(MARKERS)], colour)
    _legend(draw, shown)
    return to_png(image)


def _legend(draw: ImageDraw.ImageDraw, shown: Sequence[Series]) -> None:
    """Swatch and label per game, wrapped onto a second row rather than cut."""
    x, y = float(LEFT), HEIGHT - BOTTOM + 22
    for k, (colour, line) in enumerate(zip(LINE_COLOURS, shown, strict=False)):
        label = fit(draw, f"{line.label} {line.ratings[-1]}", SMALL, WIDTH - LEFT - RIGHT - 16)
        width = 16 + text_width(draw, label, SMALL)
        if x + width > WIDTH - RIGHT and x > LEFT:
            x, y = float(LEFT), y + LEGEND_ROW
        draw.line((x - 2, y, x + 12, y), fill=colour, width=3)
        marker(draw, (x + 5, y), MARKERS[k % len(MARKERS)], colour)
        write(draw, (x + 16, y), label, SMALL)
        x += width + 16


def marker(draw: ImageDraw.ImageDraw, xy: tuple[float, float], shape: str, colour: Colour) -> None:
    """A small filled marker with a paper rim, so it shows over any line."""
    x, y = xy
    r = 5
    if shape == "circle":
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=PAPER)
    elif shape == "square":
        draw.rectangle((x - r + 1, y - r + 1, x + r - 1, y + r - 1), fill=colour, outline=PAPER)
    elif shape == "triangle":
        draw.polygon(((x, y - r), (x + r, y + r - 1), (x - r, y + r - 1)), fill=colour, outline=PAPER)
    elif shape == "down":
        draw.polygon(((x, y + r), (x + r, y - r + 1), (x - r, y - r + 1)), fill=colour, outline=PAPER)
    elif shape == "diamond":
        draw.polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), fill=colour, outline=PAPER)
    else:
        draw.line((x - r, y - r, x + r, y + r), fill=colour, width=3)
        draw.line((x - r, y + r, x + r, y - r), fill=colour, width=3)
