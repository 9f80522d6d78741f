"""Every drawn text stays inside the image and its panel, and each game keeps one image size.

Random positions of every game (seeded playouts through the engine contract: openings, middles,
finished games, resignations, agreed draws, every player count and variant, names of every kind)
are rendered with the text recorder on.
"""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image

import engines
import render
from render import ziggurat
from render.common import Drawn, recording
from tests.render.positions import positions, step

PLAYOUTS = 6
SLACK = 1.5  # anti-aliasing may put a fringe pixel on the border


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - SLACK and b[0] < a[2] - SLACK and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK


def inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    return (inner[0] >= outer[0] - SLACK and inner[1] >= outer[1] - SLACK
            and inner[2] <= outer[2] + SLACK and inner[3] <= outer[3] + SLACK)


def check(obs: dict) -> tuple[list[Drawn], tuple[int, int]]:
    """Render with the recorder on; every text inside the image and its panel, and no two overlapping."""
    with recording() as drawn:
        png = render.render(obs)
    size = Image.open(io.BytesIO(png)).size
    assert drawn, "the recorder saw no text"
    for item in drawn:
        assert item.image == size
        assert inside(item.bbox, (0, 0, *size)), f"{item.text!r} {item.bbox} leaves the {size} image"
        assert inside(item.bbox, item.panel), f"{item.text!r} {item.bbox} leaves its panel {item.panel}"
    for i, first in enumerate(drawn):  # e.g. a shared win's title running into its reason
        for second in drawn[i + 1:]:
            assert not overlap(first.bbox, second.bbox), f"{first.text!r} overlaps {second.text!r}"
    return drawn, size


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_text_stays_inside_its_panel_and_one_size_per_variant(name: str) -> None:
    sizes: dict[str, set[tuple[int, int]]] = {}
    rendered = 0
    for key, obs in positions(name, PLAYOUTS):
        _, size = check(obs)
        sizes.setdefault(key, set()).add(size)
        rendered += 1
    assert rendered >= 4 * PLAYOUTS
    for key, seen in sizes.items():
        assert len(seen) == 1, f"{name} {key} renders at {sorted(seen)}"


def finished(name: str, players: int, options: dict | None = None) -> dict:
    rng = random.Random(name)
    game = engines.get(name).new(players, options or {})
    while game.outcome() is None:
        step(game, rng)
    return game.observation(None)


LONG = "Bartholomew the Magnificent of Upper Wobbleton 🐉"


def test_the_cases_players_reported() -> None:
    # Zarathustra: a shared win's title and its reason (the general check forbids any overlap).
    obs = finished("zarathustra", 4)
    obs["outcome"] = {**obs["outcome"], "winners": [0, 1, 2], "reason": "every tile has been played: " + "tie " * 20}
    obs["player_names"] = [LONG] * 4
    drawn, _ = check(obs)
    assert any("share the win" in d.text for d in drawn)
    # ZÈRTZ: "<name> (<colour>)" over each player's captures stays in its tab.
    game = engines.get("zrtz").new(2, {})
    obs = game.observation(None) | {"player_names": [LONG, LONG]}
    drawn, _ = check(obs)
    assert sum(d.text.endswith("(Blue)") or d.text.endswith("(Orange)") for d in drawn) >= 2
    # ZÈRTZ: the win stays readable in full with long names (the name is in its tab below).
    obs = finished("zrtz", 2) | {"player_names": [LONG, LONG]}
    drawn, _ = check(obs)
    head = next(d for d in drawn if d.text.endswith(" wins") or d.text == "Draw")
    assert head.shrunk(400) >= 9 and "…" not in head.shown
    # Zaic: a long subtitle wraps or shrinks inside the header instead of running off the image.
    obs = finished("zaic", 2)
    obs["outcome"] = {**obs["outcome"], "reason": "Dark cannot place a tile; " + "a very long reason " * 8}
    check(obs)
    # Ziggurat: no coordinate letter under a start station, with every colour in play.
    game = engines.get("ziggurat").new(4, {})
    obs = game.observation(None)
    drawn, _ = check(obs)
    stations = [ziggurat.station_box(*e["station"]) for e in obs["layout"] if e["in_play"]]
    for item in drawn:
        if len(item.text) == 1 and item.text in "abcdefgh12345678":
            assert not any(overlap(item.bbox, box) for box in stations), f"{item.text!r} under a station"


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
        assert item.shrunk(400) >= 9, f"{item.text!r} is {item.shrunk(400):.1f} px high at 400 px wide"


def test_identical_lines_in_the_rating_chart_do_not_hide_each_other() -> None:
    from render.profile import LINE_COLOURS, Series, render_rating_chart

    def seen(png: bytes, colour: tuple[int, int, int]) -> int:
        image = Image.open(io.BytesIO(png)).convert("RGB")
        plot = image.crop((56, 48, image.width - 16, image.height - 64)).tobytes()
        return sum(1 for k in range(0, len(plot), 3) if tuple(plot[k:k + 3]) == colour)

    ratings = [1500, 1516, 1530, 1522, 1540, 1551]
    alone = seen(render_rating_chart("x", [Series("Zaic", ratings)]), LINE_COLOURS[0])
    both = render_rating_chart("x", [Series("Zaic", ratings), Series("ZÈRTZ", ratings)])
    assert seen(both, LINE_COLOURS[0]) > alone / 3, "the first line is hidden under the second"
    assert seen(both, LINE_COLOURS[1]) > alone / 3


