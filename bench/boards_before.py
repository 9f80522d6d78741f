"""Boards drawn as before issue 24's layer caches, for the benches' baseline and the tests' reference.

``render.zrtz`` now starts a board from cached layers (the table, every ring, the panel's frame) and lifts out
what differs, and ``render.zarathustra`` and ``render.ziggurat`` from their empty boards; ``zrtz``, ``zarathustra``
and ``ziggurat`` here paint every part in turn, as the renderers did before (their code kept as it was, with the
modules' own helpers). ``tests/render/test_cached_layers.py`` checks that both give the same pixels and texts over
seeded positions, and ``bench/bench_bot.py`` draws ZÈRTZ with it on the old side.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

import render.ziggurat as ziggurat_board
from engines.zrtz.board import board
from render.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PAPER,
    SEAT_COLOURS,
    draw_centered,
    highlights,
    pick_frame,
    readable,
    text,
    text_colour,
    to_png,
)
from render.zarathustra import (
    BOARD_SIDE,
    BOARD_TOP,
    FILE_GUTTER,
    FILES,
    GRID,
    RANK_GUTTER,
    SQUARE,
    TRAY_ROW,
    TRAY_TOP,
    draw_ghost,
    draw_header,
    draw_marks,
    draw_tray,
    last_move_frame,
    skull_image,
    square_xy,
    tile_image,
)
from render.zarathustra import (
    WIDTH as ZARATHUSTRA_WIDTH,
)
from render.zrtz import (
    BOARD_H,
    BOARD_W,
    HEIGHT,
    MARBLE_LABEL,
    OFFERED,
    OFFERED_TINT,
    PANEL_X,
    POOL_ROW_Y,
    RING_EDGE,
    SEAT_ROW_Y,
    TABLE,
    WIDTH,
    builder_marks,
    count_box,
    cross,
    dashed_circle,
    layout,
    marble,
    notation,
    paste_label,
    pick_width,
    ring,
    seat_named,
    title,
)


def zrtz(obs: dict[str, Any]) -> bytes:
    """``render.zrtz.render`` as it was: every ring, name and panel part painted in turn."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((8, 8, BOARD_W, BOARD_H), radius=18, fill=TABLE)
    centres, pitch = layout(obs["rings"])
    names: list[str] = obs["names"]
    cells: str = obs["cells"]
    last = obs.get("last") or {}
    mover_colour = SEAT_COLOURS[last.get("seat", 0) % len(SEAT_COLOURS)]
    ring_r = pitch * 0.46
    ball_r = pitch * 0.40

    # Column letters under each column's bottom ring.
    geo = board(obs["rings"])
    for letter in geo.columns:
        x, y = centres[f"{letter}1"]
        draw_centered(draw, (x, y + ring_r + 16), letter, 24, INK)

    claimed = {name for name, _ in last.get("claimed", [])}
    for name in claimed:
        dashed_circle(draw, centres[name], ring_r * 0.8, MUTED, 2)
    if last.get("removed"):
        dashed_circle(draw, centres[last["removed"]], ring_r, mover_colour, 4)
        cross(draw, centres[last["removed"]], ring_r * 0.35, mover_colour, 4)

    label_size = max(readable(WIDTH), int(pitch * 0.42))  # 9 px or more at 400 px wide
    capture = last.get("kind") == "capture"
    marked = {name for name, _ in last.get("jumped", [])} | set(last.get("path", [])) if capture else set()
    marks = builder_marks(obs)
    for name, symbol in zip(names, cells, strict=True):
        if symbol == "x":
            continue
        x, y = centres[name]
        ring(draw, (x, y), ring_r, marks.get(name))  # the module's own, as the renderer's marks changed since
        if symbol == "." and name not in marked:
            paste_label(image, name, label_size, (x, y), ring_r)

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
            small = max(readable(WIDTH), int(label_size * 0.8))
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


