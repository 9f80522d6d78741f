"""The review chart (render/review.py): every text inside its box and readable at phone width, marks drawn in
the colour of the seat that made them, the legend readable with four long names."""

from __future__ import annotations

import io

from PIL import Image

from render import common
from render.common import Named
from render.review import Point, chart, place

REVIEWED = ["ＡＢＣＤ王様のプレイヤー名前がとても長い人です🎲🎲", "Maximilian_the_Extraordinary_XYZ",
            "🐉🔥 Dragon 龍 Slayer 🔥🐉 ✨✨✨✨✨", "zz"]
SIDES = ["Blue", "Orange", "Green", "Purple"]


def test_the_chart_draws_each_seat_and_each_mark_readably() -> None:
    lines = [[Point(1, 0.5), Point(3, 0.6, "blunder")], [Point(2, 0.5, "mistake"), Point(4, 0.4)]]
    with common.recording() as drawn:
        png = chart(lines, ["A very long display name indeed", "🤖 AI (hard)"], "Zaic #3: review", 4)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20)}
    for colour in common.SEAT_COLOURS[:2]:
        assert colour in colours
    floor = common.readable(image.width)
    for item in drawn:
        assert item.size >= floor
        assert item.bbox[0] >= item.panel[0] - 1 and item.bbox[2] <= item.panel[2] + 1


def test_four_long_names_keep_their_sides_and_the_key_its_words_and_each_mark_its_seat_s_colour() -> None:
    """One legend row for four seats and both marks cut every entry to "Blue (A…" and "mis…"/"blu…", and a
    blunder was a red dot whoever made it."""
    lines = [[Point(0, 0.5), Point(1 + seat, 0.2 + 0.2 * seat, "blunder"), Point(5 + seat, 0.9, "mistake")]
             for seat in range(4)]
    legend = [f"{side} (" + Named.of(name) + ")" for side, name in zip(SIDES, REVIEWED, strict=True)]
    with common.recording() as drawn:
        png = chart(lines, legend, "Ziggurat #12345: evaluation by the Strong level", 8, unit="turn")
    image = Image.open(io.BytesIO(png)).convert("RGB")
    shown = [d.shown for d in drawn]
    for side, name in zip(SIDES, REVIEWED, strict=True):
        entry = next(s for s in shown if s.startswith(f"{side} ("))
        assert entry.endswith(")") and entry.count("…") <= 1, entry
        assert entry[len(side) + 2:len(side) + 4] == name[:2], entry  # the name's start, not only an ellipsis
    assert "mistake" in shown and "blunder" in shown, shown
    for seat, points in enumerate(lines):
        x, y = place(points[1], 8, 4)
        assert image.getpixel((round(x), round(y))) == common.SEAT_COLOURS[seat], f"seat {seat}'s blunder"
        x, y = place(points[2], 8, 4)
        assert image.getpixel((round(x) - 6, round(y))) == common.SEAT_COLOURS[seat], f"seat {seat}'s mistake"
        assert image.getpixel((round(x), round(y))) == common.PAPER  # hollow: the paper shows through
    for item in drawn:
        assert item.shrunk(400) >= 9
