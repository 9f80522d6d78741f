"""The leaderboard image, and the Unicode-safe text drawing both rating images use.

Pure functions from plain lines to PNG, tested without a database or Discord. Names are whatever
users chose, so text is drawn per character with the first available font that has the glyph:
DejaVu Sans shipped in ``render/fonts/`` (Latin, Greek, Cyrillic, Arabic, Hebrew), then Droid Sans
Fallback, also shipped (Chinese, Japanese; Apache 2.0), then Symbola (emoji, also shipped), then
Noto Sans CJK when the system has it (Korean), then Pillow's bundled font (``render.common`` holds
the chain); control characters are dropped and long names cut with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.common import HIGHLIGHT, INK, MUTED, PAPER, SEAT_COLOURS, clean, fonts, runs, text_width, to_png
from render.common import text as common_text

__all__ = ["BoardLine", "clean", "fit", "fonts", "render_leaderboard", "runs", "text_width", "write"]

Colour = tuple[int, int, int]


def fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    """The longest prefix of ``text`` (plus an ellipsis when cut) that fits in ``width`` pixels."""
    text = clean(text)
    if text_width(draw, text, size) <= width:
        return text
    while text and text_width(draw, text + "…", size) > width:
        text = text[:-1]
    return text + "…"


def write(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour = INK,
          align: str = "left") -> None:
    """Draw ``text`` vertically centred on ``xy[1]``, starting at, centred on or ending at ``xy[0]``."""
    common_text(draw, xy, text, size, fill=fill, anchor={"left": "lm", "centre": "mm", "right": "rm"}[align])


WIDTH = 720
ROW = 32
TOP = 84
SIZE = 18
COLUMNS = {"rank": 20, "name": 80, "rating": 470, "games": 570, "win": 650}


@dataclass(frozen=True)
class BoardLine:
    rank: int | None
    """``None`` for a caller who has not played enough games to be ranked."""
    name: str
    rating: str
    """Already formatted, e.g. ``1532`` or ``1410?`` while provisional."""
    games: int
    win_rate: float
    me: bool = False


def render_leaderboard(title: str, subtitle: str, lines: Sequence[BoardLine], me: BoardLine | None = None,
                       footer: str = "") -> bytes:
    """Top players, then (after a gap) the caller's own line when they are not among them."""
    rows = len(lines) + (2 if me is not None else 0) + (1 if not lines else 0)
    height = TOP + ROW * (rows + 1) + 40
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 6), fill=SEAT_COLOURS[0])
    left = COLUMNS["rank"]
    write(draw, (left, 34), fit(draw, title, 26, WIDTH - 2 * left), 26)
    write(draw, (left, 62), fit(draw, subtitle, 15, WIDTH - 2 * left), 15, MUTED)
    y = TOP
    for key, label in (("rank", "#"), ("name", "Player"), ("rating", "Rating"), ("games", "Games"), ("win", "Win %")):
        write(draw, (COLUMNS[key], y + ROW // 2), label, 14, MUTED)
    draw.line((left, y + ROW - 2, WIDTH - left, y + ROW - 2), fill=MUTED)
    y += ROW
    if not lines:
        write(draw, (COLUMNS["name"], y + ROW // 2), "Nobody has enough rated games yet.", SIZE, MUTED)
        y += ROW
    for index, line in enumerate(lines):
        _line(draw, line, y, shaded=index % 2 == 1)
        y += ROW
    if me is not None:
        write(draw, (WIDTH // 2, y + ROW // 2), "· · ·", SIZE, MUTED, align="centre")
        _line(draw, me, y + ROW, shaded=False)
        y += 2 * ROW
    if footer:
        write(draw, (left, y + 20), fit(draw, footer, 13, WIDTH - 2 * left), 13, MUTED)
    return to_png(image)


def _line(draw: ImageDraw.ImageDraw, line: BoardLine, y: int, *, shaded: bool) -> None:
    if line.me or shaded:
        fill = _tint(HIGHLIGHT) if line.me else (240, 236, 226)
        draw.rectangle((10, y + 1, WIDTH - 10, y + ROW - 2), fill=fill)
    cells = {
        "rank": str(line.rank) if line.rank is not None else "–",
        "name": fit(draw, line.name, SIZE, COLUMNS["rating"] - COLUMNS["name"] - 16),
        "rating": line.rating,
        "games": str(line.games),
        "win": f"{round(100 * line.win_rate)}%",
    }
    for key, text in cells.items():
        write(draw, (COLUMNS[key], y + ROW // 2), text, SIZE)


def _tint(colour: Colour) -> Colour:
    """A pale version of a palette colour, light enough for black text on top."""
    r, g, b = (round(c + (255 - c) * 0.6) for c in colour)
    return r, g, b
