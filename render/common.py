"""Drawing helpers every board renderer shares: fonts, a colour-blind-safe palette, PNG output."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Okabe-Ito colours: they stay apart for the common kinds of colour blindness.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
)
INK = (33, 33, 33)
PAPER = (250, 247, 240)
MUTED = (120, 120, 120)
HIGHLIGHT = (240, 200, 40)


FONTS = Path(__file__).with_name("fonts")
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """DejaVu Sans, shipped in ``render/fonts`` (Bitstream Vera licence): it has accents, Greek and
    Cyrillic, which Pillow's bundled font lacks (ZÈRTZ, Zoë). Pillow's font only if the file is gone."""
    try:
        return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return int(right - left), int(bottom - top)


def draw_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
                  fill: tuple[int, int, int] = INK) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm")


def to_png(image: Image.Image) -> bytes:
    """Encode for Discord; a fast compression level keeps render time low."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
