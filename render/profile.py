"""A small rating-history chart for ``/profile``: one line per game, rating after each rated game.

The x axis counts games, not days (bursts of play and long breaks would squash the line), and every
line ends at the right edge, so each game's latest rating sits at "now".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import MUTED, PAPER, SEAT_COLOURS, text_width, to_png
from render.leaderboard import fit, write

WIDTH, HEIGHT = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 48, 64
# One line per game (five games): the seat colours plus two more Okabe-Ito colours.
LINE_COLOURS = (*SEAT_COLOURS, (230, 159, 0), (86, 180, 233))
LEGEND_ROW = 20


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
        write(draw, (plot[0] - 6, y), str(tick), 12, MUTED, align="right")
    write(draw, (plot[2], 22), f"last {longest - 1} games" if longest > 2 else "first game", 12, MUTED, align="right")
    for colour, line in zip(LINE_COLOURS, shown, strict=False):
        points = [point(longest - len(line.ratings) + i, r) for i, r in enumerate(line.ratings)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=3, joint="curve")
        x, y = points[-1]
        draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=colour)
    _legend(draw, shown)
    return to_png(image)


def _legend(draw: ImageDraw.ImageDraw, shown: Sequence[Series]) -> None:
    """Swatch and label per game, wrapped onto a second row rather than cut."""
    x, y = float(LEFT), HEIGHT - BOTTOM + 22
    for colour, line in zip(LINE_COLOURS, shown, strict=False):
        label = fit(draw, f"{line.label} {line.ratings[-1]}", 12, WIDTH - LEFT - RIGHT - 14)
        width = 14 + text_width(draw, label, 12)
        if x + width > WIDTH - RIGHT and x > LEFT:
            x, y = float(LEFT), y + LEGEND_ROW
        draw.rectangle((x, y - 5, x + 10, y + 5), fill=colour)
        write(draw, (x + 14, y), label, 12)
        x += width + 18
