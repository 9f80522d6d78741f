"""ZÈRTZ board image: rings on a hexagon, shaded marbles, coordinates, the last move, captures and pool.

Built only from ``Zrtz.observation``; the ring layout comes from the shared coordinate helper. A board starts
from layers drawn once per board size (``layers``: the table, every ring bare and named, the panel's frame), so
drawing one is mostly pasting: 2.6 ms instead of 5.8 (issue 24), with the same pixels as painting every part in
turn (``bench/boards_before.py``, tests/render/test_cached_layers.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engines.zrtz.board import board
from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    OFFERED,
    PAPER,
    SEAT_COLOURS,
    Colour,
    Drawn,
    Hotspot,
    draw_centered,
    highlights,
    note,
    pick_frame,
    readable,
    record,
    recording,
    seat_label,
    seat_named,
    text,
    text_colour,
    text_width,
    to_png,
)

WIDTH, HEIGHT = 1000, 760
BOARD_W, BOARD_H = 680, 700
PANEL_X = 700
TABLE = (214, 200, 170)
RING_FILL = (238, 234, 222)
RING_EDGE = (135, 122, 98)
HOLE = (214, 200, 170)
MARBLE = {"w": ((252, 252, 250), (60, 60, 60)), "g": ((150, 150, 155), (90, 90, 95)),
          "b": ((45, 45, 50), (10, 10, 10))}
LABEL_INK = (95, 85, 70)
# Move-builder marks: an offered ring's body is tinted green (labels stay readable on it), a picked one gets the
# pick's black-and-white frame (``pick_frame``), never the last move's yellow; over a marble a thick outline.
OFFERED_TINT = (170, 226, 186)
SPOT = 0.48
"""A ring's hotspot radius in pitches: wider than the drawn ring (0.46), short of touching a neighbour."""
SEAT_ROW_Y = (180, 300)
POOL_ROW_Y = 412
"""Sidebar rows of marble counts (each player's captures, the pool): the panel and the hotspots share them."""


@cache
def layout(rings: int) -> tuple[dict[str, tuple[float, float]], float]:
    """Pixel centre of every ring (row 1 at the bottom of its column) and the ring pitch (cached: read only)."""
    geo = board(rings)
    cols = len(geo.heights)
    top = max(f + 2 * (h - 1) for f, h in zip(geo.first, geo.heights, strict=True))
    pitch = min((BOARD_H - 90) / (top / 2 + 1), (BOARD_W - 60) / ((cols - 1) * math.sqrt(3) / 2 + 1))
    width = (cols - 1) * pitch * math.sqrt(3) / 2
    height = top * pitch / 2
    x0 = (BOARD_W - width) / 2 + 10
    y0 = (BOARD_H - 40 - height) / 2 + 20 + height
    centres = {name: (x0 + col * pitch * math.sqrt(3) / 2, y0 - y * pitch / 2)
               for name, (col, y) in zip(geo.names, geo.positions, strict=True)}
    return centres, pitch


@cache
def label(name: str, size: int, ink: tuple[int, int, int] = LABEL_INK) -> tuple[Image.Image, tuple[float, ...]]:
    """A ring name as a small transparent image and its ink box relative to the tile's centre:
    pasting it is much faster than drawing text each time."""
    width, height = size * 3, size * 2
    tile = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    box = text(ImageDraw.Draw(tile), (width / 2, height / 2), name, size, fill=ink, anchor="mm", note=False)
    return tile, (box[0] - width / 2, box[1] - height / 2, box[2] - width / 2, box[3] - height / 2)


def paste_label(image: Image.Image, name: str, size: int, xy: tuple[float, float], ring: float,
                ink: tuple[int, int, int] = LABEL_INK) -> None:
    """A ring's name centred on it; the ring is the panel its name must stay in."""
    tile, (ax, ay, bx, by) = label(name, size, ink)
    x, y = xy
    left, top = round(x - tile.width / 2), round(y - tile.height / 2)
    image.paste(tile, (left, top), tile)
    cx, cy = left + tile.width / 2, top + tile.height / 2
    record(name, (cx + ax, cy + ay, cx + bx, cy + by), (x - ring, y - ring, x + ring, y + ring), image.size, size)


