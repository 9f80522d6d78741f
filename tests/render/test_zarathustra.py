"""The Zarathustra board image: renders opening, middle and end positions, and marks what matters."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from engines.zarathustra import SEAT_NAMES, Zarathustra
from render.zarathustra import (
    BOARD_SIDE,
    BOARD_TOP,
    MARGIN,
    OWNER_MARKS,
    TRAY_ROW,
    TRAY_TOP,
    _hand_rect,
    hotspots,
    render,
    square_xy,
    tile_image,
)

PNG = b"\x89PNG\r\n\x1a\n"


def picture(game: Zarathustra) -> Image.Image:
    data = render(game.observation(None))
    assert data.startswith(PNG)
    return Image.open(io.BytesIO(data)).convert("RGB")


def played(players: int, plies: int, seed: int) -> Zarathustra:
    game = Zarathustra.new(players)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        (seat,) = game.to_move()
        game.play(seat, rng.choice(game.legal_moves(seat)))
    return game


def test_opening_middle_and_end_render_for_every_player_count() -> None:
    for players in (2, 3, 4):
        heights = []
        for plies in (0, 12, 999):
            image = picture(played(players, plies, players))
            assert image.width == 640 and 700 < image.height < 1300
            heights.append(image.height)
        assert len(set(heights)) == 1  # the layout does not jump while a game goes on


def test_more_players_make_a_taller_tray() -> None:
    assert picture(Zarathustra.new(4)).height > picture(Zarathustra.new(2)).height


def test_last_move_marker_and_skulls_change_the_board() -> None:
    game = Zarathustra.new(2)
    game.play(0, "c3 ...o")
    obs = game.observation(None)
    with_marks = Image.open(io.BytesIO(render(obs))).convert("RGB")
    plain = dict(obs, last=None, skulls=[])
    without = Image.open(io.BytesIO(render(plain))).convert("RGB")
    box = ImageChops.difference(with_marks, without).crop((0, 64, with_marks.width, 664)).getbbox()
    assert box is not None
    # The marks on the board lie within the 3x3 squares b2-d4 around c3 (120 px squares).
    assert 146 <= box[0] and box[2] <= 506 and 120 <= box[1] and box[3] <= 480


def test_the_last_move_frame_stays_at_least_4_px_wide_at_phone_width() -> None:
    """Its frame was 1/16 of a tile (3 px once shrunk to 400 px), easy to miss on the beige board."""
    obs = played(4, 30, 5).observation(None)
    image = Image.open(io.BytesIO(render(obs))).convert("RGB")
    scale = 400 / image.width
    shrunk = image.resize((400, round(image.height * scale)), Image.LANCZOS)
    left, top, right, bottom = (round(v * scale) for v in hotspots(obs)[obs["last"]["square"]].points)
    row = (top + bottom) // 2  # across the frame's left side, halfway down the square
    yellow = [x for x in range(left - 2, (left + right) // 2) if _yellowish(shrunk.getpixel((x, row)))]
    assert len(yellow) >= 4, yellow


def _yellowish(pixel: tuple[int, int, int]) -> bool:
    r, g, b = pixel
    return r > 200 and g > 160 and b < 120


def test_destroyed_tiles_are_marked_where_they_stood() -> None:
    game = Zarathustra.new(2)
    game.cells[square(game, "b3")] = (1, "o.o.")
    game.play(0, "c3 ...x")
    obs = game.observation(None)
    assert obs["last"]["destroyed"]
    marked = Image.open(io.BytesIO(render(obs))).convert("RGB")
    unmarked = Image.open(io.BytesIO(render(dict(obs, last=dict(obs["last"], destroyed=[]))))).convert("RGB")
    board_top = 64
    box = ImageChops.difference(marked, unmarked).crop((0, board_top, marked.width, marked.height)).getbbox()
    assert box is not None
    cell = 600 / 5
    b3_left, b3_top = 26 + cell, 2 * cell
    assert b3_left <= box[0] and box[2] <= b3_left + cell and b3_top <= box[1] and box[3] <= b3_top + cell


def square(game: Zarathustra, name: str) -> int:
    return game.geo.names.index(name)


def test_swords_and_shields_differ_in_shape_not_just_colour() -> None:
    sword = tile_image(0, "x...", 90).convert("L")
    shield = tile_image(0, "o...", 90).convert("L")
    blank = tile_image(0, "..o.", 90).convert("L")
    assert ImageChops.difference(sword, shield).getbbox() is not None
    white = [img.crop((20, 3, 70, 40)).point(lambda p: 255 if p > 240 else 0).histogram()[255]
             for img in (sword, shield, blank)]
    assert white[1] > 1.5 * white[0] > 0 and white[2] == 0


def test_hotspots_cover_every_square_and_the_movers_tray_only() -> None:
    game = played(3, 5, 1)
    obs = game.observation(None)
    spots = hotspots(obs)
    mover = obs["turn"]
    assert {t for t in spots if t.startswith("hand:")} == {f"hand:{t}" for t in obs["hands"][mover]}
    assert len([t for t in spots if not t.startswith("hand:")]) == 36
    assert spots["a6"].points == (26, 64, 125, 163) and spots["f1"].points == (526, 564, 625, 663)
    first = spots[f"hand:{obs['hands'][mover][0]}"].bbox()
    tray_row = 64 + 600 + 26 + 10 + mover * 134
    assert first[1] > tray_row + 20 and first[3] < tray_row + 76  # below the name, inside the to-move frame
    assert (first[3] - first[1]) * 400 / 640 >= 29  # a hand tile is about 30 px high at 400 px wide (was 20)
    assert not any(t.startswith("hand:") for t in hotspots(played(2, 999, 1).observation(None)))


def test_picked_and_offered_marks_change_only_their_target() -> None:
    game = played(2, 6, 2)
    obs = game.observation(0)
    plain = Image.open(io.BytesIO(render(obs))).convert("RGB")
    assert render({**obs, "highlights": {}}) == render(obs)
    square = game.legal_moves(game.turn)[0].split()[0]
    tile = f"hand:{obs['hands'][game.turn][0]}"
    spots = hotspots(obs)
    for target in (square, tile):
        for kind in ("picked", "offered"):
            marked = Image.open(io.BytesIO(render({**obs, "highlights": {kind: [target]}}))).convert("RGB")
            box = ImageChops.difference(plain, marked).getbbox()
            assert box is not None
            x0, y0, x1, y1 = spots[target].bbox()
            assert x0 <= box[0] and y0 <= box[1] and box[2] <= x1 + 1 and box[3] <= y1 + 1


def ink(image: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """The dark pixels in ``box``: the ink (33 grey) against any seat's body (87 grey or lighter), so a mask that
    no colour vision can change."""
    return image.crop(box).convert("L").point(lambda v: 255 if v < 60 else 0)


def apart(masks: list[Image.Image]) -> list[int]:
    """How many pixels tell each pair of masks apart."""
    return [ImageChops.difference(a, b).histogram()[255] for k, a in enumerate(masks) for b in masks[k + 1:]]


def test_the_owner_reads_without_colour_on_the_board_in_the_trays_and_in_the_legend() -> None:
    """Deuteranopia turns Green (0,158,115) and Purple (204,121,167) into two like greys: the same tile of each of
    the four seats must differ in its ink, not only in its colour; and so must the seats' swatches by their names."""
    game = Zarathustra.new(4)
    squares = ("a1", "c1", "e1", "g1")
    for seat, name in enumerate(squares):
        game.cells[square(game, name)] = (seat, ".o.x")
    obs = game.observation(None)
    image = Image.open(io.BytesIO(render(obs))).convert("RGB")
    cell = BOARD_SIDE / obs["size"]
    corners = [square_xy(name, obs["size"], cell, BOARD_TOP) for name in squares]
    board = [ink(image, (int(x), int(y), int(x) + int(cell), int(y) + int(cell))) for x, y in corners]
    k = obs["hands"][0].index(".o.x")
    assert all(obs["hands"][seat][k] == ".o.x" for seat in range(4))
    trays = [ink(image, _hand_rect(seat, k)) for seat in range(4)]
    legend = [ink(image, (MARGIN, y, MARGIN + 22, y + 22)) for y in (TRAY_TOP + seat * TRAY_ROW for seat in range(4))]
    assert min(apart(board)) >= 40 and min(apart(trays)) >= 20 and min(apart(legend)) >= 20  # 0 with colour only
    destroyed = [{"square": name, "owner": seat, "edges": ".o.x"} for seat, name in enumerate(("a3", "c3", "e3", "g3"))]
    last = {"seat": 0, "square": "a1", "edges": ".o.x", "survived": True, "destroyed": destroyed}
    image = Image.open(io.BytesIO(render({**obs, "last": last}))).convert("RGB")
    corners = [square_xy(dead["square"], obs["size"], cell, BOARD_TOP) for dead in destroyed]
    ghosts = [ink(image, (int(x), int(y), int(x) + int(cell), int(y) + int(cell))) for x, y in corners]
    assert min(apart(ghosts)) >= 10, apart(ghosts)  # where a tile was destroyed, its owner shows too


def test_the_rules_name_each_seats_shape() -> None:
    """``/zarathustra rules`` teaches the owner marks in words as well as on its picture's tray legend."""
    for seat, shape in enumerate(OWNER_MARKS):
        assert f"{SEAT_NAMES[seat]} {shape}" in Zarathustra.help
