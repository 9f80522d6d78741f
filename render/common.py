"""Drawing helpers every board renderer shares: fonts, a colour-blind-safe palette, fitted text, PNG output.

All text goes through ``text``: it shrinks (and if need be wraps, then cuts) a string until it fits
the box it belongs to, draws each character with the first shipped font that has it (so names
with accents, CJK or emoji never turn into boxes), and reports what it drew to ``recording()``, so a
test can check that no text leaves its panel in any position.
"""

from __future__ import annotations

import io
import itertools
import math
import struct
import unicodedata
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from zlib_ng import zlib_ng

# Okabe-Ito colours: they stay apart for the common kinds of colour blindness.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
)
INK = (33, 33, 33)
PAPER = (250, 247, 240)
MUTED = (112, 112, 112)
"""Secondary text: the lightest grey that still reads at 4.5:1 on the paper (WCAG AA for small text)."""
HIGHLIGHT = (240, 200, 40)
TEXT_CONTRAST = 4.5
"""At phone width every text on a board is small text, so AA's 4.5:1, not the 3:1 of large text, applies."""

Colour = tuple[int, int, int]


def luminance(colour: Colour) -> float:
    """WCAG relative luminance."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = colour[:3]
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@cache
def text_colour(colour: Colour, background: Colour = PAPER) -> Colour:
    """A seat's colour for text: the same hue darkened just enough to read on ``background``.

    Why: the Okabe-Ito colours are chosen to tell seats apart, not to be read as text; as a title or a label
    vermillion, green and purple reach only 2.9-3.6:1 on the paper.
    """
    for step in range(101):
        shade = tuple(round(v * (1 - step / 100)) for v in colour[:3])
        if contrast(shade, background) >= TEXT_CONTRAST:  # type: ignore[arg-type]
            return shade  # type: ignore[return-value]
    return INK
Box = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONTS = Path(__file__).with_name("fonts")
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
FALLBACKS = (
    *sorted(set(FONTS.glob("*.[ot]t[fc]")) - {REGULAR, BOLD}),  # Droid Sans Fallback (CJK), Symbola (emoji)
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
)


@cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans, shipped in ``render/fonts`` (Bitstream Vera licence): it has accents, Greek and
    Cyrillic, which Pillow's bundled font lacks (ZÈRTZ, Zoë). Pillow's font only if the file is gone."""
    try:
        return ImageFont.truetype(str(BOLD if bold else REGULAR), size)
    except OSError:
        return ImageFont.load_default(size=size)


def fonts(size: int, bold: bool = False) -> tuple[Font, ...]:
    """The fallback chain at one size; Pillow's bundled font is always last, so the chain is never empty."""
    return _chain(size, bold)


@cache
def _chain(size: int, bold: bool) -> tuple[Font, ...]:
    found: list[Font] = [font(size, bold)]
    for path in FALLBACKS:
        try:
            found.append(ImageFont.truetype(str(path), size))
        except OSError:
            continue
    return (*found, ImageFont.load_default(size=size))