MARBLE_LABEL = {"w": LABEL_INK, "g": (255, 255, 255), "b": (235, 235, 235)}


def marble(draw: ImageDraw.ImageDraw, xy: tuple[float, float], radius: float, colour: str) -> None:
    """A shaded marble: dark rim, body, and a soft highlight so white, grey and black read as spheres."""
    x, y = xy
    body, rim = MARBLE[colour]
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rim)
    inner = radius * (0.84 if colour == "w" else 0.9)  # white: a thicker dark rim, unlike a bare ring at phone width
    if colour == "w":  # and a grey shadow low on the sphere where a ring shows its hole
        draw.ellipse((x - inner, y - inner, x + inner, y + inner), fill=(200, 200, 204))
        draw.ellipse((x - inner, y - inner - radius * 0.14, x + inner * 0.92, y + inner * 0.8), fill=body)
    else:
        draw.ellipse((x - inner, y - inner - radius * 0.04, x + inner, y + inner - radius * 0.04), fill=body)
    shine = tuple(min(255, c + 70) for c in body) if colour != "w" else (225, 232, 240)
    # small and high on the left, clear of the ring's name in the middle: on grey and black the name is white,
    # and a larger shine behind it swallowed letters at phone width (f5 read as "5")
    hr = radius * 0.2
    hx, hy = x - radius * 0.46, y - radius * 0.5
    draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=shine)


def dashed_circle(draw: ImageDraw.ImageDraw, xy: tuple[float, float], radius: float,
                  colour: tuple[int, int, int], width: int) -> None:
    x, y = xy
    for start in range(0, 360, 30):
        draw.arc((x - radius, y - radius, x + radius, y + radius), start, start + 18, fill=colour, width=width)


def cross(draw: ImageDraw.ImageDraw, centre: tuple[float, float], half: float, colour: Colour, width: int) -> None:
    """An X over a ring: the one removed last, or one whose marble was jumped."""
    x, y = centre
    draw.line((x - half, y - half, x + half, y + half), fill=colour, width=width)
    draw.line((x - half, y + half, x + half, y - half), fill=colour, width=width)


def ring(draw: ImageDraw.ImageDraw, xy: tuple[float, float], ring_r: float, mark: str | None = None) -> None:
    """A ring with its hole (tinted green when offered, framed when picked)."""
    x, y = xy
    box = (x - ring_r, y - ring_r, x + ring_r, y + ring_r)
    fill, edge, width = (OFFERED_TINT, OFFERED, 4) if mark == "offered" else (RING_FILL, RING_EDGE, 2)
    draw.ellipse(box, fill=fill, outline=edge, width=width)
    hole = ring_r * 0.5
    draw.ellipse((x - hole, y - hole, x + hole, y + hole), fill=HOLE)
    if mark == "picked":
        pick_frame(draw, box, pick_width(ring_r), ellipse=True)


def pick_width(ring_r: float) -> int:
    """The pick frame's band on a ring: thick enough to read at phone width, clear of the ring's name."""
    return max(4, round(ring_r * 0.16))


CLEAR = 2
"""Pixels beyond a ring's radius that clearing it covers (a ring's ellipse reaches 1 past it; the gap to a
neighbour's is 5 or more on every board)."""


@dataclass(frozen=True)
class Layers:
    """What every board of a size starts from, drawn once (drawing a board is then mostly pasting):
    ``table`` (paper, table, column letters), ``bare`` (every ring, unnamed), ``named`` (every ring with its
    name); per ring the box and circular mask that lift it back to one of the others; the texts noted."""

    named: Image.Image
    spots: dict[str, Spot]
    texts: tuple[Drawn, ...]
    """Noted on every board: the column letters and the panel's fixed texts."""
    names: dict[str, tuple[Drawn, ...]]
    """Noted on a board that shows the ring's name."""


@dataclass(frozen=True)
class Spot:
    """A ring's square (left, top) and its circular mask, with the table and the bare ring cut to it."""

    at: tuple[int, int]
    mask: Image.Image
    table: Image.Image
    bare: Image.Image


