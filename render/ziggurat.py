"""Ziggurat board image: the stepped pyramid seen from above, built only from an observation.

Levels are shaded from the rim (light) to the peak (dark) with a step edge between them; the
diagonals are the pyramid's ridges (the corners). Each colour's walls are coloured ramps on the
edge it climbs over, its Goal a large outlined pyramid, its Start Station a box off the board.
Stacks are side-view pyramids from the bottom piece up, Queens wider with a crown notch.
A move builder's marks: a picked square, station or die gets a black-and-white frame (``pick_frame``), never
the last move's yellow; an offered one a green ring (dice also a green face), drawn inside the last-move outline
so both stay visible.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    NAME_CHARS,
    OFFERED,
    PAPER,
    SEAT_COLOURS,
    Drawn,
    Hotspot,
    Named,
    clean,
    highlights,
    note,
    pick_frame,
    readable,
    recording,
    text_colour,
    text_width,
    to_png,
)
from render.common import text as write

SQ = 80
MARGIN = 118
STATION_GAP = 26  # start stations stand this far off the board, clear of the coordinates
HEADER = 100
FOOTER_SIZE = 20
FOOTER = 64  # two lines: who plays which colour (and the teams), then the legend or this turn's moves
WIDTH = 2 * MARGIN + 8 * SQ
CAP_HEIGHT = 0.73
"""A capital's height over the font size, bold DejaVu Sans (16 px at 22): fits a lower piece's letter to its band."""
HEIGHT = HEADER + 2 * MARGIN + 8 * SQ + FOOTER
LEVEL_FILL = {1: (238, 226, 196), 2: (220, 200, 156), 3: (199, 172, 120), 4: (172, 140, 88)}
STEP_EDGE = (120, 96, 60)
FILES = "abcdefgh"
BADGE = 20
"""Font size of the header's badges and last-turn line: readable at phone width."""
LETTER_COLOUR = {"B": 0, "O": 1, "G": 2, "P": 3}
ARROWS = {  # (square, direction) per level: counterclockwise travel
    1: (("e1", "e"), ("h5", "n"), ("d8", "w"), ("a4", "s")),
    2: (("e2", "e"), ("g5", "n"), ("d7", "w"), ("b4", "s")),
    3: (("d3", "e"), ("f4", "n"), ("e6", "w"), ("c5", "s")),
}
STEP = {"e": (1, 0), "n": (0, 1), "w": (-1, 0), "s": (0, -1)}


def level(x: int, y: int) -> int:
    return max(0, min(x, y, 9 - x, 9 - y))


def origin(x: int, y: int) -> tuple[int, int]:
    """Top-left pixel of board cell (x, y), files/ranks 1..8 (0 and 9 are the margins)."""
    return MARGIN + (x - 1) * SQ, HEADER + MARGIN + (8 - y) * SQ


def cell(name: str) -> tuple[int, int]:
    return FILES.index(name[0]) + 1, int(name[1])


