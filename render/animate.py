"""An animated GIF of a game: board images in order, each with its move number, the last held longer.

Small enough for Discord (8 MB) even for 200 moves: frames are scaled to one width, share one
palette (so Pillow can store each frame as only the rectangle that changed), and are not dithered
(dithering noise would make every pixel differ from frame to frame); the palette leaves one index
free for transparency, and every pixel a frame leaves unchanged is stored as transparent, which the
GIF's compression turns into almost nothing.
"""

from __future__ import annotations

import io
from itertools import pairwise

from PIL import Image, ImageChops, ImageDraw

from render.common import PAPER, text

WIDTH = 560
BAND = 30
FRAME_MS = 1000
HOLD_MS = 3000
CLEAR = 255
"""The palette index left free for transparency (the palette has 255 colours)."""


def _board(png: bytes) -> Image.Image:
    """One board scaled to ``WIDTH``, its aspect kept."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    height = max(1, round(board.height * WIDTH / board.width))
    return board.resize((WIDTH, height), Image.Resampling.BILINEAR)


def _frame(board: Image.Image, label: str, height: int) -> Image.Image:
    """The board under a band with its label, on a canvas as tall as the tallest board."""
    frame = Image.new("RGB", (WIDTH, height + BAND), PAPER)
    frame.paste(board, (0, BAND))
    text(ImageDraw.Draw(frame), (8, BAND // 2), label, 17, box=(0, 0, WIDTH, BAND), anchor="lm", bold=True)
    return frame


def animate(pngs: list[bytes], labels: list[str], frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS) -> bytes:
    """The GIF bytes: frame ``k`` shows ``pngs[k]`` labelled ``labels[k]``; it loops forever."""
    if not pngs or len(pngs) != len(labels):
        raise ValueError("one label per frame, and at least one frame")
    decoded: dict[bytes, Image.Image] = {}  # a position shown twice is decoded once
    boards = [decoded.setdefault(png, _board(png)) if png not in decoded else decoded[png] for png in pngs]
    height = max(b.height for b in boards)
    frames = [_frame(board, label, height) for board, label in zip(boards, labels, strict=True)]
    first = frames[0]
    sample = Image.new("RGB", (first.width, first.height * 2))
    sample.paste(frames[0], (0, 0))
    sample.paste(frames[-1], (0, first.height))
    palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    indexed = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    shown = [indexed[0]] + [_changes(before, after) for before, after in pairwise(indexed)]
    durations = [frame_ms] * (len(shown) - 1) + [hold_ms]
    buffer = io.BytesIO()
    shown[0].save(buffer, format="GIF", save_all=True, append_images=shown[1:], duration=durations,
                  loop=0, optimize=False, disposal=1, transparency=CLEAR)
    return buffer.getvalue()


def _changes(before: Image.Image, after: Image.Image) -> Image.Image:
    """``after`` with every pixel equal to ``before`` made transparent: the viewer keeps the old one,
    and long transparent runs cost almost nothing to store."""
    as_grey = [Image.frombytes("L", im.size, im.tobytes()) for im in (before, after)]  # compare indices
    same = ImageChops.difference(*as_grey).point(lambda v: 255 if v == 0 else 0)
    frame = after.copy()
    frame.paste(CLEAR, mask=same)
    return frame
