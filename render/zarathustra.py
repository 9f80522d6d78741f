"""Zarathustra board image: tiles in seat colours with white swords and shields, skulls, tray, scores.

Built only from ``Zarathustra.observation()``. Swords (narrow blade with a crossguard, pointing out)
and shields (wide heater shape) differ in shape, so the position reads without colour; so does the
owner: each seat's tiles carry its shape (``OWNER_MARKS``) in two corners, and the tray shows it by the
seat's name. Tiles are drawn once per (seat, edges, size) at three times the size and shrunk,
which gives smooth edges and keeps a render fast.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    OFFERED,
    PAPER,
    SEAT_COLOURS,
    Drawn,
    Hotspot,
    Named,
    draw_centered,
    highlights,
    note,
    pick_frame,
    recording,
    seat_named,
    text,
    text_colour,
    to_png,
)

WIDTH = 640
MARGIN = 14
RANK_GUTTER = 26
HEADER = 64
FILE_GUTTER = 26
BOARD_SIDE = WIDTH - RANK_GUTTER - MARGIN
TRAY_TILE = 48  # 30 px at 400 px wide: a hand's swords and shields read on a phone
TRAY_GAP = 4
TRAY_COLS = 9  # a hand of 17 tiles in two rows
TRAY_LINES = 2
SWATCH = 20  # the seat's colour and owner mark by its name in the tray
TRAY_ROW = 24 + TRAY_LINES * (TRAY_TILE + TRAY_GAP) + 6
SQUARE = (232, 224, 206)
GRID = (196, 186, 165)
WHITE = (255, 255, 255)
DEAD = (200, 30, 30)
SCALE = 3
FILES = "abcdefg"

Point = tuple[float, float]

# Symbol outlines for the top edge in unit-square coordinates (y grows downwards); rotated per edge.
SWORD: tuple[Point, ...] = (
    (0.50, 0.03), (0.565, 0.10), (0.565, 0.29), (0.68, 0.29), (0.68, 0.355), (0.545, 0.355),
    (0.545, 0.45), (0.455, 0.45), (0.455, 0.355), (0.32, 0.355), (0.32, 0.29), (0.435, 0.29), (0.435, 0.10),
)
SHIELD: tuple[Point, ...] = (
    (0.28, 0.06), (0.72, 0.06), (0.72, 0.22), (0.70, 0.29), (0.65, 0.35), (0.58, 0.40), (0.50, 0.43),
    (0.42, 0.40), (0.35, 0.35), (0.30, 0.29), (0.28, 0.22),
)


OWNER_MARKS = ("square", "diamond", "triangle", "circle")
"""Each seat's shape, in two corners of its tiles and by its name: the owner without colour. Simulated
deuteranopia and protanopia turn Green and Purple into two like greys, tritanopia Blue and Green into two
teals and Orange and Purple into two pinks; those pairs get the most different shapes."""
MARK_CENTRE, MARK_RADIUS = 0.205, 0.072
"""Where a board tile's owner marks sit, in tiles from two opposite corners (as a playing card's indices): clear
of the symbols (the shields start 0.28 from a corner) and of the last-move frame (up to 0.12 of a tile)."""
TRAY_MARK_CENTRE, TRAY_MARK_RADIUS = 0.165, 0.1
"""A tray tile is never framed, so its marks reach further into the corners: they stay as large as they can."""


def owner_mark(draw: ImageDraw.ImageDraw, seat: int, centre: Point, radius: float, fill: tuple[int, ...],
               outline: tuple[int, ...] | None = None, width: int = 0) -> None:
    """Seat ``seat``'s shape (``OWNER_MARKS``) about ``centre``, ``radius`` to its farthest point; a square and a
    circle are drawn a little smaller so that the four shapes weigh about the same."""
    x, y = centre
    shape = OWNER_MARKS[seat % len(OWNER_MARKS)]
    if shape == "circle":
        r = radius * 0.92
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif shape == "square":
        r = radius * 0.8
        draw.rectangle((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    elif shape == "diamond":
        draw.polygon([(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)], fill=fill,
                     outline=outline, width=width)
    else:  # a triangle pointing up, its base lower than its apex is high so that it fills the same box
        r = radius * 1.1
        draw.polygon([(x, y - r), (x + r * 0.95, y + r * 0.75), (x - r * 0.95, y + r * 0.75)], fill=fill,
                     outline=outline, width=width)


def _mark_corners(draw: ImageDraw.ImageDraw, seat: int, x: float, y: float, side: float, centre: float,
                  radius: float, fill: tuple[int, ...], outline: tuple[int, ...] | None = None, width: int = 0) -> None:
    """The owner mark in the top-left and bottom-right corners of the square at (``x``, ``y``)."""
    for cx, cy in ((centre, centre), (1 - centre, 1 - centre)):
        owner_mark(draw, seat, (x + cx * side, y + cy * side), radius * side, fill, outline, width)


def _turn(points: tuple[Point, ...], edge: int) -> list[Point]:
    """Rotate top-edge coordinates a quarter clockwise ``edge`` times about the centre."""
    out = []
    for x, y in points:
        for _ in range(edge):
            x, y = 1 - y, x
        out.append((x, y))
    return out


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@cache
def tile_image(seat: int, edges: str, side: int) -> Image.Image:
    """One tile of ``seat``, RGBA, ``side`` pixels: body in the seat's colour, dark rim, white symbols with dark
    outlines, and the seat's owner mark in ink in the top-left and bottom-right corners."""
    colour = seat_colour(seat)
    big = side * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    inset = big * 0.03
    draw.rounded_rectangle((inset, inset, big - inset, big - inset), radius=big * 0.08, fill=colour,
                           outline=INK, width=max(2, big // 40))
    for edge, symbol in enumerate(edges):
        shape = SWORD if symbol == "x" else SHIELD if symbol == "o" else None
        if shape is None:
            continue
        points = [(x * big, y * big) for x, y in _turn(shape, edge)]
        draw.polygon(points, fill=WHITE, outline=INK, width=max(2, big // 45))
    centre, radius = (TRAY_MARK_CENTRE, TRAY_MARK_RADIUS) if side <= TRAY_TILE else (MARK_CENTRE, MARK_RADIUS)
    _mark_corners(draw, seat, 0, 0, big, centre, radius, INK)
    return image.reduce(SCALE)


@cache
def skull_image(side: int) -> Image.Image:
    """A small skull: round cranium, two eye holes, a jaw with teeth."""
    big = side * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ink = (90, 84, 76, 255)
    c = big / 2
    r = big * 0.22
    draw.ellipse((c - r, c - r * 1.15, c + r, c + r * 0.75), fill=ink)
    draw.rounded_rectangle((c - r * 0.6, c + r * 0.4, c + r * 0.6, c + r * 1.05), radius=r * 0.15, fill=ink)
    hole = (0, 0, 0, 0)
    for dx in (-0.42, 0.42):
        draw.ellipse((c + dx * r - r * 0.28, c - r * 0.35, c + dx * r + r * 0.28, c + r * 0.2), fill=hole)
    draw.polygon([(c, c + r * 0.25), (c - r * 0.12, c + r * 0.5), (c + r * 0.12, c + r * 0.5)], fill=hole)
    for dx in (-0.3, 0.0, 0.3):
        draw.line((c + dx * r, c + r * 0.75, c + dx * r, c + r * 1.05), fill=hole, width=max(2, big // 60))
    return image.reduce(SCALE)


def square_xy(name: str, size: int, cell: float, top: float) -> tuple[float, float]:
    """Top-left pixel of a square: files left to right, rank 1 at the bottom."""
    f = FILES.index(name[0])
    r = int(name[1:]) - 1
    return RANK_GUTTER + f * cell, top + (size - 1 - r) * cell


def draw_header(draw: ImageDraw.ImageDraw, obs: dict[str, Any]) -> None:
    """Title on the first line (whose turn, or who won), the reason or the last move on the second."""
    names = obs["seat_names"]
    outcome = obs.get("outcome")
    if outcome:
        winners = outcome["winners"]
        title = Named.join(" and ", [seat_named(obs, s) for s in winners]) + (
            " wins" if len(winners) == 1 else " share the win")
        colour = seat_colour(winners[0]) if len(winners) == 1 else INK
    elif obs.get("turn") is not None:
        title = seat_named(obs, obs["turn"]) + " to move"
        colour = seat_colour(obs["turn"])
    else:
        title, colour = "Zarathustra", INK
    text(draw, (MARGIN, 8), title, 26, box=(MARGIN, 4, WIDTH - MARGIN, 38), fill=text_colour(colour), min_size=14)
    line_box = (MARGIN, 38, WIDTH - MARGIN, HEADER - 2)
    last = obs.get("last")
    if outcome:
        text(draw, (MARGIN, 41), outcome["reason"], 16, box=line_box, fill=MUTED)
    elif last:
        line = f"last: {names[last['seat']]} {last['square']} {last['edges']}"
        killed = [d["square"] for d in last["destroyed"] if d["square"] != last["square"]]
        if killed:
            line += ", destroyed " + ", ".join(killed)
        if not last["survived"]:
            line += ", and the tile died"
        text(draw, (MARGIN, 41), line, 16, box=line_box, fill=MUTED)
    else:
        text(draw, (MARGIN, 42), "first move: no skulls yet", 15, box=line_box, fill=MUTED)


@lru_cache(maxsize=16)
def _grid(size: int, height: int) -> tuple[Image.Image, tuple[Drawn, ...]]:
    """The paper with the empty board and its coordinates, drawn once per board size and picture height (a
    board is a copy of it: the header and the trays lie outside it), and the coordinates' notes."""
    image = Image.new("RGBA", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    cell = BOARD_SIDE / size
    top = BOARD_TOP
    with recording() as seen:
        for f in range(size):
            for r in range(size):
                x, y = RANK_GUTTER + f * cell, top + (size - 1 - r) * cell
                draw.rectangle((x, y, x + cell, y + cell), fill=SQUARE, outline=GRID, width=1)
        for i in range(size):
            draw_centered(draw, (RANK_GUTTER / 2, top + (size - 1 - i + 0.5) * cell), str(i + 1), 16, MUTED)
            draw_centered(draw, (RANK_GUTTER + (i + 0.5) * cell, top + BOARD_SIDE + FILE_GUTTER / 2), FILES[i], 16,
                          MUTED)
    return image, tuple(seen)


def _board(image: Image.Image, draw: ImageDraw.ImageDraw, obs: dict[str, Any], top: float) -> None:
    """What stands on the empty board (``_grid``): the last move's ghosts, skulls, tiles and its frame."""
    size = obs["size"]
    cell = BOARD_SIDE / size
    side = int(cell)
    last = obs.get("last")
    if last:
        for dead in last["destroyed"]:
            draw_ghost(draw, square_xy(dead["square"], size, cell, top), cell, dead["owner"])
    for skull in obs.get("skulls", []):
        x, y = square_xy(skull, size, cell, top)
        image.alpha_composite(skull_image(side), (int(x), int(y)))
    for name, tile in obs["board"].items():
        x, y = square_xy(name, size, cell, top)
        image.alpha_composite(tile_image(tile["owner"], tile["edges"], side), (int(x), int(y)))
    if last:
        last_move_frame(draw, *square_xy(last["square"], size, cell, top), cell, side)


def draw_ghost(draw: ImageDraw.ImageDraw, xy: tuple[float, float], cell: float, owner: int) -> None:
    """Where a tile was just destroyed: a dashed outline in its owner's colour, the owner's mark where it stood on
    the tile, and a red cross."""
    colour = seat_colour(owner)
    x, y = xy
    pad = cell * 0.08
    dash = cell / 10
    for k in range(10):
        if k % 2 == 0:
            a, b = x + pad + k * dash * 0.84, x + pad + (k + 1) * dash * 0.84
            draw.line((a, y + pad, b, y + pad), fill=colour, width=3)
            draw.line((a, y + cell - pad, b, y + cell - pad), fill=colour, width=3)
            a, b = y + pad + k * dash * 0.84, y + pad + (k + 1) * dash * 0.84
            draw.line((x + pad, a, x + pad, b), fill=colour, width=3)
            draw.line((x + cell - pad, a, x + cell - pad, b), fill=colour, width=3)
    _mark_corners(draw, owner, x, y, cell, MARK_CENTRE, MARK_RADIUS, colour, INK, 1)
    q = cell * 0.28
    draw.line((x + q, y + q, x + cell - q, y + cell - q), fill=DEAD, width=max(3, int(cell // 18)))
    draw.line((x + cell - q, y + q, x + q, y + cell - q), fill=DEAD, width=max(3, int(cell // 18)))


def draw_tray(image: Image.Image, draw: ImageDraw.ImageDraw, obs: dict[str, Any], top: float) -> None:
    outcome = obs.get("outcome")
    for seat, hand in enumerate(obs["hands"]):
        y = top + seat * TRAY_ROW
        out = seat in obs.get("eliminated", [])
        moving = obs.get("turn") == seat
        if moving:
            draw.rectangle((MARGIN - 6, y - 4, WIDTH - MARGIN + 6, y + TRAY_ROW - 6), outline=HIGHLIGHT, width=3)
        _swatch(draw, seat, MARGIN, y)
        winner = outcome is not None and seat in outcome["winners"]
        label = seat_named(obs, seat) + (" (out)" if out else "") + (" · to move" if moving else "")
        label += " · winner" if winner else ""
        score = f"{obs['scores'][seat]} pts · {len(hand)} tiles"
        score_box = text(draw, (WIDTH - MARGIN, y + 10), score, 17, box=(WIDTH - 200, y, WIDTH - MARGIN, y + 22),
                         anchor="rm")
        text(draw, (MARGIN + SWATCH + 6, y + 10), label, 17, box=(MARGIN + SWATCH + 6, y, score_box[0] - 10, y + 22),
             fill=MUTED if out else INK, anchor="lm")
        if not hand:
            text(draw, (MARGIN, y + 28), "all tiles played", 15, fill=MUTED)
        for k, edges in enumerate(hand):
            dx, dy = _tray_offset(k)
            image.alpha_composite(tile_image(seat, edges, TRAY_TILE), (MARGIN + dx, int(y + 24) + dy))


def _swatch(draw: ImageDraw.ImageDraw, seat: int, x: float, y: float) -> None:
    """The legend by a tray row's name: the seat's colour with its owner mark as on its tiles, larger."""
    draw.rounded_rectangle((x, y, x + SWATCH, y + SWATCH), radius=3, fill=seat_colour(seat), outline=INK)
    owner_mark(draw, seat, (x + SWATCH / 2, y + SWATCH / 2), SWATCH * 0.36, INK)


def _tray_offset(k: int) -> tuple[int, int]:
    """Where the ``k``-th tile of a hand lies from the tray row's first tile: rows of ``TRAY_COLS``."""
    return (k % TRAY_COLS) * (TRAY_TILE + TRAY_GAP), (k // TRAY_COLS) * (TRAY_TILE + TRAY_GAP)


Rect = tuple[int, int, int, int]
BOARD_TOP = HEADER
TRAY_TOP = BOARD_TOP + BOARD_SIDE + FILE_GUTTER + 10


def _square_rect(name: str, size: int) -> Rect:
    """A square's pixels, inclusive and rounded so that neighbouring squares never share a pixel."""
    cell = BOARD_SIDE / size
    f, r = FILES.index(name[0]), size - int(name[1:])
    return (round(RANK_GUTTER + f * cell), round(BOARD_TOP + r * cell),
            round(RANK_GUTTER + (f + 1) * cell) - 1, round(BOARD_TOP + (r + 1) * cell) - 1)


def _hand_rect(seat: int, k: int) -> Rect:
    """The ``k``-th tile of a seat's tray row with a pixel of the gap on each side, below the name line
    and above the to-move frame, so a mark around the tile touches neither."""
    dx, dy = _tray_offset(k)
    x = MARGIN + dx
    y = TRAY_TOP + seat * TRAY_ROW + 24 + dy
    return (x - 1, y - 2, x + TRAY_TILE + 1, y + TRAY_TILE)


def hotspots(obs: dict[str, Any]) -> dict[str, Hotspot]:
    """Every square by its name, and each tile of the mover's tray as ``hand:<tile>`` (a hand holds a
    tile once, so the tile's name is a stable key while the others are played)."""
    size = obs["size"]
    spots = {f"{FILES[f]}{r + 1}": Hotspot("rect", _square_rect(f"{FILES[f]}{r + 1}", size))
             for f in range(size) for r in range(size)}
    turn = obs.get("turn")
    if turn is not None and obs.get("outcome") is None:
        for k, edges in enumerate(obs["hands"][turn]):
            spots[f"hand:{edges}"] = Hotspot("rect", _hand_rect(turn, k))
    return spots


def draw_marks(image: Image.Image, obs: dict[str, Any]) -> None:
    """The move builder's marks, each inside its hotspot: a picked square or tray tile gets the pick's dashed
    black-and-white frame (the last tile placed has a yellow one), an offered square a green dot, an offered tray
    tile a green frame."""
    picked, offered = highlights(obs)
    if not picked and not offered:
        return
    spots = hotspots(obs)
    draw = ImageDraw.Draw(image)
    for target in sorted(picked | offered):
        spot = spots.get(target)
        if spot is None:
            continue
        x0, y0, x1, y1 = (int(v) for v in spot.points)
        chosen = target in picked
        if target.startswith("hand:"):
            if chosen:
                pick_frame(draw, (x0, y0, x1, y1), 4, radius=4)
            else:
                draw.rounded_rectangle((x0, y0, x1, y1), radius=4, outline=OFFERED, width=3)
            continue
        side = x1 - x0 + 1
        if chosen:
            pick_frame(draw, (x0 + 2, y0 + 2, x1 - 2, y1 - 2), max(5, side // 14))
        else:
            cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, side * 0.15
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=OFFERED, outline=WHITE, width=max(2, side // 40))


def last_move_frame(draw: ImageDraw.ImageDraw, x: float, y: float, cell: float, side: int) -> None:
    """The last tile placed: a thick yellow frame between dark lines (a frame 1/16 of a tile wide was 2 px at phone
    width, lost on the beige board)."""
    width = max(6, side // 10)
    draw.rectangle((x - 1, y - 1, x + cell + 1, y + cell + 1), outline=INK, width=2)
    draw.rectangle((x + 1, y + 1, x + cell - 1, y + cell - 1), outline=HIGHLIGHT, width=width)
    draw.rectangle((x + 1 + width, y + 1 + width, x + cell - 1 - width, y + cell - 1 - width), outline=INK, width=1)


def render(obs: dict[str, Any]) -> bytes:
    """The whole picture: header (whose turn or the result), board with coordinates, tray per player,
    and the move builder's marks when the observation carries ``highlights``."""
    players = len(obs["hands"])
    height = int(TRAY_TOP + players * TRAY_ROW + 4)
    grid, coordinates = _grid(obs["size"], height)
    image = grid.copy()
    draw = ImageDraw.Draw(image)
    for drawn in coordinates:
        note(drawn)
    draw_header(draw, obs)
    _board(image, draw, obs, BOARD_TOP)
    draw_tray(image, draw, obs, TRAY_TOP)
    draw_marks(image, obs)
    return to_png(image.convert("RGB"))
