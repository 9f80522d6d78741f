"""The review chart (render/review.py): every text inside its box and readable at phone width, marks drawn."""

from __future__ import annotations

import io

from PIL import Image

from render import common
from render.review import MARK_COLOURS, Point, chart


def test_the_chart_draws_each_seat_and_each_mark_readably() -> None:
    lines = [[Point(1, 0.5), Point(3, 0.6, "blunder")], [Point(2, 0.5, "mistake"), Point(4, 0.4)]]
    with common.recording() as drawn:
        png = chart(lines, ["A very long display name indeed", "🤖 AI (hard)"], "Zaic #3: review", 4)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20)}
    for colour in (*common.SEAT_COLOURS[:2], *MARK_COLOURS.values()):
        assert colour in colours
    floor = common.readable(image.width)
    for item in drawn:
        assert item.size >= floor
        assert item.bbox[0] >= item.panel[0] - 1 and item.bbox[2] <= item.panel[2] + 1
