"""Zodiac Chess board image: the 5x8 board with an animal token per piece and every status marker.

Each piece is a disc in its side's colour (Light: cream, Dark: charcoal) ringed in its seat's colour, with
the piece's animal (Noto Color Emoji glyphs shipped as PNGs in ``render/icons/zodiac``, SIL OFL 1.1) and its
two-letter code underneath. A tree holding a piece shows the tree on top and the housed piece as a smaller
disc in front of the trunk; a fainted goat lies as a flat oval at the bottom of its square; a virus riding
its host is a small disc with a purple ring in the top right corner. Badges: P poisoned, E entangled,
Z zombie, S shed, C rhino charge used, K your king; a penguin shows its facing as a red arrow; ink tokens
carry a "?" (their owner sees the shadows faded). The board turns so the viewer's own side is at the bottom.
A move builder's marks (``highlights``): a black-and-white frame (``pick_frame``) on a square already picked (the
last move's frame is yellow), a green tint with a dot (empty) or a ring (occupied) where the next click may go.
``hotspots`` gives every square's rectangle.
Built only from ``Zodiac.observation()``; nothing is fetched while drawing.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    OFFERED,
    PAPER,
    SEAT_COLOURS,
    Hotspot,
    Named,
    draw_centered,
    highlights,
    pick_frame,
    seat_named,
    text,
    to_png,
)

FILES = "abcde"
CELL = 84
RADIUS = 35
ICONS = Path(__file__).with_name("icons") / "zodiac"
LEFT, TOP, RIGHT = 30, 78, 14
FOOTER = 112
LIGHT_SQ = (238, 228, 206)
DARK_SQ = (196, 178, 146)
SIDE_FILL = {"Light": (252, 248, 236), "Dark": (48, 48, 56)}
SIDE_TEXT = {"Light": INK, "Dark": (250, 250, 250)}
TREE_GREEN = (46, 125, 50)
VIRUS = (150, 60, 170)
LAST = (240, 200, 40)
BADGES = {"poisoned": ("P", (0, 158, 115)), "entangled": ("E", (120, 60, 160)), "zombie": ("Z", (90, 90, 90)),
          "shed": ("S", (160, 120, 40)), "charged": ("C", (200, 60, 60)), "king": ("K", (230, 170, 0))}
CODES = {"Bear": "Be", "Crane": "Cr", "Frog": "Fr", "Fungi": "Fu", "Goat": "Go", "Monkey": "Mo", "Octopus": "Oc",
         "Penguin": "Pe", "Rhino": "Rh", "Snake": "Sn", "Tree": "Tr", "Wolf": "Wo", "Virus": "Vi"}
FACING = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1), "S": (0, -1), "SW": (-1, -1), "W": (-1, 0),
          "NW": (-1, 1)}


def ring(obs: dict[str, Any], side: str) -> tuple[int, int, int]:
    """A side's outline is its seat's colour, as everywhere else on the platform."""
    light_seat = obs.get("light_seat") or 0
    return SEAT_COLOURS[light_seat if side == "Light" else 1 - light_seat]


def render(obs: dict[str, Any]) -> bytes:
    return to_png(draw_board(obs))


def flipped(obs: dict[str, Any]) -> bool:
    """Dark's own view shows rank 8 at the bottom."""
    return obs.get("my_side") == "Dark"


def cell_origin(obs: dict[str, Any], name: str) -> tuple[int, int]:
    f, r = FILES.index(name[0]), int(name[1]) - 1
    if flipped(obs):
        f, r = 4 - f, 7 - r
    return LEFT + f * CELL, TOP + (7 - r) * CELL


def hotspots(obs: dict[str, Any]) -> dict[str, Hotspot]:
    """Every square of the board by its name (``c3``), as drawn for this viewer (Dark's own view is turned)."""
    spots = {}
    for f in range(5):
        for r in range(8):
            name = f"{FILES[f]}{r + 1}"
            x, y = cell_origin(obs, name)
            spots[name] = Hotspot("rect", (x, y, x + CELL - 1, y + CELL - 1))
    return spots


def tint(colour: tuple[int, int, int], mark: tuple[int, int, int], share: float) -> tuple[int, int, int]:
    r, g, b = (round(c * (1 - share) + m * share) for c, m in zip(colour, mark, strict=True))
    return r, g, b