def counts_row(draw: ImageDraw.ImageDraw, x: int, y: int, counts: dict[str, int],
               goal: dict[str, int] | None, marks: dict[str, str], space: str) -> None:
    """Three marbles with their counts (and the goal, for a player's captures); a colour the move builder
    marks (target ``<space>:<colour>``) sits on a tinted box."""
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
        colour = text_colour(SEAT_COLOURS[seat])
        draw.rounded_rectangle((x - 6, y - 6, WIDTH - 12, y + 96), radius=10, outline=colour, width=3)
        tab = (x + 2, y - 4, WIDTH - 16, y + 28)
        label_text = seat_named(obs, seat)  # over the marbles they captured, against the goal
        if not outcome and obs["turn"] == seat:  # a filled tab marks the player to move (the title names them)
            draw.rounded_rectangle((x - 6, y - 6, WIDTH - 12, y + 30), radius=10, fill=colour)
            text(draw, (x + 4, y + 12), label_text, 22, box=tab, fill=PAPER, anchor="lm")
        else:
            text(draw, (x + 4, y + 12), label_text, 22, box=tab, fill=colour, anchor="lm")
        counts_row(draw, x, SEAT_ROW_Y[seat], obs["captured"][seat], goal, marks, f"captured:{seat}")
        y += 120
    text(draw, (x, y + 4), "Pool", 22)
    counts_row(draw, x, POOL_ROW_Y, obs["pool"], None, marks, "supply")
    y += 100
    rules = (f"Win: {goal['w']} white, {goal['g']} grey, {goal['b']} black or {goal['each']} of each. "
             "Filling the last vacant ring also wins.")
    text(draw, (x, y), rules, 19, box=(x, y, right, y + 116), fill=MUTED, lines=4)
    y += 116
    last = obs.get("last")
    if last and last.get("kind") in ("place", "capture"):
        shown = notation(last)
        if last.get("claimed"):
            shown += f" +{len(last['claimed'])} isolated"
        text(draw, (x, y + 14), "Last move", 19, fill=MUTED)
        text(draw, (x, y + 40), shown, 24, box=(x, y + 40, right, HEIGHT - 8),
             fill=text_colour(SEAT_COLOURS[last["seat"]]), lines=2)


def zarathustra(obs: dict[str, Any]) -> bytes:
    """``render.zarathustra.render`` as it was: the paper and the empty board drawn anew for every board."""
    players = len(obs["hands"])
    height = int(TRAY_TOP + players * TRAY_ROW + 4)
    image = Image.new("RGBA", (ZARATHUSTRA_WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw_header(draw, obs)
    _zarathustra_board(image, draw, obs, BOARD_TOP)
    draw_tray(image, draw, obs, TRAY_TOP)
    draw_marks(image, obs)
    return to_png(image.convert("RGB"))


def _zarathustra_board(image: Image.Image, draw: ImageDraw.ImageDraw, obs: dict[str, Any], top: float) -> None:
    size = obs["size"]
    cell = BOARD_SIDE / size
    side = int(cell)
    for f in range(size):
        for r in range(size):
            x, y = RANK_GUTTER + f * cell, top + (size - 1 - r) * cell
            draw.rectangle((x, y, x + cell, y + cell), fill=SQUARE, outline=GRID, width=1)
    for i in range(size):
        draw_centered(draw, (RANK_GUTTER / 2, top + (size - 1 - i + 0.5) * cell), str(i + 1), 16, MUTED)
        draw_centered(draw, (RANK_GUTTER + (i + 0.5) * cell, top + BOARD_SIDE + FILE_GUTTER / 2), FILES[i], 16,
                      MUTED)
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
        last_move_frame(draw, *square_xy(last["square"], size, cell, top), cell, side)  # as the renderer's now


def ziggurat(obs: dict[str, Any]) -> bytes:
    """``render.ziggurat.render`` as it was: the paper and the empty board drawn anew for every board."""
    image = Image.new("RGB", (ziggurat_board.WIDTH, ziggurat_board.HEIGHT), PAPER)
    picked, offered = highlights(obs)
    ziggurat_board.draw_board(ImageDraw.Draw(image))
    return ziggurat_board.paint(image, obs, picked, offered)