@lru_cache(maxsize=8)
def layers(rings: int, goal: tuple[tuple[str, int], ...]) -> Layers:
    """The layers of a board size (and the goal its panel states)."""
    centres, pitch = layout(rings)
    ring_r = pitch * 0.46
    table = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(table)
    draw.rounded_rectangle((8, 8, BOARD_W, BOARD_H), radius=18, fill=TABLE)
    with recording() as texts:  # column letters under each column's bottom ring
        for letter in board(rings).columns:
            x, y = centres[f"{letter}1"]
            draw_centered(draw, (x, y + ring_r + 16), letter, 24, INK)
        panel_frame(draw, dict(goal))
    bare = table.copy()
    draw = ImageDraw.Draw(bare)
    for xy in centres.values():
        ring(draw, xy, ring_r)
    spots = {}
    reach = ring_r + CLEAR
    for name, (x, y) in centres.items():
        box = (math.floor(x - reach), math.floor(y - reach), math.ceil(x + reach) + 1, math.ceil(y + reach) + 1)
        mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
        ImageDraw.Draw(mask).ellipse((x - reach - box[0], y - reach - box[1], x + reach - box[0],
                                      y + reach - box[1]), fill=255)
        spots[name] = Spot(box[:2], mask, table.crop(box), bare.crop(box))
    named = bare.copy()
    labels = {}
    for name, xy in centres.items():
        with recording() as seen:
            paste_label(named, name, label_size(pitch), xy, ring_r)
        labels[name] = tuple(seen)
    return Layers(named, spots, tuple(texts), labels)


def label_size(pitch: float) -> int:
    return max(readable(WIDTH), int(pitch * 0.42))  # 9 px or more at 400 px wide




def render(obs: dict[str, Any]) -> bytes:
    """PNG of the position for ``obs = Zrtz.observation(seat)``."""
    centres, pitch = layout(obs["rings"])
    names: list[str] = obs["names"]
    cells: str = obs["cells"]
    last = obs.get("last") or {}
    mover_colour = SEAT_COLOURS[last.get("seat", 0) % len(SEAT_COLOURS)]
    ring_r = pitch * 0.46
    ball_r = pitch * 0.40

    # Every ring starts empty and named: a ring gone goes back to the table, one that shows no name to the
    # bare ring, and one the move builder marks is drawn again over the table.
    base = layers(obs["rings"], tuple(sorted(obs["goal"].items())))
    image = base.named.copy()
    draw = ImageDraw.Draw(image)
    for drawn in base.texts:
        note(drawn)
    size = label_size(pitch)
    capture = last.get("kind") == "capture"
    marked = {name for name, _ in last.get("jumped", [])} | set(last.get("path", [])) if capture else set()
    marks = builder_marks(obs)
    for name, symbol in zip(names, cells, strict=True):
        spot = base.spots[name]
        if symbol == "x" or name in marks:
            image.paste(spot.table, spot.at, spot.mask)
        elif symbol != "." or name in marked:
            image.paste(spot.bare, spot.at, spot.mask)
        else:
            for drawn in base.names[name]:
                note(drawn)
        if symbol != "x" and name in marks:
            ring(draw, centres[name], ring_r, marks[name])
            if symbol == "." and name not in marked:
                paste_label(image, name, size, centres[name], ring_r)

    claimed = {name for name, _ in last.get("claimed", [])}
    for name in claimed:
        dashed_circle(draw, centres[name], ring_r * 0.8, MUTED, 2)
    if last.get("removed"):
        dashed_circle(draw, centres[last["removed"]], ring_r, mover_colour, 4)
        cross(draw, centres[last["removed"]], ring_r * 0.35, mover_colour, 4)

    if capture:  # the path under the marbles, a cross on every ring whose marble was jumped
        points = [centres[n] for n in last["path"]]
        draw.line(points, fill=mover_colour, width=6, joint="curve")
        for name, _ in last["jumped"]:
            cross(draw, centres[name], ring_r * 0.42, mover_colour, 6)
        sx, sy = points[0]
        draw.ellipse((sx - 10, sy - 10, sx + 10, sy + 10), fill=mover_colour)

    for name, symbol in zip(names, cells, strict=True):
        if symbol in "wgb":  # the ring's name stays readable on its marble
            marble(draw, centres[name], ball_r, symbol)
            small = max(readable(WIDTH), int(size * 0.8))
            paste_label(image, name, small, centres[name], ball_r, MARBLE_LABEL[symbol])

    if last.get("kind") == "place" or capture:
        x, y = centres[last["at"] if not capture else last["path"][-1]]
        draw.ellipse((x - ring_r, y - ring_r, x + ring_r, y + ring_r), outline=HIGHLIGHT, width=5)

    for name, mark in marks.items():  # over a marble only the rim shows: a thick outline reads at a glance
        if name in centres and cells[names.index(name)] in "wgb":
            x, y = centres[name]
            box = (x - ring_r, y - ring_r, x + ring_r, y + ring_r)
            if mark == "offered":
                draw.ellipse(box, outline=OFFERED, width=max(7, round(pitch * 0.13)))
                draw.ellipse(box, outline=RING_EDGE, width=2)  # a dark rim tells it from the last move's outline
            else:
                pick_frame(draw, box, pick_width(ring_r), ellipse=True)

    panel(draw, obs, marks)
    return to_png(image)