def test_names_with_emoji_and_cjk_draw_without_placeholder_boxes() -> None:
    """Every character of such names has a real glyph in a shipped font, never the .notdef box."""
    from render.common import fonts, has_glyph

    for name in ("Zoë 🐉🎲", "王小明", "😀 smile", "Ólafur Þórðarson", "🔥"):
        for char in name.replace(" ", ""):
            chain = fonts(18)
            assert any(has_glyph(18, i, char) for i in range(len(chain) - 1)), f"{char!r} of {name!r} has no glyph"


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_text_reads_at_least_9_px_high_at_400_px_wide(name: str) -> None:
    """A phone shows a board about 400 px wide: every text's font, scaled to that width, is at least 9 px."""
    for _, obs in positions(name, PLAYOUTS):
        with recording() as drawn:
            render.render(obs)
        for item in drawn:
            assert item.size > 0, f"{item.text!r} was noted without its font size"
            assert item.shrunk(400) >= 9, f"{item.text!r} is {item.shrunk(400):.1f} px high at 400 px wide"


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_board_names_every_player(name: str) -> None:
    """Not only the player to move: each seat's name (an AI's as the host passes it) is on every board."""
    for _, obs in positions(name, PLAYOUTS):
        names = ["Ann", "🤖 AI (hard)", "Cyd", "Dee"][: obs["players"]]
        with recording() as drawn:
            render.render(obs | {"player_names": names})
        texts = " | ".join(d.shown for d in drawn)  # as drawn: a name cut to an ellipsis does not count
        for seat, player in enumerate(names):
            assert player in texts, f"seat {seat} ({player}) is not named: {texts}"


def test_ziggurat_partners_shows_the_teams() -> None:
    game = engines.get("ziggurat").new(4, {"mode": "partners"})
    obs = game.observation(None) | {"player_names": ["Ann", "Bob", "Cyd", "Dee"]}
    with recording() as drawn:
        render.render(obs)
    assert "Teams: Blue Ann & Green Cyd vs Orange Bob & Purple Dee" in [d.shown for d in drawn]


def test_event_and_rating_images_read_at_400_px_and_keep_the_bracket_scores_whole() -> None:
    from render.events import render_bracket, render_crosstable
    from render.standings import render_standings
    from tests.render import test_events, test_ratings_images, test_standings

    pictures = {
        "standings": lambda: render_standings(test_standings.table(12, final=True)),
        "crosstable": lambda: render_crosstable(test_events.cross(16)),
        "bracket": lambda: render_bracket(test_events.bracket(16)),
        "leaderboard": lambda: test_ratings_images.board(["Ann", LONG, "王小明"]),
    }
    for what, draw in pictures.items():
        with recording() as drawn:
            draw()
        assert drawn, what
        for item in drawn:
            assert item.shrunk(400) >= 9, f"{what}: {item.text!r} is {item.shrunk(400):.1f} px high at 400 px wide"
        if what == "bracket":
            assert sum(d.shown == "1½" for d in drawn) == 8, "a winner's score is cut to an ellipsis"


def test_ziggurat_names_all_four_seats_even_when_every_name_is_long() -> None:
    game = engines.get("ziggurat").new(4, {"mode": "partners"})
    names = [LONG, "Ólafur Ragnar Grímsson", "王小明王小明王小明", "🤖 AI (hard)"]
    obs = game.observation(None) | {"player_names": names}
    with recording() as drawn:
        render.render(obs)
    line = next(d.shown for d in drawn if " vs " in d.text)
    assert line.count("&") == 2 and line.endswith("& Purple 🤖 AI (hard)") and line.startswith("Blue Barth"), line


def test_fitting_a_long_text_measures_it_without_drawing_it() -> None:
    """Cutting a long line to its room tries dozens of prefixes: each is measured by its advance, and only the
    line finally shown is drawn (drawing every try made a finished Ziggurat game's board cost about a second)."""
    from render import common

    text = "a long outcome line, " * 12 + str(random.random())  # never laid out before
    drawn = common._glyphs.cache_info().misses
    size, rows = common.layout(None, text, 24, 300, 40)
    assert rows[0].endswith("…") and common.text_width(None, rows[0], size) <= 300
    assert common._glyphs.cache_info().misses == drawn


REVIEWED = ["ＡＢＣＤ王様のプレイヤー名前がとても長い人です🎲🎲", "Maximilian_the_Extraordinary_XYZ",
            "🐉🔥 Dragon 龍 Slayer 🔥🐉 ✨✨✨✨✨", LONG]
COLOUR_WORD = re.compile(r" \((?:Blue|Orange|Green|Purple|Light|Dark)(?: & (?:Blue|Orange|Green|Purple))?\)")


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_a_long_name_is_cut_never_its_colour_word_or_what_follows_and_with_one_ellipsis(name: str) -> None:
    """A reviewer saw "…とて… (Lig…" (Zaic), a Zodiac "lost" line without "(Light) lost:", ZÈRTZ tabs without
    their colour and a name ending "Ex……": when a name must be cut, the name is cut, nothing after it."""
    checked = 0
    for _, obs in positions(name, PLAYOUTS):
        names = REVIEWED[: obs["players"]]
        with recording() as drawn:
            render.render(obs | {"player_names": names})
        for item in drawn:
            assert "……" not in item.shown, f"{item.shown!r}: a name cut twice"
            words = list(COLOUR_WORD.finditer(item.text))
            if not words:
                continue
            tail = item.text[words[-1].start():]  # the last colour word and everything after it
            assert item.shown.endswith(tail), f"{item.text!r} was drawn as {item.shown!r}"
            assert all(w.group() in item.shown for w in words), f"{item.text!r} was drawn as {item.shown!r}"
            checked += 1
    assert checked, "no line named a player with a colour: the test checks nothing"
