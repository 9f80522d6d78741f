"""Leaderboard and rating-chart images: any name a user can choose renders, and text stays inside its column."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render import leaderboard
from render.leaderboard import BoardLine, clean, fit, render_leaderboard, runs, text_width
from render.profile import Series, render_rating_chart

NAMES = ["Zoë Ångström", "山田太郎", "🎲 Dice Queen 👑", "👩‍👩‍👧 family", "محمد", "Σοφία", "Nguyễn Văn A",
         "김민준", "e\u0301\u0301\u0301", "\u200b", "tab\tnew\nline\x00", "x" * 300, "\ud800 lone surrogate", ""]


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


def board(names: list[str], me: BoardLine | None = None) -> Image.Image:
    lines = [BoardLine(i + 1, name, f"{1700 - 10 * i}{'?' if i > 10 else ''}", 30 - i, 0.5) for i, name in
             enumerate(names)]
    return png(render_leaderboard("ZÈRTZ · サーバー 🎲", "All-time", lines, me, footer="5 games to appear"))


def test_every_kind_of_name_renders_on_the_leaderboard() -> None:
    me = BoardLine(None, "新人 🐣", "1100?", 3, 0.0, me=True)
    full = board(NAMES, me)
    assert full.width == leaderboard.WIDTH
    assert full.height > board(NAMES[:3]).height > board([]).height


def test_names_are_actually_drawn() -> None:
    assert board(["Zoë"]).tobytes() != board(["Zoe"]).tobytes()
    assert board(["山田"]).tobytes() != board(["Yamada"]).tobytes()


def test_long_names_are_cut_to_their_column() -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    cut = fit(draw, "🎲" + "山" * 200, 18, 300)
    assert cut.endswith("…") and text_width(draw, cut, 18) <= 300
    assert fit(draw, "Renée", 18, 300) == "Renée"


def test_control_characters_become_spaces() -> None:
    assert clean("tab\tnew\nline\x00") == "tab new line"
    assert clean("\ud800x") == "x" and clean("") == "?"


def test_each_character_gets_the_first_font_that_has_it() -> None:
    chain = leaderboard.fonts(18)
    assert runs("Ab", 18) == [("Ab", chain[0])]
    nowhere = "\U0010fffe"  # private use: no font has it, so the last (Pillow's bundled) font draws a box
    assert runs(nowhere, 18)[-1][1] is chain[-1]
    combined = runs("e\u0301", 18)
    assert len(combined) == 1 and combined[0][0] == "e\u0301"


def test_the_rating_chart_draws_any_number_of_lines() -> None:
    many = [Series("ZÈRTZ", [900 + 7 * i for i in range(60)]), Series("Zodiac 🎲", [1200, 1180]),
            Series("Ziggurat 山", [1000]), Series("Zaic", [1500, 1500, 1500]), Series("fifth is left out", [1])]
    images = [png(render_rating_chart(title, series)) for title, series in (
        ("Zoë 山田 👑", many), ("one game", [Series("ZÈRTZ", [1000])]), ("no games", []),
        ("no games", [Series("ZÈRTZ", [])]))]
    assert all(image.size == images[0].size for image in images)
    assert images[0].tobytes() != images[1].tobytes() != images[2].tobytes()
    assert images[2].tobytes() == images[3].tobytes()
