"""Zaic board image: a top-down view where the height of every stack is obvious at a glance.

Height shows three ways at once: a deeper shade of the colour, a thicker tile outline and the stack
height written in each square. The view crops to what is used plus the two rows and columns a new
tile could reach; squares outside the 8x8 limit that is still possible are hatched.
Built only from ``Zaic.observation()``.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import INK, MUTED, PAPER, SEAT_COLOURS, draw_centered, seat_label, text, to_png

COLUMNS = "abcdefghijklmno"
# Fill per level (1, 2, 3, 4+): higher is deeper for both colours.
FILLS = (
    ((247, 238, 212), (236, 212, 146), (222, 182, 84), (196, 146, 36)),   # Light
    ((120, 178, 222), (40, 118, 186), (12, 74, 140), (4, 42, 92)),       # Dark
)
NUMBER_INK = ((INK, INK, INK, INK), (INK, (255, 255, 255), (255, 255, 255), (255, 255, 255)))
LAST = (213, 94, 0)          # vermillion: the tile just placed
GROUP = SEAT_COLOURS[2]      # bluish green: the largest areas once the game is over
GRID = (222, 218, 208)
HATCH = (205, 200, 190)
AREA = 560     # the board's square, whatever part of the grid is in view
HEADER = 92
FOOTER = 96


def _rc(name: str) -> tuple[int, int]:
    """(row, col), 0-based, of a square name like ``h8``."""
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def _fill(owner: int, height: int) -> tuple[int, int, int]:
    return FILLS[owner][min(height, 4) - 1]


def render(obs: dict[str, Any]) -> bytes:
    return to_png(draw_board(obs))


def draw_board(obs: dict[str, Any]) -> Image.Image:
    """The whole picture: header (turn or result), board, footer (supplies, last move)."""
    stacks: dict[tuple[int, int], list[int]] = {_rc(sq): owners for sq, owners in obs["stacks"].items()}
    top: dict[tuple[int, int], int] = {_rc(sq): t for sq, t in obs["top_tiles"].items()}
    frame_rows, frame_cols = obs["frame"]["rows"], obs["frame"]["cols"]
    grid = obs["grid"]
    if stacks:
        rows = [r for r, _ in stacks]
        cols = [c for _, c in stacks]
        used = (min(rows), max(rows), min(cols), max(cols))
    else:
        used = (grid // 2, grid // 2, grid // 2, grid // 2)
    # Two squares beyond the footprint (a new tile reaches that far), at most one past the frame.
    r0 = max(0, used[0] - 2, frame_rows[0] - 1)
    r1 = min(grid - 1, used[1] + 2, frame_rows[1] + 1)
    c0 = max(0, used[2] - 2, frame_cols[0] - 1)
    c1 = min(grid - 1, used[3] + 2, frame_cols[1] + 1)
    n_rows, n_cols = r1 - r0 + 1, c1 - c0 + 1
    # One image size for the whole game: the view is scaled into a fixed square and centred in it.
    cell = min(80, AREA // max(n_rows, n_cols))
    left, header, right = 34, HEADER, 16
    board_w, board_h = n_cols * cell, n_rows * cell
    width = left + AREA + right
    height = header + AREA + 30 + FOOTER
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)
    x0 = left + (AREA - board_w) // 2
    y0 = header + (AREA - board_h) // 2

    def box(r: int, c: int) -> tuple[int, int, int, int]:
        """Pixel box of square (r, c); row 1 is at the bottom."""
        x = x0 + (c - c0) * cell
        y = y0 + (r1 - r) * cell
        return x, y, x + cell, y + cell

    _draw_grid(draw, obs, box, (r0, r1, c0, c1), cell)
    _draw_tiles(draw, obs, stacks, top, box, cell)
    if not stacks:
        x, y, x2, y2 = box(grid // 2, grid // 2)
        draw.rectangle((x + 4, y + 4, x2 - 4, y2 - 4), outline=MUTED, width=3)
        draw_centered(draw, ((x + x2) / 2, (y + y2) / 2), "h8", int(cell * 0.36), MUTED, box=(x, y, x2, y2))
    _draw_marks(draw, obs, stacks, top, box, cell)
    for c in range(c0, c1 + 1):
        x, _, x2, y2 = box(r0, c)
        draw_centered(draw, ((x + x2) / 2, y2 + 14), COLUMNS[c], 16, MUTED)
    for r in range(r0, r1 + 1):
        _, y, x, y2 = box(r, c0)
        draw_centered(draw, (x0 - 16, (y + y2) / 2), str(r + 1), 16, MUTED)
    _draw_header(draw, obs, stacks, width)
    _draw_footer(draw, obs, width, header + AREA + 30)
    return image


def _draw_grid(draw: ImageDraw.ImageDraw, obs: dict[str, Any], box: Any, view: tuple[int, int, int, int],
               cell: int) -> None:
    """Empty squares: a faint grid inside the still-possible frame, hatching outside it."""
    r0, r1, c0, c1 = view
    fr, fc = obs["frame"]["rows"], obs["frame"]["cols"]
    for r in range(r0, r1 + 1):
        for c in range(c0, c1 + 1):
            x, y, x2, y2 = box(r, c)
            if fr[0] <= r <= fr[1] and fc[0] <= c <= fc[1]:
                draw.rectangle((x, y, x2, y2), outline=GRID, width=1)
            else:
                for k in range(0, 2 * cell, 10):
                    draw.line((x + max(0, k - cell), y + min(k, cell), x + min(k, cell), y + max(0, k - cell)),
                              fill=HATCH, width=2)
    # The sides of the frame that fall inside the view; a side beyond the view is left open.
    top_left = box(min(fr[1], r1), max(fc[0], c0))
    bottom_right = box(max(fr[0], r0), min(fc[1], c1))
    xa, ya, xb, yb = top_left[0], top_left[1], bottom_right[2], bottom_right[3]
    sides = ((fr[1] <= r1, (xa, ya - 1, xb, ya + 1)), (fr[0] >= r0, (xa, yb - 1, xb, yb + 1)),
             (fc[0] >= c0, (xa - 1, ya, xa + 1, yb)), (fc[1] <= c1, (xb - 1, ya, xb + 1, yb)))
    for inside, rect in sides:
        if inside:
            draw.rectangle(rect, fill=MUTED)


def _draw_tiles(draw: ImageDraw.ImageDraw, obs: dict[str, Any], stacks: dict[tuple[int, int], list[int]],
                top: dict[tuple[int, int], int], box: Any, cell: int) -> None:
    """Visible part of every tile: fill by colour and level, outline where the tile on top changes."""
    for (r, c), owners in stacks.items():
        h = len(owners)
        owner = owners[-1]
        x, y, x2, y2 = box(r, c)
        draw.rectangle((x, y, x2, y2), fill=_fill(owner, h))
    for (r, c), owners in stacks.items():
        h = len(owners)
        t = top[(r, c)]
        x, y, x2, y2 = box(r, c)
        w = 1 + 2 * min(h, 4)
        sides = (((r + 1, c), (x, y, x2, y + w)), ((r - 1, c), (x, y2 - w, x2, y2)),
                 ((r, c - 1), (x, y, x + w, y2)), ((r, c + 1), (x2 - w, y, x2, y2)))
        for neighbour, rect in sides:
            if top.get(neighbour) != t:
                draw.rectangle(rect, fill=INK)
        draw_centered(draw, ((x + x2) / 2, (y + y2) / 2), str(h), int(cell * 0.42),
                      NUMBER_INK[owners[-1]][min(h, 4) - 1], box=(x, y, x2, y2))


def _draw_marks(draw: ImageDraw.ImageDraw, obs: dict[str, Any], stacks: dict[tuple[int, int], list[int]],
                top: dict[tuple[int, int], int], box: Any, cell: int) -> None:
    """The last tile outlined; once the game is over, each colour's largest area outlined."""
    if obs["outcome"] is not None:
        for squares in obs["largest"]:
            region = {_rc(sq) for sq in squares}
            _outline(draw, region, box, GROUP, inset=cell // 7, width=4)
    last = obs["last_tile"]
    if last is not None:
        region = {rc for rc, t in top.items() if t == last}
        _outline(draw, region, box, LAST, inset=0, width=5)


def _outline(draw: ImageDraw.ImageDraw, region: set[tuple[int, int]], box: Any, colour: tuple[int, int, int],
             inset: int, width: int) -> None:
    """Trace the border of a set of squares, ``inset`` pixels inside it (concave corners included)."""

    def reach(r: int, c: int, dr: int, dc: int, out_r: int, out_c: int) -> int:
        """How far a side line runs past its square towards (dr, dc): -inset, 0 or +inset pixels."""
        if (r + dr, c + dc) not in region:
            return -inset
        return inset if (r + dr + out_r, c + dc + out_c) in region else 0

    for r, c in region:
        x, y, x2, y2 = box(r, c)
        w = width - 1
        if (r + 1, c) not in region:  # top side; runs west-east
            a, b = reach(r, c, 0, -1, 1, 0), reach(r, c, 0, 1, 1, 0)
            draw.rectangle((x - a, y + inset, x2 + b, y + inset + w), fill=colour)
        if (r - 1, c) not in region:
            a, b = reach(r, c, 0, -1, -1, 0), reach(r, c, 0, 1, -1, 0)
            draw.rectangle((x - a, y2 - inset - w, x2 + b, y2 - inset), fill=colour)
        if (r, c - 1) not in region:  # west side; runs north-south
            a, b = reach(r, c, 1, 0, 0, -1), reach(r, c, -1, 0, 0, -1)
            draw.rectangle((x + inset, y - a, x + inset + w, y2 + b), fill=colour)
        if (r, c + 1) not in region:
            a, b = reach(r, c, 1, 0, 0, 1), reach(r, c, -1, 0, 0, 1)
            draw.rectangle((x2 - inset - w, y - a, x2 - inset, y2 + b), fill=colour)


def _swatch(draw: ImageDraw.ImageDraw, x: int, y: int, owner: int, size: int = 18) -> None:
    draw.rectangle((x, y, x + size, y + size), fill=_fill(owner, 2), outline=INK, width=2)


def _draw_header(draw: ImageDraw.ImageDraw, obs: dict[str, Any], stacks: dict[tuple[int, int], list[int]],
                 width: int) -> None:
    names = obs["seat_names"]
    outcome = obs["outcome"]
    if outcome is None:
        turn = obs["turn"]
        _swatch(draw, 14, 12, turn, 22)
        title = f"{seat_label(obs, turn)} to move"
    else:
        winners = outcome["winners"]
        title = "Draw" if len(winners) != 1 else f"{seat_label(obs, winners[0])} wins"
        if len(winners) == 1:
            _swatch(draw, 14, 12, winners[0], 22)
    text(draw, (44, 8), title, 24, box=(44, 4, width - 14, 38), min_size=14)
    sizes = [g[0] if g else 0 for g in obs["groups"]]
    if stacks:
        rows = [int(sq[1:]) for sq in obs["stacks"]]
        cols = [COLUMNS.index(sq[0]) for sq in obs["stacks"]]
        area = f" · area {max(cols) - min(cols) + 1}x{max(rows) - min(rows) + 1} of {obs['limit']}x{obs['limit']}"
    else:
        area = ""
    line = f"Largest area: {names[0]} {sizes[0]}, {names[1]} {sizes[1]}{area}"
    if not stacks:
        line = "The first tile goes on h8 (marked), any size and direction"
    if outcome is not None:
        line = outcome["reason"]
    text(draw, (14, 42), line, 16, box=(14, 40, width - 14, HEADER - 4), lines=2)


def _draw_footer(draw: ImageDraw.ImageDraw, obs: dict[str, Any], width: int, y: int) -> None:
    names = obs["seat_names"]
    for seat in (0, 1):
        left = obs["supply"][seat]
        _swatch(draw, 14, y + 4 + seat * 28, seat)
        row = (42, y + seat * 28, width - 14, y + 26 + seat * 28)
        counts = f"2x2: {left['2x2']} · 2x1: {left['2x1']} · 1x1: {left['1x1']}"
        text(draw, (width - 14, y + 13 + seat * 28), counts, 18, box=row, anchor="rm")
        room = (42, row[1], width - 14 - 250, row[3])
        text(draw, (42, y + 13 + seat * 28), f"{seat_label(obs, seat)} has", 18, box=room, anchor="lm")
    last = obs["last_move"]
    if last is not None and obs["last_tile"] is not None:
        who = names[obs["tiles"][obs["last_tile"]]["owner"]]
        note = f"Last: {who} {last}  (outlined)"
        if obs["outcome"] is not None:
            note += " · green: largest areas"
        text(draw, (14, y + 62), note, 16, box=(14, y + 58, width - 14, y + FOOTER - 4),
             fill=LAST if obs["outcome"] is None else INK)