def draw_board(obs: dict[str, Any]) -> Image.Image:
    width = LEFT + 5 * CELL + RIGHT
    height = TOP + 8 * CELL + 24 + FOOTER
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    last = obs.get("last") or {}
    marked = {sq for sq in (last.get("from"), last.get("to")) if sq}
    picked, offered = highlights(obs)
    occupied = {entry["sq"] for entry in obs.get("board", [])}
    for f in range(5):
        for r in range(8):
            name = f"{FILES[f]}{r + 1}"
            x, y = cell_origin(obs, name)
            colour = DARK_SQ if (f + r) % 2 == 0 else LIGHT_SQ
            if name in offered and name not in picked:
                colour = tint(colour, OFFERED, 0.3)
            draw.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=colour)
            if name in marked:
                draw.rectangle((x + 2, y + 2, x + CELL - 3, y + CELL - 3), outline=LAST, width=5)
            if name in picked:  # inside the last move's frame when both: under the piece, clear of its disc
                inset = 7 if name in marked else 1
                pick_frame(draw, (x + inset, y + inset, x + CELL - 1 - inset, y + CELL - 1 - inset), 4)
            if name in offered:
                _offer(draw, x, y, name in occupied)
    for i in range(5):
        name = f"{FILES[i]}1"
        x, _ = cell_origin(obs, name)
        draw_centered(draw, (x + CELL / 2, TOP + 8 * CELL + 12), FILES[i], 16, MUTED)
    for r in range(8):
        _, y = cell_origin(obs, f"a{r + 1}")
        draw_centered(draw, (LEFT / 2, y + CELL / 2), str(r + 1), 16, MUTED)
    for entry in obs.get("board", []):
        _draw_stack(image, draw, obs, entry["sq"], entry["stack"])
    _draw_header(draw, obs, width)
    _draw_footer(image, draw, obs, width, TOP + 8 * CELL + 26)
    return image


def _offer(draw: ImageDraw.ImageDraw, x: int, y: int, occupied: bool) -> None:
    """Where the next click may go: a green dot on an empty square, a green ring around a piece (drawn under
    the piece's badges, so they stay readable); the square itself is tinted green as well."""
    cx, cy = x + CELL / 2, y + CELL / 2
    if occupied:
        draw.ellipse((cx - 41, cy - 41, cx + 41, cy + 41), outline=OFFERED, width=5)
    else:
        draw.ellipse((cx - 13, cy - 13, cx + 13, cy + 13), fill=OFFERED, outline=(255, 255, 255), width=2)


def _draw_stack(image: Image.Image, draw: ImageDraw.ImageDraw, obs: dict[str, Any], sq: str,
                stack: list[dict[str, Any]]) -> None:
    x, y = cell_origin(obs, sq)
    cx, cy = x + CELL / 2, y + CELL / 2
    layers = {p["layer"]: p for p in stack}
    tree, floor, piece, virus = (layers.get(k) for k in ("tree", "floor", "piece", "virus"))
    flip = flipped(obs)
    if tree is not None:
        if piece is None:
            _disc(image, draw, tree, cx, cy, RADIUS, flip, ring(obs, tree["side"]))
        else:  # the housed piece sits in front of the tree's trunk
            edge = ring(obs, tree["side"])
            draw.ellipse((cx - RADIUS, cy - RADIUS, cx + RADIUS, cy + RADIUS), fill=SIDE_FILL[tree["side"]],
                         outline=edge, width=4)
            _paste(image, icon("Tree", 46, bool(tree.get("shadow"))), cx, cy - 11)
        _badges(draw, tree, [(x + 11, y + 11), (x + 11, y + CELL - 11), (x + 11, cy)])
    if floor is not None and piece is None:  # a fainted goat alone: on its side, "zz"
        _disc(image, draw, floor, cx, cy, RADIUS, flip, ring(obs, floor["side"]))
        _badges(draw, floor, _slots(x, y))
    elif floor is not None:  # a piece stands on a fainted goat, which lies flat at the bottom of the square
        box = (x + 6, y + CELL - 29, x + CELL - 6, y + CELL - 5)
        draw.ellipse(box, fill=SIDE_FILL[floor["side"]], outline=ring(obs, floor["side"]), width=3)
        _paste(image, icon(floor["kind"], 22, lying=True), x + 22, y + CELL - 17)
        draw_centered(draw, (cx + 10, y + CELL - 17), "Go zz", 12, SIDE_TEXT[floor["side"]])
    if piece is not None:
        if tree is not None:
            _disc(image, draw, piece, cx, cy + 16, 19, flip, ring(obs, piece["side"]))
            _badges(draw, piece, [(x + CELL - 11, y + CELL - 11), (x + CELL - 11, cy)])
        else:
            radius, py = (25, cy - 14) if floor is not None else (RADIUS, cy)
            _disc(image, draw, piece, cx, py, radius, flip, ring(obs, piece["side"]))
            _badges(draw, piece, _slots(x, y))
        if piece.get("ink"):  # every ink token carries a "?"; the owner sees the shadows faded
            mx, my = x + CELL - 11, cy
            draw.ellipse((mx - 10, my - 10, mx + 10, my + 10), fill=(20, 20, 20), outline=(255, 255, 255), width=2)
            draw_centered(draw, (mx, my), "?", 13, (255, 255, 255))
    if virus is not None:  # an active virus rides its host in the top right corner
        vx, vy = x + CELL - 15, y + 15
        draw.ellipse((vx - 14, vy - 14, vx + 14, vy + 14), fill=SIDE_FILL[virus["side"]], outline=VIRUS, width=3)
        _paste(image, icon("Virus", 20), vx, vy)


