"""Every drawn text stays inside the image and its panel, and each game keeps one image size.

Random positions of every game (seeded playouts through the engine contract: openings, middles,
finished games, resignations, agreed draws, every player count and variant, names of every kind)
are rendered with the text recorder on.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

import engines
import render
from render.common import recording
from tests.render.positions import positions

PLAYOUTS = 6
SLACK = 1.0  # anti-aliasing may put a fringe pixel on the border


def inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (inner[0] >= outer[0] - SLACK and inner[1] >= outer[1] - SLACK
            and inner[2] <= outer[2] + SLACK and inner[3] <= outer[3] + SLACK)


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_text_stays_inside_its_panel_and_one_size_per_variant(name: str) -> None:
    sizes: dict[str, set[tuple[int, int]]] = {}
    rendered = 0
    for key, obs in positions(name, PLAYOUTS):
        with recording() as drawn:
            png = render.render(obs)
        size = Image.open(io.BytesIO(png)).size
        sizes.setdefault(key, set()).add(size)
        assert drawn, "the recorder saw no text"
        for item in drawn:
            assert item.image == size
            assert inside(item.bbox, (0, 0, *size)), f"{item.text!r} {item.bbox} leaves the {size} image"
            assert inside(item.bbox, item.panel), f"{item.text!r} {item.bbox} leaves its panel {item.panel}"
        rendered += 1
    assert rendered >= 4 * PLAYOUTS
    for key, seen in sizes.items():
        assert len(seen) == 1, f"{name} {key} renders at {sorted(seen)}"


def test_renderers_draw_text_only_through_the_fitting_helper() -> None:
    """A stray ``draw.text`` would escape both the fitting and the recorder."""
    for path in Path(render.__file__).parent.glob("*.py"):
        if path.name == "common.py":
            continue
        assert not re.search(r"\.text\(", path.read_text()), f"{path.name} draws text directly"


def test_rating_chart_shows_every_game_and_its_whole_legend() -> None:
    from render.profile import Series, render_rating_chart

    games = ["Zarathustra", "Zaic", "ZÈRTZ", "Zodiac Chess", "Ziggurat"]
    series = [Series(g, [1500, 1480 + 20 * i, 1530 - 7 * i]) for i, g in enumerate(games)]
    with recording() as drawn:
        png = render_rating_chart("Bartholomew the Magnificent of Upper Wobbleton 🐉 · rating history", series)
    size = Image.open(io.BytesIO(png)).size
    labels = [d.text for d in drawn]
    for i, g in enumerate(games):
        assert f"{g} {1530 - 7 * i}" in labels, f"{g} is missing from the legend: {labels}"
    for item in drawn:
        assert inside(item.bbox, (0, 0, *size)), f"{item.text!r} {item.bbox} leaves the chart"


def test_names_with_emoji_and_cjk_draw_without_placeholder_boxes() -> None:
    """Every character of such names has a real glyph in a shipped font, never the .notdef box."""
    from render.common import fonts, has_glyph

    for name in ("Zoë 🐉🎲", "王小明", "😀 smile", "Ólafur Þórðarson", "🔥"):
        for char in name.replace(" ", ""):
            chain = fonts(18)
            assert any(has_glyph(18, i, char) for i in range(len(chain) - 1)), f"{char!r} of {name!r} has no glyph"