def builder_marks(obs: dict[str, Any]) -> dict[str, str]:
    """The move builder's marks by target: "picked" or "offered" (picked wins when a target is both)."""
    picked, offered = highlights(obs)
    return dict.fromkeys(offered, "offered") | dict.fromkeys(picked, "picked")


def count_box(x: int, y: int, i: int) -> tuple[int, int, int, int]:
    """The box of the ``i``-th marble and its count in a sidebar row: where a colour is clicked."""
    cx = x + 18 + i * 92
    return (cx - 17, y - 21, cx + 73, y + 21)


def hotspots(obs: dict[str, Any]) -> dict[str, Hotspot]:
    """Every ring still on the board (a circle), the pool's colours (``supply:w``) and each player's
    captured colours (``captured:0:w``), which are placed from once the pool is empty."""
    centres, pitch = layout(obs["rings"])
    spots = {name: Hotspot("circle", (*centres[name], pitch * SPOT))
             for name, symbol in zip(obs["names"], obs["cells"], strict=True) if symbol != "x"}
    x = PANEL_X + 10
    for i, colour in enumerate("wgb"):
        spots[f"supply:{colour}"] = Hotspot("rect", count_box(x, POOL_ROW_Y, i))
        for seat, y in enumerate(SEAT_ROW_Y):
            spots[f"captured:{seat}:{colour}"] = Hotspot("rect", count_box(x, y, i))
    return spots


def counts_row(draw: ImageDraw.ImageDraw, x: int, y: int, counts: dict[str, int],
               goal: dict[str, int] | None, marks: dict[str, str], space: str) -> None:
    """Three marbles (in the cached frame) with their counts (and the goal, for a player's captures); a colour the
    move builder marks (target ``<space>:<colour>``) sits on a tinted box, its marble drawn again over it."""
    for i, colour in enumerate("wgb"):
        cx = x + 18 + i * 92
        mark = marks.get(f"{space}:{colour}")
        if mark:
            x0, y0, x1, y1 = count_box(x, y, i)
            if mark == "offered":
                draw.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=8, fill=OFFERED_TINT, outline=OFFERED,
                                       width=3)
            else:
                pick_frame(draw, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), 3, radius=8)
            marble(draw, (cx, y), 15, colour)
        shown = f"{counts[colour]}" + (f"/{goal[colour]}" if goal else "")
        text(draw, (cx + 22, y), shown, 24, box=(cx + 16, y - 20, cx + 88, y + 20), anchor="lm")


def notation(last: dict[str, Any]) -> str:
    """The last move exactly as it is typed (``bb1 a3``, ``c3xe5``)."""
    if last["kind"] == "place":
        return f"{last['colour']}{last['at']}" + (f" {last['removed']}" if last["removed"] else "")
    return "x".join(last["path"])


def title(draw: ImageDraw.ImageDraw, obs: dict[str, Any], seat: int, verb: str, width: float) -> str:
    """``<name> (<colour>) <verb>``, or ``<colour> <verb>`` when a long name would cut the verb off
    (each captures tab below names its seat, the name cut if need be, never its colour)."""
    full = f"{seat_label(obs, seat)} {verb}"
    if text_width(draw, full, readable(WIDTH)) <= width:
        return full
    return f"{obs['seat_names'][seat]} {verb}"


