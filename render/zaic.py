"""Zaic board image: a top-down view where the height of every stack is obvious at a glance.

Height shows three ways at once: a deeper shade of the colour, a thicker tile outline and the stack
height written in each square. The view crops to what is used plus the two rows and columns a new
tile could reach; squares outside the 8x8 limit that is still possible are hatched.
Built only from ``Zaic.observation()``.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from PIL import Image, ImageDraw

from render.common import (
    INK,
    MUTED,
    OFFERED,
    PAPER,
    SEAT_COLOURS,
    Hotspot,
    draw_centered,
    highlights,
    pick_frame,
    seat_named,
    text,
    text_width,
    to_png,
)

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
LEFT, RIGHT = 34, 16
FOOTER_TOP = HEADER + AREA + 30
COUNT_SIZE = 18
SEPARATOR = " · "


def _rc(name: str) -> tuple[int, int]:
    """(row, col), 0-based, of a square name like ``h8``."""
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def _fill(owner: int, height: int) -> tuple[int, int, int]:
    return FILLS[owner][min(height, 4) - 1]


def render(obs: dict[str, Any]) -> bytes:
    return to_png(draw_board(obs))


class View(NamedTuple):
    """Which part of the grid is drawn and where: shared by the picture and its hotspots."""

    r0: int
    r1: int
    c0: int
    c1: int
    cell: int
    x0: int
    y0: int
    width: int
    height: int

    def box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Pixel box of square (r, c); row 1 is at the bottom. Its right and bottom edges are the next square's."""
        x = self.x0 + (c - self.c0) * self.cell
        y = self.y0 + (self.r1 - r) * self.cell
        return x, y, x + self.cell, y + self.cell


