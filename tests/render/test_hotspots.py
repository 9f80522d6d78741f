"""The renderer's hooks for the move builder: every pickable target has a hotspot, and highlights stay in it.

For seeded random positions of every game, the seat to move's picks are listed (``move_picks``); every
target they name must have a hotspot inside the image, hotspots of different targets must not overlap,
and marking a target (picked or offered) must change pixels inside that target's hotspot only.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops

import engines
import render
from engines import CHANCE
from render.common import HIGHLIGHT, PICKED, Hotspot
from tests.render.positions import setup, step

PLAYOUTS = 4
MARKED_PER_POSITION = 3


def image_of(obs: dict) -> Image.Image:
    return Image.open(io.BytesIO(render.render(obs))).convert("RGB")


def targets_of(game: engines.Game, seat: int) -> set[str]:
    return {p.target for _, picks in game.move_picks(seat) for p in picks if p.target is not None}


def check_hotspots(spots: dict[str, Hotspot], wanted: set[str], size: tuple[int, int]) -> None:
    missing = wanted - set(spots)
    assert not missing, f"targets without a hotspot: {sorted(missing)[:10]}"
    covered = Image.new("1", size, 0)
    for target, spot in spots.items():
        x0, y0, x1, y1 = spot.bbox()
        assert x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1], f"{target} {spot} leaves the image"
        mask = spot.mask(size)
        assert mask.getbbox() is not None, f"{target}'s hotspot is empty"
        assert ImageChops.logical_and(covered, mask).getbbox() is None, f"{target}'s hotspot overlaps another"
        covered = ImageChops.logical_or(covered, mask)


def check_marks(obs: dict, spots: dict[str, Hotspot], targets: list[str], plain: Image.Image) -> None:
    for target in targets:
        for kind in ("picked", "offered"):
            marked = image_of({**obs, "highlights": {kind: [target]}})
            assert marked.size == plain.size
            changed = ImageChops.difference(plain, marked).convert("L").point(lambda v: 255 if v else 0)
            assert changed.getbbox() is not None, f"marking {target} as {kind} changed nothing"
            outside = ImageChops.subtract(changed, spots[target].mask(plain.size).convert("L"))
            assert outside.getbbox() is None, f"marking {target} as {kind} drew outside its hotspot"
            if kind == "picked":
                check_pick_unlike_the_last_move(target, marked, changed)


def near(pixel: tuple[int, int, int], colour: tuple[int, int, int], within: float) -> bool:
    return sum((a - b) ** 2 for a, b in zip(pixel, colour, strict=True)) <= within ** 2


def check_pick_unlike_the_last_move(target: str, marked: Image.Image, changed: Image.Image) -> None:
    """A pick draws in the pick's colour and nothing yellowish: it was the last move's yellow (tinted, washed or
    outlined), so a player's half-built move looked like the opponent's last one."""
    pixels = [marked.getpixel(xy) for xy in zip(*set_pixels(changed), strict=True)]
    yellowish = sum(near(p, HIGHLIGHT, 60) for p in pixels)
    assert not yellowish, f"picking {target} drew {yellowish} pixels near the last-move yellow"
    assert sum(near(p, PICKED, 10) for p in pixels) >= 20, f"picking {target} drew no pick mark"


def set_pixels(mask: Image.Image) -> tuple[list[int], list[int]]:
    width = mask.width
    data = mask.tobytes()
    spots = [i for i, v in enumerate(data) if v]
    return [i % width for i in spots], [i // width for i in spots]


@pytest.mark.parametrize("name", sorted(engines.GAMES))
def test_every_target_has_a_hotspot_and_marks_stay_inside_it(name: str) -> None:
    cls = engines.get(name)
    seen = 0
    for k in range(PLAYOUTS):
        rng = random.Random(f"hotspots:{name}:{k}")
        players, options = setup(cls, k, rng)
        game = cls.new(players, options)
        for stop in sorted({0, rng.randrange(1, 30), rng.randrange(30, 90)}):
            while len(game.history) < stop and game.outcome() is None:
                step(game, rng)
            movers = sorted(game.to_move() - {CHANCE})
            if not movers:
                continue
            seat = movers[0]
            obs = game.observation(seat)
            plain = image_of(obs)
            spots = render.hotspots(obs)
            wanted = targets_of(game, seat)
            check_hotspots(spots, wanted, plain.size)
            check_marks(obs, spots, rng.sample(sorted(wanted), min(MARKED_PER_POSITION, len(wanted))), plain)
            seen += len(wanted)
    assert seen, "no position offered a board target"