def _ink(chosen: Font, size: int, char: str) -> bytes:
    image = Image.new("L", (3 * size, 3 * size))
    ImageDraw.Draw(image).text((size // 2, size // 2), char, font=chosen, fill=255)
    return image.tobytes()


@cache
def has_glyph(size: int, index: int, char: str, bold: bool = False) -> bool:
    """A font lacks a glyph when the character draws exactly like one from the private-use planes."""
    chain = fonts(size, bold)
    return _ink(chain[index], size, char) != _ink(chain[index], size, "\U0010fffd")


def runs(text: str, size: int, bold: bool = False) -> list[tuple[str, Font]]:
    """Split text into pieces that one font can draw; marks and joiners stay with the character before."""
    chain = fonts(size, bold)
    return [(piece, chain[index]) for piece, index in _runs(text, size, bold)]


@lru_cache(maxsize=8192)
def _runs(text: str, size: int, bold: bool) -> tuple[tuple[str, int], ...]:
    """``runs`` as (piece, index in the font chain); cached, since boards draw the same labels every time."""
    chain = fonts(size, bold)
    pieces: list[tuple[str, int]] = []
    for char in text:
        attached = unicodedata.category(char) in ("Mn", "Me", "Cf")
        if attached and pieces:
            pieces[-1] = (pieces[-1][0] + char, pieces[-1][1])
            continue
        index = 0 if char.isascii() else next(
            (i for i in range(len(chain) - 1) if has_glyph(size, i, char, bold)), len(chain) - 1)
        if pieces and pieces[-1][1] == index:
            pieces[-1] = (pieces[-1][0] + char, index)
        else:
            pieces.append((char, index))
    return tuple(pieces)


@lru_cache(maxsize=8192)
def _glyphs(piece: str, size: int, bold: bool, index: int) -> tuple[Image.Image, int, int, int, int, float]:
    """A run drawn once as a mask, with its ink box relative to the start of its baseline and its advance:
    pasting a cached mask is several times faster than laying the text out again."""
    chosen = fonts(size, bold)[index]
    if not isinstance(chosen, ImageFont.FreeTypeFont):  # Pillow's bitmap font: no anchors
        width = int(_advance(piece, size, bold, index))
        mask = Image.new("L", (max(1, width), size))
        ImageDraw.Draw(mask).text((0, 0), piece, font=chosen, fill=255)
        return mask, 0, -size, width, 0, float(width)
    left, top, right, bottom = (int(v) for v in chosen.getbbox(piece, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(mask).text((-left, -top), piece, font=chosen, fill=255, anchor="ls")
    return mask, left, top, right, bottom, _advance(piece, size, bold, index)


def clean(name: str) -> str:
    """Control characters become spaces and unpaired surrogates go: they garble a line or fail to encode."""
    kept = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in name
                   if unicodedata.category(ch) != "Cs")
    return " ".join(kept.split()) or "?"


def text_width(draw: ImageDraw.ImageDraw | None, text: str, size: int, bold: bool = False) -> float:
    """Advance width in pixels (the ``draw`` is not needed: kept for the callers' symmetry)."""
    return _width(text, size, bold)


@lru_cache(maxsize=8192)
def _width(text: str, size: int, bold: bool) -> float:
    return sum(_advance(piece, size, bold, index) for piece, index in _runs(text, size, bold))


@lru_cache(maxsize=8192)
def _advance(piece: str, size: int, bold: bool, index: int) -> float:
    """A run's advance as ``_glyphs`` gives it, without drawing its mask: fitting a long text tries many cuts of
    it, and drawing each one cost about a second for a finished Ziggurat game's outcome line."""
    chosen = fonts(size, bold)[index]
    if not isinstance(chosen, ImageFont.FreeTypeFont):
        return float(int(chosen.getlength(piece)))
    return float(chosen.getlength(piece))


# ----- what was drawn, for tests -----------------------------------------------------------

@dataclass(frozen=True)
class Drawn:
    """One drawn text: its ink box, the panel it had to stay in, the image size and the font size (pixels)."""

    text: str
    bbox: Box
    panel: Box
    image: tuple[int, int]
    size: float = 0.0
    shown: str = ""
    """The text as drawn: wrapped lines joined by spaces, cut with an ellipsis if it did not fit."""

    def shrunk(self, width: int = 400) -> float:
        """The font size once the image is shrunk to ``width`` pixels wide (as a phone shows it)."""
        return self.size * width / self.image[0]


_RECORDER: ContextVar[list[Drawn] | None] = ContextVar("text_recorder", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text the renderers draw inside the ``with`` block (tests use this)."""
    seen: list[Drawn] = []
    token = _RECORDER.set(seen)
    try:
        yield seen
    finally:
        _RECORDER.reset(token)


def record(text: str, bbox: Box, panel: Box, image: tuple[int, int], size: float = 0.0,
           shown: str | None = None) -> None:
    """Note a text drawn another way (e.g. pasted from a cached tile), with the font size it was drawn at."""
    seen = _RECORDER.get()
    if seen is not None:
        seen.append(Drawn(text, tuple(float(v) for v in bbox), tuple(float(v) for v in panel),  # type: ignore[arg-type]
                          image, float(size), text if shown is None else shown))


def note(drawn: Drawn) -> None:
    """Note again a text drawn once into a cached layer, each time the layer is used."""
    seen = _RECORDER.get()
    if seen is not None:
        seen.append(drawn)


# ----- fitted text ---------------------------------------------------------------------------

def _room(xy: tuple[float, float], anchor: str, box: Box) -> float:
    """How wide a text anchored at ``xy`` may be without leaving ``box``."""
    x = xy[0]
    if anchor[0] == "l":
        return box[2] - x
    if anchor[0] == "r":
        return x - box[0]
    return 2 * min(x - box[0], box[2] - x)


def _cut(draw: ImageDraw.ImageDraw | None, text: str, size: int, width: float, bold: bool) -> str:
    """The longest prefix (plus an ellipsis when cut) that fits in ``width`` pixels."""
    if text_width(draw, text, size, bold) <= width:
        return text
    low, high = 0, len(text) - 1  # the longest prefix that fits with its ellipsis, halving: each prefix is a new
    while low < high:  # text to lay out, so shortening a character at a time cost seconds for a long line
        middle = (low + high + 1) // 2
        if text_width(draw, text[:middle] + "…", size, bold) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def _wrap(draw: ImageDraw.ImageDraw | None, text: str, size: int, width: float, bold: bool) -> list[str]:
    """Greedy word wrap; a single word wider than ``width`` stays on its own line."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and text_width(draw, f"{lines[-1]} {word}", size, bold) <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def layout(draw: ImageDraw.ImageDraw | None, text: str, size: int, width: float, height: float, *,
           bold: bool = False, min_size: int = 9, lines: int = 1) -> tuple[int, list[str]]:
    """The largest size (at most ``size``) at which ``text`` fits in ``lines`` lines of ``width`` x ``height``;
    at ``min_size`` the last line is cut with an ellipsis."""
    found_size, rows = _layout(text, size, width, height, bold, min_size, lines)
    return found_size, list(rows)


@lru_cache(maxsize=8192)
def _layout(text: str, size: int, width: float, height: float, bold: bool, min_size: int,
            lines: int) -> tuple[int, tuple[str, ...]]:
    draw = None
    text = "".join(" " if unicodedata.category(ch) == "Cc" else ch for ch in text if unicodedata.category(ch) != "Cs")
    min_size = min(min_size, size)
    for s in range(size, min_size - 1, -1):
        wrapped = [text] if lines == 1 else _wrap(draw, text, s, width, bold)
        fits_wide = all(text_width(draw, line, s, bold) <= width for line in wrapped)
        if len(wrapped) <= lines and fits_wide and line_height(s) * len(wrapped) <= height + 1:
            return s, tuple(wrapped)
    s = min_size
    wrapped = [text] if lines == 1 else _wrap(draw, text, s, width, bold)
    rows = max(1, min(lines, int((height + 1) // line_height(s)) or 1))
    kept = wrapped[:rows]
    if len(wrapped) > rows:
        kept[-1] = kept[-1] + " " + " ".join(wrapped[rows:])
    return s, tuple(_cut(draw, line, s, width, bold) for line in kept)


SHRUNK_WIDTH = 400
"""How wide a phone shows an image in a Discord message (pixels)."""
READABLE = 9
"""The smallest font size (pixels) a text may have once its image is shrunk to ``SHRUNK_WIDTH``."""


def readable(image_width: float) -> int:
    """The smallest font size that stays readable on an image this wide once shrunk to ``SHRUNK_WIDTH``."""
    return math.ceil(READABLE * image_width / SHRUNK_WIDTH - 1e-9)


def line_height(size: int) -> int:
    return round(size * 1.2)


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str | Named, size: int, *,
         box: Box | None = None, fill: Colour | tuple[int, ...] = INK, anchor: str = "la", bold: bool = False,
         min_size: int = 12, lines: int = 1, note: bool = True) -> Box:
    """Draw ``content`` anchored at ``xy`` (Pillow anchors: l/m/r then a/m/s/d) so it stays inside ``box``
    (default: the whole image): shrunk down to ``min_size`` (never below ``readable`` for the image's
    width), wrapped onto up to ``lines`` lines, then cut; a ``Named`` line has its names cut first.
    Returns the ink box; ``note=False`` keeps it from the recorder. Characters DejaVu lacks come from the
    shipped fallback fonts."""
    image_size = draw.im.size
    if note:  # never smaller than readable at phone width (a cached tile is noted, and checked, where pasted)
        floor = readable(image_size[0])
        size, min_size = max(size, floor), max(min_size, floor)
    panel: Box = box if box is not None else (0, 0, image_size[0], image_size[1])
    horizontal, vertical = anchor[0], anchor[1]
    if vertical == "a":
        height = panel[3] - xy[1]
    elif vertical in "sd":
        height = xy[1] - panel[1]
    else:
        height = 2 * min(xy[1] - panel[1], panel[3] - xy[1])
    width = _room(xy, anchor, panel)
    if isinstance(content, Named):  # its names cut to fit at the smallest size allowed, never its other words
        fitted = content.fit(width * lines, min(min_size, size), bold=bold)
        content = content.filled()
    else:
        fitted = content
    size, rows = layout(draw, fitted, size, width, height, bold=bold, min_size=min_size, lines=lines)
    step = line_height(size)
    primary = fonts(size, bold)[0]
    ascent, descent = primary.getmetrics() if isinstance(primary, ImageFont.FreeTypeFont) else (size, 0)
    block = step * (len(rows) - 1)
    if vertical == "a":
        first = xy[1] + ascent
    elif vertical == "m":
        first = xy[1] + (ascent - descent) / 2 - block / 2
    elif vertical == "d":
        first = xy[1] - descent - block
    else:
        first = xy[1] - block
    ink: list[float] = [float("inf"), float("inf"), float("-inf"), float("-inf")]
    for k, row in enumerate(rows):
        row_width = text_width(draw, row, size, bold)
        x = xy[0] - {"l": 0.0, "m": row_width / 2, "r": row_width}[horizontal]
        baseline = first + k * step
        for piece, index in _runs(row, size, bold):
            mask, left, top, right, bottom, advance = _glyphs(piece, size, bold, index)
            ox, oy = round(x) + left, round(baseline) + top
            if right > left:
                draw.bitmap((ox, oy), mask, fill=fill)
                ink = [min(ink[0], ox), min(ink[1], oy), max(ink[2], ox + right - left), max(ink[3], oy + bottom - top)]
            x += advance
    bbox: Box = (ink[0], ink[1], ink[2], ink[3]) if ink[0] != float("inf") else (xy[0], xy[1], xy[0], xy[1])
    if note:  # a cached tile notes its text where it is pasted instead
        record(content, bbox, panel, image_size, size, " ".join(rows))
    return bbox


def draw_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], content: str, size: int,
                  fill: Colour | tuple[int, ...] = INK, box: Box | None = None, bold: bool = False) -> Box:
    return text(draw, xy, content, size, box=box, fill=fill, anchor="mm", bold=bold)


NAME_CHARS = 18
"""Longer display names are cut, so a title keeps a readable size instead of shrinking for one name."""


def cut_name(name: str, chars: int) -> str:
    """``name`` (cleaned) in at most ``chars`` characters, the last an ellipsis when it is cut: one ellipsis only."""
    name = clean(name)
    return name if len(name) <= chars else name[: max(1, chars - 1)].rstrip() + "…"


@dataclass(frozen=True)
class Named:
    """A line with player names in it, the names kept apart until the line is drawn, so that ``text`` cuts the
    names to fit, never the words around them (``fit``). Built with ``+`` from strings and other ``Named``.

    ``parts`` are the literal pieces around the names: ``len(parts) == len(names) + 1``."""

    parts: tuple[str, ...] = ("",)
    names: tuple[str, ...] = ()

    @classmethod
    def of(cls, name: str) -> Named:
        return cls(("", ""), (name,))

    def __add__(self, other: Named | str) -> Named:
        other = other if isinstance(other, Named) else Named((other,))
        middle = self.parts[-1] + other.parts[0]
        return Named((*self.parts[:-1], middle, *other.parts[1:]), self.names + other.names)

    def __radd__(self, other: str) -> Named:
        return Named((other,)) + self

    @classmethod
    def join(cls, separator: str, items: Sequence[Named | str]) -> Named:
        out = cls()
        for k, item in enumerate(items):
            out = out + (separator if k else "") + item
        return out

    def filled(self, chars: int = NAME_CHARS) -> str:
        """The line with every name cut to ``chars`` characters at most (one ellipsis)."""
        out = self.parts[0]
        for name, part in zip(self.names, self.parts[1:], strict=True):
            out += cut_name(name, chars) + part
        return out

    def fit(self, width: float, size: int, *, bold: bool = False, chars: int = NAME_CHARS) -> str:
        """The line at most ``width`` pixels wide at ``size``, its names cut as little as that allows.

        Why: cutting the whole line at its end lost the colour word and the verb (``Zoë (Li…``), and a name
        already cut to ``NAME_CHARS`` got a second ellipsis. Every name is cut to the same length, the longest
        that fits; never below two characters (then the line is as short as it gets and ``text`` cuts the rest).
        """
        longest = min(chars, max((len(clean(n)) for n in self.names), default=0))
        if text_width(None, self.filled(longest), size, bold) <= width:
            return self.filled(longest)
        low, high = 2, longest  # the longest cut that fits: halving, as ``_cut`` does
        while low < high:
            middle = (low + high + 1) // 2
            if text_width(None, self.filled(middle), size, bold) <= width:
                low = middle
            else:
                high = middle - 1
        return self.filled(low)


def seat_named(obs: dict[str, Any], seat: int) -> Named | str:
    """``seat_label`` with the name kept apart, for ``text`` to cut the name and never the colour."""
    colour = obs["seat_names"][seat]
    names = obs.get("player_names") or []
    name = names[seat] if seat < len(names) else None
    return Named.of(name) + f" ({colour})" if name else colour


def seat_label(obs: dict[str, Any], seat: int) -> str:
    """A seat as players know it: the display name with the seat's colour, or the colour alone."""
    named = seat_named(obs, seat)
    return named.filled() if isinstance(named, Named) else named


@dataclass(frozen=True)
class Hotspot:
    """Where a board target lies in a rendered PNG, in its pixel coordinates: what a click on the image hits.

    ``shape`` is ``rect`` (``points`` = x0, y0, x1, y1), ``circle`` (cx, cy, r) or ``polygon``
    (x0, y0, x1, y1, …). The same hotspots make the board clickable in a web view, so they are plain data.
    """

    shape: str
    points: tuple[float, ...]

    def bbox(self) -> Box:
        if self.shape == "circle":
            cx, cy, r = self.points
            return (cx - r, cy - r, cx + r, cy + r)
        xs, ys = self.points[0::2], self.points[1::2]
        return (min(xs), min(ys), max(xs), max(ys))

    def mask(self, size: tuple[int, int]) -> Image.Image:
        """The hotspot as a 1-bit image of ``size``: for tests and for clicks mapped pixel by pixel."""
        image = Image.new("1", size, 0)
        draw = ImageDraw.Draw(image)
        if self.shape == "circle":
            draw.ellipse(self.bbox(), fill=1)
        elif self.shape == "rect":
            draw.rectangle(self.bbox(), fill=1)
        else:
            draw.polygon(list(self.points), fill=1)
        return image

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "points": [round(p, 1) for p in self.points]}


def highlights(obs: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The targets a move builder marks on this image: (picked so far, offered for the next pick).

    The host puts them in the observation as ``highlights: {"picked": [...], "offered": [...]}``; a
    renderer draws each mark inside that target's hotspot only.
    """
    marks = obs.get("highlights") or {}
    return set(marks.get("picked") or ()), set(marks.get("offered") or ())


PICKED = (20, 20, 20)
"""A target already picked: near-black dashes on a white band (``pick_frame``).

Why not a colour: the pick was the last-move yellow, so a player's own half-built move looked like the
opponent's last one; and every colour with room between the yellow, the offered green and the four seat
colours falls onto one of them in some colour vision (blue and magenta merge for tritanopes). Black and
white stay apart from all of them in every kind, and the dashes from every solid outline on a board (a white
marble's dark rim, a piece's outline), and show on a black piece too."""
PICKED_RIM = (255, 255, 255)
OFFERED = (40, 180, 90)
"""A target the next pick may choose: green, apart from the seat colours and the highlight yellow."""


def pick_frame(draw: ImageDraw.ImageDraw, box: Box, width: int, *, ellipse: bool = False, radius: int = 0) -> None:
    """The picked mark just inside ``box``: a white band ``width + 4`` wide with near-black dashes ``width`` wide
    along its middle, like a selection. Nothing is filled, so what lies under it keeps its colours and contrast."""
    x0, y0, x1, y1 = box
    band = width + 4
    dash, gap = 3 * width, 2 * width
    if ellipse:
        draw.ellipse(box, outline=PICKED_RIM, width=band)
        around = math.pi * ((x1 - x0) + (y1 - y0)) / 2
        count = max(6, round(around / (dash + gap)))
        step = 360 / count
        for k in range(count):
            start = k * step
            draw.arc((x0 + 2, y0 + 2, x1 - 2, y1 - 2), start, start + step * dash / (dash + gap), fill=PICKED,
                     width=width)
        return
    draw.rounded_rectangle(box, radius=radius, outline=PICKED_RIM, width=band)
    half = band / 2  # the dashes run along the band's middle line, twice round so a dash may cross the start
    corners = [(x0 + half, y0 + half), (x1 - half, y0 + half), (x1 - half, y1 - half), (x0 + half, y1 - half)]
    path = [*corners, *corners, corners[0]]
    reach = [0.0]
    for a, b in itertools.pairwise(path):
        reach.append(reach[-1] + math.dist(a, b))
    total = reach[4]
    count = max(4, round(total / (dash + gap)))
    period = total / count
    inner = dash / (dash + gap) * period

    def point(t: float) -> tuple[float, float]:
        i = max(k for k in range(len(path) - 1) if reach[k] <= t)
        f = (t - reach[i]) / (reach[i + 1] - reach[i]) if reach[i + 1] > reach[i] else 0.0
        return path[i][0] + (path[i + 1][0] - path[i][0]) * f, path[i][1] + (path[i + 1][1] - path[i][1]) * f

    for k in range(count):
        t0 = (k * period - inner / 2) % total  # the first dash turns the first corner
        t1 = t0 + inner
        bends = [path[i] for i in range(len(path)) if t0 < reach[i] < t1]
        draw.line([point(t0), *bends, point(t1)], fill=PICKED, width=width, joint="curve")


PNG_LEVEL = 3
"""zlib level of a board's PNG: with unfiltered rows it is both the fastest and about Pillow's size."""
PNG_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4)}
"""Pillow mode -> (PNG colour type, bytes per pixel)."""


def to_png(image: Image.Image) -> bytes:
    """Encode for Discord: the same pixels as Pillow's PNG at level 3, in about a third of its CPU or less.

    Pillow chooses a filter for every row by trying four of them; on our boards (flat colours, anti-aliased
    edges) unfiltered rows at zlib level 3 come out as small (bench/bench_png.py), and zlib-ng deflates
    them about twice as fast as the standard library's zlib. Lossless: the decoded image is the same,
    pixel for pixel."""
    kind = PNG_COLOUR_TYPES.get(image.mode)
    if kind is None:  # a mode no board uses: Pillow's own encoder
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=PNG_LEVEL)
        return buffer.getvalue()
    colour_type, depth = kind
    width, height = image.size
    # Pillow's raw encoder pads every row to the stride with a zero byte at its end; one zero more in front
    # (and the last one dropped) makes that the zero filter byte PNG wants before each row: no Python loop.
    padded = memoryview(image.tobytes("raw", image.mode, width * depth + 1))
    deflate = zlib_ng.compressobj(PNG_LEVEL)
    data = deflate.compress(b"\x00") + deflate.compress(padded[:-1]) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"IDAT", data), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