def view(obs: dict[str, Any]) -> View:
    """The window on the 15x15 grid: what is used plus two squares (a new tile reaches that far),
    at most one square past the still-possible frame; it moves and grows with the game."""
    frame_rows, frame_cols = obs["frame"]["rows"], obs["frame"]["cols"]
    grid = obs["grid"]
    if obs["stacks"]:
        rows = [int(sq[1:]) - 1 for sq in obs["stacks"]]
        cols = [COLUMNS.index(sq[0]) for sq in obs["stacks"]]
        used = (min(rows), max(rows), min(cols), max(cols))
    else:
        used = (grid // 2, grid // 2, grid // 2, grid // 2)
    r0 = max(0, used[0] - 2, frame_rows[0] - 1)
    r1 = min(grid - 1, used[1] + 2, frame_rows[1] + 1)
    c0 = max(0, used[2] - 2, frame_cols[0] - 1)
    c1 = min(grid - 1, used[3] + 2, frame_cols[1] + 1)
    n_rows, n_cols = r1 - r0 + 1, c1 - c0 + 1
    # One image size for the whole game: the view is scaled into a fixed square and centred in it.
    cell = min(80, AREA // max(n_rows, n_cols))
    x0 = LEFT + (AREA - n_cols * cell) // 2
    y0 = HEADER + (AREA - n_rows * cell) // 2
    return View(r0, r1, c0, c1, cell, x0, y0, LEFT + AREA + RIGHT, HEADER + AREA + 30 + FOOTER)


def draw_board(obs: dict[str, Any]) -> Image.Image:
    """The whole picture: header (turn or result), board, footer (supplies, last move)."""
    stacks: dict[tuple[int, int], list[int]] = {_rc(sq): owners for sq, owners in obs["stacks"].items()}
    top: dict[tuple[int, int], int] = {_rc(sq): t for sq, t in obs["top_tiles"].items()}
    grid = obs["grid"]
    v = view(obs)
    r0, r1, c0, c1, cell, x0 = v.r0, v.r1, v.c0, v.c1, v.cell, v.x0
    width = v.width
    image = Image.new("RGB", (width, v.height), PAPER)
    draw = ImageDraw.Draw(image)
    box = v.box
    _draw_grid(draw, obs, box, (r0, r1, c0, c1), cell)
    _draw_tiles(draw, obs, stacks, top, box, cell)
    if not stacks:
        x, y, x2, y2 = box(grid // 2, grid // 2)
        draw.rectangle((x + 4, y + 4, x2 - 4, y2 - 4), outline=MUTED, width=3)
        draw_centered(draw, ((x + x2) / 2, (y + y2) / 2), "h8", int(cell * 0.36), MUTED, box=(x, y, x2, y2))
    _draw_marks(draw, obs, stacks, top, box, cell)
    picked, offered = highlights(obs)
    _draw_square_highlights(draw, v, picked, offered)
    for c in range(c0, c1 + 1):
        x, _, x2, y2 = box(r0, c)
        draw_centered(draw, ((x + x2) / 2, y2 + 14), COLUMNS[c], 16, MUTED)
    for r in range(r0, r1 + 1):
        _, y, x, y2 = box(r, c0)
        draw_centered(draw, (x0 - 16, (y + y2) / 2), str(r + 1), 16, MUTED)
    _draw_header(draw, obs, stacks, width)
    _draw_supply_highlights(draw, obs, width, picked, offered)
    _draw_footer(draw, obs, width, FOOTER_TOP)
    return image


# ----- move builder: hotspots and highlights ---------------------------------------------

def _square_spot(v: View, r: int, c: int) -> tuple[int, int, int, int]:
    """A square's own pixels (its right and bottom edges belong to the neighbours), so spots never overlap."""
    x, y, x2, y2 = v.box(r, c)
    return x, y, x2 - 1, y2 - 1


def _supply_spots(obs: dict[str, Any], width: int) -> dict[str, tuple[int, int, int, int]]:
    """Each ``2x2: 8`` count on the row of the player to move: where the size of the next tile is chosen."""
    seat = obs["turn"]
    if seat is None or obs["outcome"] is not None:
        return {}
    pieces = _counts(obs["supply"][seat])
    line = SEPARATOR.join(pieces)
    right = width - 14
    start = right - text_width(None, line, COUNT_SIZE)
    top = FOOTER_TOP + seat * 28
    spots: dict[str, tuple[int, int, int, int]] = {}
    done = ""
    for kind, piece in zip(("2x2", "2x1", "1x1"), pieces, strict=True):
        x = start + text_width(None, done, COUNT_SIZE)
        done += piece
        x2 = start + text_width(None, done, COUNT_SIZE)
        done += SEPARATOR
        spots[f"supply:{kind}"] = (int(x) - 4, top, min(width - 1, int(x2) + 5), top + 26)
    return spots


def hotspots(obs: dict[str, Any]) -> dict[str, Hotspot]:
    """Every square in view (a name like ``h8``) and the mover's tile counts (``supply:2x1``)."""
    v = view(obs)
    spots = {f"{COLUMNS[c]}{r + 1}": Hotspot("rect", _square_spot(v, r, c))
             for r in range(v.r0, v.r1 + 1) for c in range(v.c0, v.c1 + 1)}
    spots.update({key: Hotspot("rect", rect) for key, rect in _supply_spots(obs, v.width).items()})
    return spots


def _draw_square_highlights(draw: ImageDraw.ImageDraw, v: View, picked: set[str], offered: set[str]) -> None:
    """Picked: the pick's dashed black-and-white frame just inside the square (the last move is yellow). Offered: a
    green ring around its centre."""
    frame = max(5, v.cell // 7)
    for name in sorted(picked | offered):
        if len(name) < 2 or name[0] not in COLUMNS or not name[1:].isdigit():
            continue
        r, c = _rc(name)
        if not (v.r0 <= r <= v.r1 and v.c0 <= c <= v.c1):
            continue
        x, y, x2, y2 = _square_spot(v, r, c)
        if name in picked:
            pick_frame(draw, (x + 1, y + 1, x2 - 1, y2 - 1), frame)
        else:
            cx, cy = (x + x2) / 2, (y + y2) / 2
            radius = v.cell * 0.34
            ring = max(4, v.cell // 10)
            # A pale halo keeps the ring visible on the deep blue of a high Dark stack.
            draw.ellipse((cx - radius - 1, cy - radius - 1, cx + radius + 1, cy + radius + 1), outline=PAPER,
                         width=ring + 2)
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), outline=OFFERED, width=ring)


def _draw_supply_highlights(draw: ImageDraw.ImageDraw, obs: dict[str, Any], width: int, picked: set[str],
                            offered: set[str]) -> None:
    """Around the mover's tile counts, before they are written: the pick's frame when picked, a green one when
    offered."""
    for key, (x, y, x2, y2) in _supply_spots(obs, width).items():
        if key in picked:
            pick_frame(draw, (x, y, x2, y2), 3, radius=6)
        elif key in offered:
            draw.rounded_rectangle((x, y, x2, y2), radius=6, outline=OFFERED, width=3)


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
        for squares in obs["largest"]:  # green between two white lines: plain green was lost on the blue tiles
            region = {_rc(sq) for sq in squares}
            _outline(draw, region, box, PAPER, inset=cell // 7 - 2, width=8)
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


def _counts(left: dict[str, int]) -> list[str]:
    """The footer's tile counts, one piece per size, so the builder can point at each."""
    return [f"{kind}: {left[kind]}" for kind in ("2x2", "2x1", "1x1")]


def _swatch(draw: ImageDraw.ImageDraw, x: int, y: int, owner: int, size: int = 18) -> None:
    draw.rectangle((x, y, x + size, y + size), fill=_fill(owner, 2), outline=INK, width=2)


def _draw_header(draw: ImageDraw.ImageDraw, obs: dict[str, Any], stacks: dict[tuple[int, int], list[int]],
                 width: int) -> None:
    names = obs["seat_names"]
    outcome = obs["outcome"]
    if outcome is None:
        turn = obs["turn"]
        _swatch(draw, 14, 12, turn, 22)
        title = seat_named(obs, turn) + " to move"
    else:
        winners = outcome["winners"]
        title = "Draw" if len(winners) != 1 else seat_named(obs, winners[0]) + " wins"
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
        counts = SEPARATOR.join(_counts(left))
        text(draw, (width - 14, y + 13 + seat * 28), counts, COUNT_SIZE, box=row, anchor="rm")
        room = (42, row[1], width - 14 - 250, row[3])
        text(draw, (42, y + 13 + seat * 28), seat_named(obs, seat) + " has", 18, box=room, anchor="lm")
    last = obs["last_move"]
    if last is not None and obs["last_tile"] is not None:
        who = names[obs["tiles"][obs["last_tile"]]["owner"]]
        note = f"Last: {who} {last}  (outlined)"
        if obs["outcome"] is not None:
            note += " · green: largest areas"
        text(draw, (14, y + 62), note, 16, box=(14, y + 58, width - 14, y + FOOTER - 4),
             fill=LAST if obs["outcome"] is None else INK)
