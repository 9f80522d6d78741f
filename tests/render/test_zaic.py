"""Zaic board images: opening, mid-game and finished positions render, and the marks really change pixels."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from engines.zaic import Zaic
from render.zaic import LAST, draw_board, render

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def played(plies: int | None, seed: int = 4) -> Zaic:
    """A seeded random game after ``plies`` placements (None: to the end)."""
    game = Zaic.new(2)
    rng = random.Random(seed)
    while game.outcome() is None and (plies is None or len(game.history) < plies):
        game.play(game.turn, rng.choice(game.legal_moves(game.turn)))
    return game


def as_image(png: bytes) -> Image.Image:
    assert png.startswith(PNG_SIGNATURE)
    return Image.open(io.BytesIO(png)).convert("RGB")


def pixels_of(image: Image.Image, colour: tuple[int, int, int]) -> int:
    counts = {c: n for n, c in image.getcolors(maxcolors=1 << 20)}
    return counts.get(colour, 0)


def test_opening_mid_game_and_end_render() -> None:
    for game in (Zaic.new(2), played(1), played(12), played(None)):
        image = as_image(render(game.observation(None)))
        assert 400 <= image.width <= 1000 and 400 <= image.height <= 1200


def test_resigned_and_drawn_games_render() -> None:
    resigned = played(7)
    resigned.eliminate(resigned.turn, "resign")
    draw = played(5)
    draw.agree_draw(0)
    for game in (resigned, draw):
        assert as_image(render(game.observation(0))).width >= 400


def test_last_tile_is_outlined() -> None:
    game = played(9)
    obs = game.observation(None)
    marked = draw_board(obs)
    obs["last_tile"] = None
    plain = draw_board(obs)
    assert marked.size == plain.size
    assert ImageChops.difference(marked, plain).getbbox() is not None
    assert pixels_of(marked, LAST) > pixels_of(plain, LAST) + 100


def test_heights_change_the_picture() -> None:
    game = played(12)
    obs = game.observation(None)
    square = next(sq for sq, owners in obs["stacks"].items() if len(owners) == 1)
    flat = draw_board(obs)
    obs["stacks"][square] = [1 - obs["stacks"][square][0], *obs["stacks"][square]]
    raised = draw_board(obs)
    assert ImageChops.difference(flat, raised).getbbox() is not None


def test_finished_game_marks_the_largest_areas() -> None:
    game = played(None)
    obs = game.observation(None)
    assert obs["outcome"] is not None and all(obs["largest"])
    marked = draw_board(obs)
    obs["largest"] = [[], []]
    assert ImageChops.difference(marked, draw_board(obs)).getbbox() is not None


def test_builder_marks_change_the_square_and_the_tile_count_only_when_asked() -> None:
    from render.zaic import hotspots

    game = played(12)
    obs = game.observation(game.turn)
    plain = as_image(render(obs))
    spots = hotspots(obs)
    assert "h8" in spots and "supply:2x1" in spots
    for marks in ({"picked": ["h8"]}, {"offered": ["h8"]}, {"picked": ["supply:2x1"]}, {"offered": ["supply:1x1"]}):
        marked = as_image(render({**obs, "highlights": marks}))
        changed = ImageChops.difference(plain, marked).getbbox()
        target = next(iter(marks.values()))[0]
        x0, y0, x1, y1 = spots[target].bbox()
        assert changed is not None and x0 <= changed[0] and y0 <= changed[1]
        assert changed[2] <= x1 + 1 and changed[3] <= y1 + 1
    assert render({**obs, "highlights": {}}) == render(obs)
