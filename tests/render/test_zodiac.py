"""Zodiac board images: every phase renders, every piece shows its own animal, and the markers really change
pixels."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from engines.base import CHANCE
from engines.zodiac import Zodiac
from engines.zodiac.core import KINDS
from render.zodiac import CELL, CODES, ICONS, RADIUS, cell_origin, draw_board, hotspots, icon, load_icon, render
from tests.engines.test_zodiac_pieces import board, play

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def played(plies: int | None, seed: int = 3) -> Zodiac:
    """A seeded random game after ``plies`` moves (None: to the end)."""
    game = Zodiac.new(2)
    rng = random.Random(seed)
    while game.outcome() is None and (plies is None or len(game.history) < plies):
        seat = rng.choice(sorted(game.to_move()))
        game.play(seat, rng.choice(game.legal_moves(seat)))
    return game


def as_image(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_opening_mid_game_and_end_render() -> None:
    for game in (Zodiac.new(2), played(4), played(12), played(30), played(None)):
        for seat in (0, 1, None):
            image = as_image(render(game.observation(seat)))
            assert 400 <= image.width <= 800 and 700 <= image.height <= 1000
    assert played(None).outcome() is not None


def test_the_last_move_marker_changes_pixels() -> None:
    g = board({"b1": "L Wolf", "a1": "L Bear", "e8": "D Bear"})
    before = draw_board(g.observation(0))
    play(g, "Wolf b1-c3")
    after = draw_board(g.observation(0))
    moved_back = board({"c3": "L Wolf", "a1": "L Bear", "e8": "D Bear"})
    plain = draw_board(moved_back.observation(0))
    assert ImageChops.difference(before, after).getbbox() is not None
    assert ImageChops.difference(plain, after).getbbox() is not None  # only the marker differs here


def test_the_opponent_cannot_see_the_real_ink_token_in_the_image() -> None:
    images = []
    for real in ("c5", "c3"):
        g = board({"c4": "L Octopus", "a1": "L Bear", "e8": "D Bear"})
        play(g, f"Octopus c4 ink {real}")
        images.append((render(g.observation(1)), render(g.observation(0))))
    assert images[0][0] == images[1][0]
    assert images[0][1] != images[1][1]


def test_statuses_and_dice_render() -> None:
    g = board({"a1": "L Monkey", "a2": "D Crane", "e1": "L Bear", "e8": "D Wolf", "c3": "L Tree + L Frog",
               "d4": "D Goat fainted + L Virus", "b5": "D Penguin face=SW", "c6": "D Rhino charged"},
              kings=("Bear", "Wolf"))
    play(g, "Monkey a1-a3")
    assert g.to_move() == {CHANCE}
    as_image(render(g.observation(0)))
    g.play(CHANCE, "roll 6")
    assert as_image(render(g.observation(None))).width >= 400


def test_every_piece_has_a_shipped_icon_with_its_licence() -> None:
    assert set(CODES) == set(KINDS)
    total = 0
    for kind in KINDS:
        art = load_icon(kind)
        assert art.mode == "RGBA" and 72 <= art.width == art.height <= 96
        assert art.getchannel("A").getextrema() == (0, 255)  # a transparent surround and an opaque animal
        assert icon(kind, 40) is not None
        total += (ICONS / f"{kind.lower()}.png").stat().st_size
    assert total < 200_000
    assert "SIL OPEN FONT LICENSE Version 1.1" in (ICONS / "LICENSE-NotoColorEmoji.txt").read_text()


def test_each_piece_draws_its_own_animal_on_a_disc_of_its_side() -> None:
    crops = {}
    for kind in KINDS:
        for side in "LD":
            g = board({"c4": f"{side} {kind}", "a1": "L Bear", "e8": "D Bear"})
            obs = g.observation(0)
            image = draw_board(obs)
            x, y = cell_origin(obs, "c4")
            cx, cy = x + CELL // 2, y + CELL // 2
            fill = sum(image.getpixel((cx - RADIUS + 7, cy))) / 3  # inside the ring, left of the animal
            assert fill > 200 if side == "L" else fill < 80
            crop = image.crop((cx - 20, cy - 26, cx + 20, cy + 12))  # the animal, above the letter code
            assert len(crop.getcolors(4096) or range(4097)) > 12, kind  # a picture, not a plain disc
            crops[side, kind] = crop.tobytes()
    assert len(set(crops.values())) == len(crops)  # no two pieces (or sides) look the same


def test_builder_marks_change_only_their_square_and_no_marks_change_nothing() -> None:
    g = board({"c3": "L Monkey", "c4": "D Goat", "a1": "L Bear", "e8": "D Bear"}, kings=("Bear", "Bear"))
    for seat in (0, 1):  # Dark's own board is turned: the hotspots turn with it
        obs = g.observation(seat)
        plain = draw_board(obs)
        assert draw_board({**obs, "highlights": {"picked": [], "offered": []}}).tobytes() == plain.tobytes()
        spots = hotspots(obs)
        assert len(spots) == 40
        x, y = cell_origin(obs, "c4")
        assert spots["c4"].points == (x, y, x + CELL - 1, y + CELL - 1)
        both = {"picked": ["c3"], "offered": ["c3"]}  # a penguin turning in place: picked and offered at once
        for marks in ({"picked": ["c3"]}, {"offered": ["c4"]}, {"offered": ["d5"]}, both):
            target = next(iter(marks.values()))[0]
            marked = draw_board({**obs, "highlights": marks})
            changed = ImageChops.difference(plain, marked).getbbox()
            assert changed is not None, marks
            x0, y0, x1, y1 = spots[target].bbox()
            assert x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 + 1 and changed[3] <= y1 + 1, marks
