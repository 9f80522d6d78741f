"""Text in a seat's colour reads on the paper at phone width (WCAG AA, 4.5:1), in that seat's hue."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engines
from render import zarathustra, ziggurat, zrtz
from render.common import MUTED, PAPER, SEAT_COLOURS, TEXT_CONTRAST, contrast, text_colour


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
