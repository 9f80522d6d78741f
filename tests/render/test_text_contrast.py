"""Text in a seat's colour reads on the paper at phone width (WCAG AA, 4.5:1), in that seat's hue."""

from __future__ import annotations

import io
import math
import random
import re
from pathlib import Path

import pytest
from PIL import Image

import engines
from render import zarathustra, ziggurat, zrtz
from render.common import (
    HIGHLIGHT,
    MUTED,
    OFFERED,
    PAPER,
    PICKED,
    SEAT_COLOURS,
    TEXT_CONTRAST,
    contrast,
    text_colour,
)


def played_until(name: str, players: int, seat: int, seed: int) -> engines.Game:
    """A random game of ``name`` at a position where ``seat`` is to move, after a few moves."""
    game = engines.get(name).new(players, {})
    rng = random.Random(seed)
    for ply in range(200):
        movers = game.to_move()
        if ply >= 6 and movers == {seat}:
            return game
        mover = min(movers)
        game.play(mover, rng.choice(game.legal_moves(mover)))
    raise AssertionError("the seat never came to move")


def strongest_ink(png: bytes, box: tuple[int, int, int, int]) -> float:
    """The highest contrast against the paper of any pixel in ``box``: a glyph's solid core is its fill."""
    image = Image.open(io.BytesIO(png)).convert("RGB").crop(box)
    return max(contrast(pixel, PAPER) for _, pixel in image.getcolors(maxcolors=1 << 20))


@pytest.mark.parametrize("colour", SEAT_COLOURS)
def test_a_seat_colour_for_text_reads_on_the_paper_and_keeps_its_hue(colour: tuple[int, int, int]) -> None:
    shade = text_colour(colour)
    assert contrast(shade, PAPER) >= TEXT_CONTRAST
    assert contrast(shade, PAPER) < TEXT_CONTRAST + 0.5  # darkened no more than needed
    ratios = [v / max(colour) for v in colour]
    assert [round(v / max(shade), 1) for v in shade] == [round(r, 1) for r in ratios]


def test_secondary_text_reads_on_the_paper() -> None:
    assert contrast(MUTED, PAPER) >= TEXT_CONTRAST


@pytest.mark.parametrize("seat", range(4))
def test_the_zarathustra_title_in_the_movers_colour_reads(seat: int) -> None:
    game = played_until("zarathustra", 4, seat, seed=seat)
    png = zarathustra.render(game.observation(None))
    assert strongest_ink(png, (zarathustra.MARGIN, 4, 400, 38)) >= TEXT_CONTRAST


@pytest.mark.parametrize("seat", range(2))
def test_the_zertz_title_in_the_movers_colour_reads(seat: int) -> None:
    game = played_until("zrtz", 2, seat, seed=seat)
    png = zrtz.render(game.observation(None))
    assert strongest_ink(png, (zrtz.PANEL_X + 10, 10, zrtz.PANEL_X + 250, 54)) >= TEXT_CONTRAST


def test_the_ziggurat_start_labels_in_their_colours_read() -> None:
    """"start 3" beside each Start Station, in its colour (Purple's, bottom right, was 2.9:1)."""
    png = ziggurat.render(engines.get("ziggurat").new(4, {}).observation(None))
    assert strongest_ink(png, (600, 910, 675, 940)) >= TEXT_CONTRAST  # Purple's, left of its station
    assert strongest_ink(png, (200, 140, 275, 165)) >= TEXT_CONTRAST  # Orange's, right of its station


# Colour-vision deficiency by Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
CVD = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear(colour: tuple[int, int, int]) -> list[float]:
    return [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in colour]


def seen_as(colour: tuple[int, int, int], vision: str) -> tuple[int, int, int]:
    """The colour as a dichromat sees it, back in sRGB."""
    rgb = linear(colour)
    out = []
    for row in CVD[vision]:
        c = min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb, strict=True))))
        out.append(round(255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)))
    return out[0], out[1], out[2]


def lab(colour: tuple[int, int, int]) -> tuple[float, float, float]:
    r, g, b = linear(colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def apart(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The smallest CIE76 colour difference of ``a`` and ``b`` in normal vision and in each dichromacy."""
    return min([math.dist(lab(a), lab(b))] + [math.dist(lab(seen_as(a, v)), lab(seen_as(b, v))) for v in CVD])


@pytest.mark.parametrize("other", [HIGHLIGHT, OFFERED, *SEAT_COLOURS])
def test_the_pick_differs_from_the_last_move_the_offer_and_every_seat_in_every_colour_vision(
        other: tuple[int, int, int]) -> None:
    """The move builder's pick was the last move's yellow: a half-built move looked like the opponent's last one.
    A difference of 40 (CIE76) is unmistakable side by side; 2.3 is the least the eye tells apart."""
    assert apart(PICKED, other) >= 40, f"{PICKED} and {other}: {apart(PICKED, other):.0f}"


def test_the_web_board_marks_a_pick_as_the_images_do_not_in_the_last_move_yellow() -> None:
    """The web page's overlay drew a pick in #face39, the images' last-move yellow all but exactly."""
    css = (Path(__file__).parents[2] / "web" / "static" / "board.css").read_text()
    rule = re.search(r"\.spot\.picked\s*\{([^}]*)\}", css)
    assert rule is not None
    stroke = re.search(r"stroke:\s*#([0-9a-fA-F]{6})", rule.group(1))
    assert stroke is not None, rule.group(1)
    colour = tuple(int(stroke.group(1)[i:i + 2], 16) for i in (0, 2, 4))
    assert apart(colour, PICKED) < 5 and "stroke-dasharray" in rule.group(1)  # type: ignore[arg-type]