def panel_frame(draw: ImageDraw.ImageDraw, goal: dict[str, int]) -> None:
    """What the panel shows on every board (drawn once, in the cached layers): each player's box and marbles,
    the pool's label and marbles, and the rules. Nothing drawn later overlaps them but a tab, drawn over a box
    as it was, and a marked marble's tinted box, with the marble drawn again on it."""
    x = PANEL_X + 10
    right = WIDTH - 14
    for seat, y in enumerate((120, 240)):
        shade = text_colour(SEAT_COLOURS[seat])  # the box in the colour of its label and tab
        draw.rounded_rectangle((x - 6, y - 6, WIDTH - 12, y + 96), radius=10, outline=shade, width=3)
    for y in (*SEAT_ROW_Y, POOL_ROW_Y):
        for i, colour in enumerate("wgb"):
            marble(draw, (x + 18 + i * 92, y), 15, colour)
    text(draw, (x, 364), "Pool", 22)
    rules = (f"Win: {goal['w']} white, {goal['g']} grey, {goal['b']} black or {goal['each']} of each. "
             "Filling the last vacant ring also wins.")
    text(draw, (x, 460), rules, 19, box=(x, 460, right, 576), fill=MUTED, lines=4)


def panel(draw: ImageDraw.ImageDraw, obs: dict[str, Any], marks: dict[str, str]) -> None:
    """Whose turn or the result, each player's captures against the goal, and the pool."""
    x = PANEL_X + 10
    right = WIDTH - 14
    head_box = (x, 10, right, 100)
    outcome = obs.get("outcome")
    if outcome:
        winners = outcome["winners"]
        head = "Draw" if len(winners) != 1 else title(draw, obs, winners[0], "wins", right - x)
        colour = INK if len(winners) != 1 else SEAT_COLOURS[winners[0]]
        text(draw, (x, 16), head, 34, box=(x, 10, right, 54), fill=text_colour(colour), min_size=16)
        text(draw, (x, 56), outcome["reason"], 17, box=(x, 54, right, 112), fill=MUTED, lines=2)
    else:
        seat = obs["turn"]
        text(draw, (x, 16), title(draw, obs, seat, "to move", right - x), 34, box=(x, 10, right, 54),
             fill=text_colour(SEAT_COLOURS[seat]), min_size=16)
        hint = "Capture is compulsory" if obs.get("capture_pending") else f"Move {obs['ply'] + 1}"
        text(draw, (x, 66), hint, 20, box=head_box, fill=INK if obs.get("capture_pending") else MUTED)
    goal = obs["goal"]
    y = 120
    for seat in range(2):
        colour = SEAT_COLOURS[seat]
        tab = (x + 2, y - 4, WIDTH - 16, y + 28)
        label_text = seat_named(obs, seat)  # over the marbles they captured, against the goal
        if not outcome and obs["turn"] == seat:  # a filled tab marks the player to move (the title names them)
            draw.rounded_rectangle((x - 6, y - 6, WIDTH - 12, y + 30), radius=10, fill=text_colour(colour))
            text(draw, (x + 4, y + 12), label_text, 22, box=tab, fill=PAPER, anchor="lm")
        else:
            text(draw, (x + 4, y + 12), label_text, 22, box=tab, fill=text_colour(colour), anchor="lm")
        counts_row(draw, x, SEAT_ROW_Y[seat], obs["captured"][seat], goal, marks, f"captured:{seat}")
        y += 120
    counts_row(draw, x, POOL_ROW_Y, obs["pool"], None, marks, "supply")
    y += 216  # below the pool and the rules (panel_frame)
    last = obs.get("last")
    if last and last.get("kind") in ("place", "capture"):
        shown = notation(last)
        if last.get("claimed"):
            shown += f" +{len(last['claimed'])} isolated"
        text(draw, (x, y + 14), "Last move", 19, fill=MUTED)
        text(draw, (x, y + 40), shown, 24, box=(x, y + 40, right, HEIGHT - 8),
             fill=text_colour(SEAT_COLOURS[last["seat"]]), lines=2)