def _slots(x: int, y: int) -> list[tuple[int, int]]:
    """Badge places of a lone token: top left, bottom left, bottom right, middle left."""
    return [(x + 11, y + 11), (x + 11, y + CELL - 11), (x + CELL - 11, y + CELL - 11), (x + 11, y + CELL // 2)]


def _disc(image: Image.Image, draw: ImageDraw.ImageDraw, p: dict[str, Any], cx: float, cy: float, radius: float,
          flip: bool, outline: tuple[int, int, int]) -> None:
    """A token: a disc in its side's colour ringed in its seat's colour, the animal, and its code below."""
    side = p["side"]
    fill, text = SIDE_FILL[side], SIDE_TEXT[side]
    shadow = bool(p.get("shadow"))
    if shadow:
        fill = tuple((c + 3 * 200) // 4 for c in fill)  # the owner sees the shadows faded
    edge = VIRUS if p["kind"] == "Virus" else outline
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill, outline=edge,
                 width=4 if radius > 24 else 3)
    big, labelled = radius > 30, radius >= 25  # the housed piece in a tree is too small for letters
    size = round(radius * (1.34 if big else 1.22 if labelled else 1.5))
    _paste(image, icon(p["kind"], size, shadow, bool(p.get("fainted"))), cx,
           cy - (radius * (0.16 if big else 0.2) if labelled else 0))
    if labelled:
        label = CODES[p["kind"]] + (" zz" if p.get("fainted") else "")
        draw_centered(draw, (cx, cy + radius * (0.72 if big else 0.62)), label, 12 if big else 10, text)
    if "facing" in p:
        dx, dy = FACING[p["facing"]]
        if flip:
            dx, dy = -dx, -dy
        length = math.hypot(dx, dy)
        ux, uy = dx / length, -dy / length
        tip = (cx + ux * (radius + 6), cy + uy * (radius + 6))
        base = (cx + ux * (radius - 6), cy + uy * (radius - 6))
        side_x, side_y = -uy * 7, ux * 7
        draw.polygon([tip, (base[0] + side_x, base[1] + side_y), (base[0] - side_x, base[1] - side_y)],
                     fill=(200, 40, 40), outline=(255, 255, 255))


def _paste(image: Image.Image, art: Image.Image | None, cx: float, cy: float) -> None:
    if art is not None:
        image.paste(art, (round(cx - art.width / 2), round(cy - art.height / 2)), art)


def icon_path(kind: str) -> Path:
    return ICONS / f"{kind.lower()}.png"


@cache
def load_icon(kind: str) -> Image.Image:
    """The piece's animal at full size (96 px, RGBA), from the PNG shipped in ``render/icons/zodiac``."""
    with Image.open(icon_path(kind)) as source:
        return source.convert("RGBA")


@cache
def icon(kind: str, size: int, faded: bool = False, lying: bool = False) -> Image.Image | None:
    """The animal scaled to ``size`` px, faded for the owner's ink shadows, on its side for a fainted goat.
    None if the file is missing: the token then still shows its code."""
    try:
        art = load_icon(kind).resize((size, size), Image.Resampling.LANCZOS)
    except OSError:
        return None
    if lying:
        art = art.rotate(90)
    if faded:
        art.putalpha(art.getchannel("A").point(lambda a: a * 2 // 5))
    return art


def _badges(draw: ImageDraw.ImageDraw, p: dict[str, Any], slots: list[tuple[int, int]]) -> None:
    shown = [b for b in BADGES if p.get(b)]
    for (bx, by), key in zip(slots, shown, strict=False):
        letter, colour = BADGES[key]
        # the gold king badge: a dark letter and rim (white on gold was 2:1, and it vanished on the yellow last move)
        ink = INK if key == "king" else (255, 255, 255)
        draw.ellipse((bx - 10, by - 10, bx + 10, by + 10), fill=colour, outline=ink, width=2)
        draw_centered(draw, (bx, by), letter, 12, ink)


def side_label(obs: dict[str, Any], side: str | None) -> Named | str:
    """``Light``/``Dark`` with the player's display name once the sides are known (``text`` cuts the name, never
    the side)."""
    light_seat = obs.get("light_seat")
    names = obs.get("player_names") or []
    if side not in ("Light", "Dark") or light_seat is None:
        return str(side)
    seat = light_seat if side == "Light" else 1 - light_seat
    name = names[seat] if seat < len(names) else None
    return Named.of(name) + f" ({side})" if name else side


def _draw_header(draw: ImageDraw.ImageDraw, obs: dict[str, Any], width: int) -> None:
    names = obs["seat_names"]
    outcome = obs.get("outcome")
    lines: list[Named | str] = []
    if outcome is not None:
        winners = outcome["winners"]
        title: Named | str = "Draw" if len(winners) != 1 else seat_named(obs, winners[0]) + " wins"
        lines.append(outcome["reason"])
        kings = obs.get("kings")
        if kings:
            lines.append(f"Kings: {names[0]} {kings[0]}, {names[1]} {kings[1]}")
    else:
        phase = obs.get("phase")
        movers = [seat_named(obs, s) for s in obs["to_move"] if s >= 0]
        if obs.get("pending"):
            title = f"Dice: {obs['turn']}'s monkey needs {obs['pending']['need']}+"
        elif phase == "duel":
            title = "Side duel: pick in secret"
            rounds = obs["duel"]["rounds"]
            if rounds:
                lines.append("Tied: " + ", ".join(f"{a} v {b}" for a, b in rounds))
        elif phase == "king":
            title = "Kings are being chosen in secret"
        elif phase == "side":
            title = Named.join(" / ", movers) + " chooses Light or Dark"
        elif phase == "place":
            title = side_label(obs, obs.get("turn")) + " to place a piece"
        else:
            title = side_label(obs, obs.get("turn")) + " to move"
            if obs.get("chain"):
                title += f" (extra turn: {obs['chain']['piece']})"
        if obs.get("my_king"):
            lines.append(f"Your king: {obs['my_king']}" + (f" ({obs['my_side']})" if obs.get("my_side") else ""))
    if obs.get("light_seat") is None and obs.get("player_names"):  # sides not chosen yet: who plays at all
        lines.insert(0, Named.join(" vs ", [seat_named(obs, s) for s in range(2)]))
    right = width - RIGHT
    text(draw, (LEFT, 6), title, 22, box=(LEFT, 4, right, 36), min_size=13)
    for i, line in enumerate(lines[:2]):
        text(draw, (LEFT, 38 + 18 * i), line, 14, box=(LEFT, 36 + 18 * i, right, 54 + 18 * i), fill=MUTED)


def _draw_footer(image: Image.Image, draw: ImageDraw.ImageDraw, obs: dict[str, Any], width: int, y: int) -> None:
    right = width - RIGHT
    last = obs.get("last")
    if last:
        lost = f" - lost {', '.join(last['lost'])}" if last.get("lost") else ""
        text(draw, (LEFT, y + 2), f"Last: {last['side']} {last['text']}{lost}", 16, box=(LEFT, y, right, y + 22))
    roll = obs.get("roll")
    if roll:
        verdict = "safe" if roll["ok"] else "the monkey fell"
        text(draw, (LEFT, y + 24), f"Die: {roll['roll']} (needed {roll['need']}+, {verdict})", 16,
             box=(LEFT, y + 22, right, y + 44))
    captured = obs.get("captured") or {}
    for i, side in enumerate(("Light", "Dark")):
        row = y + 60 + 30 * i
        label = text(draw, (LEFT, row), side_label(obs, side) + " lost:", 16,  # names both players
                     box=(LEFT, row - 14, LEFT + (right - LEFT) // 2, row + 14), fill=MUTED, anchor="lm")
        kinds = [k.split()[0] for k in captured.get(side, [])]
        if not kinds:
            text(draw, (label[2] + 8, row), "-", 16, box=(label[2], row - 14, right, row + 14), fill=MUTED, anchor="lm")
            continue
        # The shipped animal icons on discs of the side's colour: readable at phone width, unlike codes.
        room = right - label[2] - 8
        step = min(34, room // len(kinds))
        radius = max(6, step // 2 - 1)
        for k, kind in enumerate(kinds):
            cx = label[2] + 8 + step * k + step // 2
            draw.ellipse((cx - radius, row - radius, cx + radius, row + radius), fill=SIDE_FILL[side],
                         outline=ring(obs, side), width=2)
            art = icon(kind, round(radius * 1.5)) if kind in CODES else None
            if art is not None:
                _paste(image, art, cx, row)
            else:
                draw_centered(draw, (cx, row), CODES.get(kind, kind[:2]), 10, SIDE_TEXT[side],
                              box=(cx - radius, row - radius, cx + radius, row + radius))