def lighten(colour: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    r, g, b = colour
    return (int(r + (255 - r) * amount), int(g + (255 - g) * amount), int(b + (255 - b) * amount))


def draw_board(draw: ImageDraw.ImageDraw) -> None:
    for x in range(1, 9):
        for y in range(1, 9):
            px, py = origin(x, y)
            draw.rectangle((px, py, px + SQ, py + SQ), fill=LEVEL_FILL[level(x, y)])
    for x in range(1, 9):  # step edges where the level changes
        for y in range(1, 9):
            px, py = origin(x, y)
            lev = level(x, y)
            if x < 8 and level(x + 1, y) != lev:
                draw.line((px + SQ, py, px + SQ, py + SQ), fill=STEP_EDGE, width=3)
            if y < 8 and level(x, y + 1) != lev:
                draw.line((px, py, px + SQ, py), fill=STEP_EDGE, width=3)
    left, top = origin(1, 8)
    right, bottom = left + 8 * SQ, top + 8 * SQ
    ridge = (150, 125, 85)
    draw.line((left, top, right, bottom), fill=ridge, width=1)
    draw.line((left, bottom, right, top), fill=ridge, width=1)
    draw.rectangle((left, top, right, bottom), outline=STEP_EDGE, width=3)
    for lev, arrows in ARROWS.items():
        for square, direction in arrows:
            px, py = origin(*cell(square))
            cx, cy = px + SQ // 2, py + SQ - 12
            dx, dy = STEP[direction]
            tip = (cx + dx * 12, cy - dy * 12)
            tail = (cx - dx * 12, cy + dy * 12)
            shade = lighten(STEP_EDGE, 0.25 if lev > 1 else 0.35)
            draw.line((tail, tip), fill=shade, width=3)
            wing = ((tip[0] - dx * 7 + dy * 6, tip[1] + dy * 7 + dx * 6),
                    (tip[0] - dx * 7 - dy * 6, tip[1] + dy * 7 - dx * 6))
            draw.polygon((tip, *wing), fill=shade)
    for i, f in enumerate(FILES):
        px, _ = origin(i + 1, 1)
        write(draw, (px + SQ // 2, bottom + 12), f, 18, fill=MUTED, anchor="mm")
        write(draw, (px + SQ // 2, top - 12), f, 18, fill=MUTED, anchor="mm")
    for y in range(1, 9):
        _, py = origin(1, y)
        write(draw, (left - 12, py + SQ // 2), str(y), 18, fill=MUTED, anchor="mm")
        write(draw, (right + 12, py + SQ // 2), str(y), 18, fill=MUTED, anchor="mm")


def draw_layout(draw: ImageDraw.ImageDraw, layout: list[dict[str, Any]]) -> None:
    """Walls as coloured ramps on the edge they climb over; Goals as large outlined pyramids."""
    for entry in layout:
        if not entry["in_play"]:
            continue
        colour = SEAT_COLOURS[entry["colour"]]
        for wall in entry["walls"]:
            x, y = cell(wall)
            px, py = origin(x, y)
            lev = level(x, y)
            for dx, dy in STEP.values():
                if 1 <= x + dx <= 8 and 1 <= y + dy <= 8 and level(x + dx, y + dy) == lev + 1:
                    edge_x = px + (SQ if dx > 0 else 0)
                    edge_y = py + (SQ if dy < 0 else 0)
                    if dx:
                        draw.rectangle((edge_x - 6, py + 6, edge_x + 6, py + SQ - 6), fill=colour)
                        for k in range(4):
                            ry = py + 14 + k * 16
                            draw.line((edge_x - 6, ry, edge_x + 6, ry), fill=PAPER, width=2)
                    else:
                        draw.rectangle((px + 6, edge_y - 6, px + SQ - 6, edge_y + 6), fill=colour)
                        for k in range(4):
                            rx = px + 14 + k * 16
                            draw.line((rx, edge_y - 6, rx, edge_y + 6), fill=PAPER, width=2)
        gx, gy = origin(*cell(entry["goal"]))
        draw.rectangle((gx + 2, gy + 2, gx + SQ - 2, gy + SQ - 2), fill=lighten(colour, 0.55), outline=colour, width=4)
        draw.polygon(((gx + 10, gy + SQ - 8), (gx + SQ - 10, gy + SQ - 8), (gx + SQ // 2, gy + 10)),
                     outline=colour, width=3)


def draw_stack(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tokens: list[str]) -> None:
    """Side-view pyramids from the bottom piece up, overlapping so every piece and its order shows.
    Letters are as large as the visible band of each piece allows, so they read at phone width."""
    left, top, right, bottom = box
    if not tokens:
        return
    base_w, base_h = 62, 40
    room = bottom - top - 8 - base_h
    rise = min(20, room // max(1, len(tokens) - 1)) if len(tokens) > 1 else 0
    cx = (left + right) // 2
    for k, token in enumerate(tokens):
        queen = token.endswith("Q")
        colour = SEAT_COLOURS[LETTER_COLOUR[token[0]]]
        w, h = (base_w + 22, base_h + 6) if queen else (base_w, base_h)
        by = bottom - 4 - k * rise
        points = ((cx - w // 2, by), (cx + w // 2, by), (cx, by - h))
        draw.polygon(points, fill=colour, outline=INK, width=2)
        if queen:  # a crown notch on top, and "Q" in the label that stays visible under carried pieces
            draw.polygon(((cx - 6, by - h + 13), (cx, by - h + 5), (cx + 6, by - h + 13)), fill=PAPER)
        label = token[0] + ("Q" if queen else "")
        if k == len(tokens) - 1:
            write(draw, (cx, by - 2), label, 22, box=(cx - w // 2, by - h, cx + w // 2, by), fill=PAPER,
                  anchor="md", bold=True, min_size=8)
            continue
        # a lower piece shows a band ``rise`` high under the next one's base (2 px of outline): its letter stands
        # on its own baseline with capitals no taller than the band, else the piece above hides their tops
        size = min(22, int((rise - 5) / CAP_HEIGHT))
        if size < readable(WIDTH):  # too thin a band to letter readably: the colour band shows it
            continue
        write(draw, (cx, by - 3), label, size, box=(cx - w // 2, by - rise + 2, cx + w // 2, by), fill=PAPER,
              anchor="ms", bold=True, min_size=8)


def station_box(sx: int, sy: int) -> tuple[int, int, int, int]:
    """A Start Station's box: the margin cell beside the board, moved off it by ``STATION_GAP``."""
    px, py = origin(sx, sy)
    dx = -STATION_GAP if sx == 0 else STATION_GAP if sx == 9 else 0
    dy = -STATION_GAP if sy == 9 else STATION_GAP if sy == 0 else 0
    return px + dx + 2, py + dy + 2, px + dx + SQ - 2, py + dy + SQ - 2


def draw_stations(draw: ImageDraw.ImageDraw, obs: dict[str, Any], picked: Collection[str] = (),
                  offered: Collection[str] = ()) -> None:
    for entry in obs["layout"]:
        if not entry["in_play"]:
            continue
        colour = SEAT_COLOURS[entry["colour"]]
        sx, sy = entry["station"]
        box = station_box(sx, sy)
        key = f"start:{entry['name']}"
        draw.rounded_rectangle(box, radius=8, fill=lighten(colour, 0.8), outline=colour, width=3)
        if key in picked:
            pick_frame(draw, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), 4, radius=6)
        tokens = obs["stations"].get(entry["name"], [])
        draw_stack(draw, box, tokens)
        if key in offered:
            offer_ring(draw, box)
        label, ink = f"start {len(tokens)}", text_colour(colour)
        if sy in (0, 9):  # above or below the board: the label beside the box, towards the middle
            lx = box[2] + 8 if sx < 5 else box[0] - 8
            write(draw, (lx, (box[1] + box[3]) // 2), label, 16, fill=ink, anchor="lm" if sx < 5 else "rm")
        else:  # left or right of the board: the label above or below the box
            ly = box[1] - 4 if sy < 5 else box[3] + 4
            write(draw, ((box[0] + box[2]) // 2, ly), label, 16, fill=ink, anchor="md" if sy < 5 else "ma")


def draw_marks(draw: ImageDraw.ImageDraw, obs: dict[str, Any], marks: list[str]) -> None:
    for mark in marks:
        if mark.startswith("start:"):
            entry = next(e for e in obs["layout"] if e["name"] == mark[6:])
            x0, y0, x1, y1 = station_box(*entry["station"])
            draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=HIGHLIGHT, width=5)
        else:
            px, py = origin(*cell(mark))
            draw.rectangle((px + 1, py + 1, px + SQ - 1, py + SQ - 1), outline=HIGHLIGHT, width=5)


def die_width(face: str) -> int:
    return max(52, int(text_width(None, face, 20)) + 22)


def dice(obs: dict[str, Any]) -> list[tuple[str | None, str, bool, tuple[int, int, int, int]]]:
    """(target, face, spent, box) of each die in the header, movement dice first. The live die of each
    kind is the last one rolled; its target (``die:move`` / ``die:action``) is what the move builder's
    form picks point at."""
    rolled = obs["dice"]["rolled"]
    movement_faces = [r for r in rolled if r.isdigit()]
    action_faces = [r.capitalize() for r in rolled if not r.isdigit()]
    out: list[tuple[str | None, str, bool, tuple[int, int, int, int]]] = []
    x = 16
    kinds = ((movement_faces, "die:move", "movement_left"), (action_faces, "die:action", "action_left"))
    for faces, key, left in kinds:
        for k, face in enumerate(faces):
            last = k == len(faces) - 1
            w = die_width(face)
            out.append((key if last else None, face, not (last and obs["dice"][left] is not None), (x, 50, x + w, 94)))
            x += w + 10
    return out


def draw_die(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], face: str, spent: bool,
             colour: tuple[int, int, int], mark: str = "") -> None:
    """One die; ``mark`` is ``picked`` (the pick's frame) or ``offered`` (green face and ring)."""
    x, y, right, bottom = box
    plain = (235, 235, 235) if spent else PAPER
    fill = lighten(OFFERED, 0.7) if mark == "offered" else plain
    draw.rounded_rectangle(box, radius=9, fill=fill, outline=MUTED if spent else colour, width=3)
    if mark == "offered":
        draw.rounded_rectangle((x + 4, y + 4, right - 4, bottom - 4), radius=6, outline=OFFERED, width=4)
    elif mark == "picked":  # over the die's own outline: inside it, the frame would crowd the face
        pick_frame(draw, box, 3, radius=9)
    write(draw, ((x + right) // 2, y + 22), face, 20, box=box, fill=MUTED if spent else INK, anchor="mm")
    if spent:
        draw.line((x + 6, y + 38, right - 6, y + 6), fill=MUTED, width=3)


def who(obs: dict[str, Any], seat: int, colour: str) -> Named | str:
    """A colour as players know it: with its player's display name when the host gave one (``text`` cuts the
    name if need be, never the colour)."""
    names = obs.get("player_names") or []
    name = names[seat] if 0 <= seat < len(names) else None
    return Named.of(name) + f" ({colour})" if name else colour


def outcome_title(obs: dict[str, Any], outcome: dict[str, Any]) -> Named:
    """``<name> (<colour>) won: <why>``: drawn by ``text``, which cuts the names so the colours and the reason stay
    whole.

    At the round limit the reason is the short one (what decided it); the engine's long one lists every
    colour's standing, which the badges (pieces home) and the footer (squares travelled) show instead."""
    winners = Named.join(", ", [who(obs, s, obs["seat_names"][s]) for s in outcome["winners"]])
    limit = obs.get("limit")
    why = f"round limit {limit['round_limit']}, most {limit['decided_by']}" if limit else outcome["reason"]
    return winners + f" won: {why}"


def draw_header(draw: ImageDraw.ImageDraw, obs: dict[str, Any], picked: Collection[str] = (),
                offered: Collection[str] = ()) -> None:
    turn = obs["turn"]
    index = next(e["colour"] for e in obs["layout"] if e["name"] == turn["colour"])
    colour = SEAT_COLOURS[index]
    outcome = obs.get("outcome")
    mover = who(obs, turn.get("seat", -1), turn["colour"])
    title: Named | str
    if outcome:
        title = outcome_title(obs, outcome)
    elif turn["phase"] == "setup":
        title = mover + ": place the Queen"
    else:
        verb = "to roll" if turn["phase"] == "roll" else "to play"
        title = f"Round {turn['round']} · " + mover + f" {verb}"
    draw.rectangle((0, 0, WIDTH, 8), fill=colour)
    write(draw, (16, 30), title, 24, box=(16, 12, WIDTH - 16, 48), anchor="lm", min_size=14)
    rolled = obs["dice"]["rolled"]
    x = 16
    for key, face, spent, box in dice(obs):
        mark = "picked" if key in picked else "offered" if key in offered else ""
        draw_die(draw, box, face, spent, colour, mark)
        x = box[2] + 10
    home = obs["home"]
    hx = WIDTH - 16
    for entry in reversed(obs["layout"]):
        if not entry["in_play"]:
            continue
        badge = f"{entry['name']} {home[entry['name']]}/{obs['pieces_per_colour']}"
        w = int(text_width(draw, badge, BADGE))
        if hx - w - 14 < x + 10:
            break
        draw.rounded_rectangle((hx - w - 14, 56, hx, 88), radius=6, fill=lighten(SEAT_COLOURS[entry["colour"]], 0.75),
                               outline=SEAT_COLOURS[entry["colour"]], width=2)
        write(draw, (hx - 7, 72), badge, BADGE, box=(hx - w - 14, 56, hx, 88), anchor="rm")
        hx -= w + 22
    if not rolled and obs.get("last_turn"):
        last = obs["last_turn"]
        moves = ", ".join(last["moves"]) or "no move"
        line = f"last: {last['colour']} rolled {' '.join(last['rolls']) or '-'}; {moves}"
        write(draw, (16, 72), line, BADGE, box=(16, 56, hx - 6, 88), fill=MUTED, anchor="lm", lines=2)


def players_line(obs: dict[str, Any]) -> str:
    """Who plays which colour: ``Blue Ann · Orange 🤖 AI (hard)``, or in partners mode the two teams
    (opposite seats): ``Blue Ann & Green Zoë vs Orange Bo & Purple Cy``."""
    names = obs.get("player_names") or []
    line = ""
    # Long names are cut shorter rather than losing the last seats (an AI's name is short: never cut).
    for cut, prefix in ((NAME_CHARS, "Teams: "), (12, "Teams: "), (8, "Teams: "), (8, ""), (6, "")):

        def seat(s: int, cut: int = cut) -> str:
            name = names[s] if s < len(names) else None
            if not name:
                return obs["seat_names"][s]
            name = clean(name)
            kept = name if len(name) <= cut or name.startswith("🤖 AI") else name[: cut - 1].rstrip() + "…"
            return f"{obs['seat_names'][s]} {kept}"

        if obs["options"].get("mode") == "partners" and obs["players"] == 4:
            line = prefix + " vs ".join(f"{seat(a)} & {seat(a + 2)}" for a in (0, 1))
        else:
            line = " · ".join(seat(s) for s in range(obs["players"]))
        if text_width(None, line, FOOTER_SIZE) <= WIDTH - 16:
            break
    return line


def draw_footer(draw: ImageDraw.ImageDraw, obs: dict[str, Any]) -> None:
    moves = obs.get("turn_moves") or []
    limit = obs.get("limit") if obs.get("outcome") else None
    if limit:  # what decides a round-limit game after pieces home, shown nowhere else
        line = "squares travelled: " + " · ".join(
            f"{' & '.join(entry['colours'])} {entry['squares']}" for entry in limit["travelled"])
    elif moves:
        line = "this turn: " + ", ".join(moves)
    else:
        line = "home = outlined pyramid · coloured ramps = walls (climb there) · arrows = direction"
    top, middle = HEIGHT - FOOTER, HEIGHT - FOOTER // 2
    write(draw, (WIDTH // 2, top + 2), players_line(obs), FOOTER_SIZE, box=(8, top, WIDTH - 8, middle + 1), anchor="ma")
    write(draw, (WIDTH // 2, middle), line, FOOTER_SIZE, box=(8, middle, WIDTH - 8, HEIGHT), fill=MUTED, anchor="ma")


def square_hotspot(square: str) -> tuple[int, int, int, int]:
    """A square's pixels, its right and bottom edge lines left to the neighbours so no two overlap."""
    px, py = origin(*cell(square))
    return px, py, px + SQ - 1, py + SQ - 1


def hotspots(obs: dict[str, Any]) -> dict[str, Hotspot]:
    """Every square by name, each Start Station in play as ``start:<Colour>``, and the live dice."""
    spots = {f"{f}{r}": Hotspot("rect", square_hotspot(f"{f}{r}")) for f in FILES for r in range(1, 9)}
    for entry in obs["layout"]:
        if entry["in_play"]:
            spots[f"start:{entry['name']}"] = Hotspot("rect", station_box(*entry["station"]))
    for key, _, _, box in dice(obs):
        if key is not None:
            spots[key] = Hotspot("rect", box)
    return spots


def frame_squares(draw: ImageDraw.ImageDraw, squares: Collection[str]) -> None:
    """Picked squares get the pick's black-and-white frame inside the last-move outline, under their pieces (so
    the pieces read whole): the last move is yellow, so the two never mix up."""
    for square in squares:
        x0, y0, x1, y1 = square_hotspot(square)
        pick_frame(draw, (x0 + 7, y0 + 7, x1 - 7, y1 - 7), 5, radius=4)


def offer_ring(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    """A green ring just inside the box (inside any last-move outline): the next click may go here."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 7, y0 + 7, x1 - 7, y1 - 7), radius=8, outline=OFFERED, width=5)


@cache
def empty_board() -> tuple[Image.Image, tuple[Drawn, ...]]:
    """The paper with the board drawn on it and the notes of its coordinates, drawn once: it is the same on every
    picture (a fifth of a board's drawing time), and each board starts as a copy of it."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    with recording() as seen:
        draw_board(ImageDraw.Draw(image))
    return image, tuple(seen)


def render(obs: dict[str, Any]) -> bytes:
    picked, offered = highlights(obs)
    board, notes = empty_board()
    image = board.copy()
    for drawn in notes:
        note(drawn)  # the coordinates' texts, checked where a board is drawn as if drawn here
    return paint(image, obs, picked, offered)


def paint(image: Image.Image, obs: dict[str, Any], picked: set[str], offered: set[str]) -> bytes:
    """Everything of ``obs`` on ``image``, which holds the empty board already; the PNG."""
    draw = ImageDraw.Draw(image)
    draw_layout(draw, obs["layout"])
    squares = {f"{f}{r}" for f in FILES for r in range(1, 9)}
    marks = obs.get("marks") or (obs["last_turn"]["marks"] if obs.get("last_turn") else [])
    draw_marks(draw, obs, marks)
    frame_squares(draw, squares & picked)
    for square, tokens in obs["board"].items():
        px, py = origin(*cell(square))
        draw_stack(draw, (px, py, px + SQ, py + SQ), tokens)
    for square in sorted(squares & (offered - picked)):
        offer_ring(draw, square_hotspot(square))
    draw_stations(draw, obs, picked, offered - picked)
    draw_header(draw, obs, picked, offered - picked)
    draw_footer(draw, obs)
    return to_png(image)
