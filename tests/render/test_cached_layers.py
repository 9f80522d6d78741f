"""Boards drawn from cached layers are the boards painted part by part, pixel for pixel (issue 24: cheaper boards).

The reference is ``bench/boards_before.py``: the renderers' code as it was before the layer caches (ZÈRTZ,
Zarathustra, Ziggurat's empty board). Seeded positions of every variant, seen by spectators and by players, with
names of every kind, move-builder marks (ZÈRTZ: on rings and on the panel's marbles), the last move's marks (a
placement, a removed ring, isolated rings, a capture path; destroyed tiles), and finished games.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

from PIL import Image, ImageChops

import render.zarathustra
import render.ziggurat
import render.zrtz
from bench import boards_before
from engines.zrtz import Zrtz
from render.common import recording
from tests.render.positions import positions


def decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def isolations(playouts: int) -> list[dict[str, Any]]:
    """Random playouts, each up to its first move that isolated rings (they are claimed and dashed)."""
    found = []
    for k in range(playouts):
        rng = random.Random(k)
        game = Zrtz.new(2, {"rings": (37, 48, 61)[k % 3]})
        while game.outcome() is None:
            seat = min(game.to_move())
            game.play(seat, rng.choice(game.legal_moves(seat)))
            if (game.observation(None).get("last") or {}).get("claimed"):
                found += [game.observation(None), game.observation(seat)]
                break
    return found


def observations() -> list[dict[str, Any]]:
    """Seeded positions and isolations, and a third of them again with random builder marks (rings, pool and
    captures)."""
    rng = random.Random(24)
    found = [obs for _, obs in positions("zrtz", 24, seed=24)] + isolations(12)
    for obs in found[::3]:
        targets = sorted(render.zrtz.hotspots(obs))
        found.append({**obs, "highlights": {"picked": rng.sample(targets, 2), "offered": rng.sample(targets, 5)}})
    return found


def test_layered_boards_are_the_painted_boards_with_the_same_texts() -> None:
    seen = {"capture": 0, "removed": 0, "claimed": 0, "finished": 0, "marks": 0, "rings": set()}
    for obs in observations():
        with recording() as painted_texts:
            painted = decoded(boards_before.zrtz(dict(obs)))
        with recording() as layered_texts:
            layered = decoded(render.zrtz.render(dict(obs)))
        assert ImageChops.difference(painted, layered).getbbox() is None, obs["cells"]
        assert sorted(map(repr, painted_texts)) == sorted(map(repr, layered_texts))
        last = obs.get("last") or {}
        seen["capture"] += last.get("kind") == "capture"
        seen["removed"] += bool(last.get("removed"))
        seen["claimed"] += bool(last.get("claimed"))
        seen["finished"] += obs.get("outcome") is not None
        seen["marks"] += "highlights" in obs
        seen["rings"].add(obs["rings"])  # type: ignore[attr-defined]
    assert seen["rings"] == {37, 48, 61}
    assert min(seen[k] for k in ("capture", "removed", "claimed", "finished", "marks")) > 0, seen


def with_builder_marks(found: list[dict[str, Any]], hotspots: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
    """The positions, and a third of them again with a move builder's picked and offered marks."""
    rng = random.Random(24)
    marked = []
    for obs in found[::3]:
        targets = sorted(hotspots(obs))
        marked.append({**obs, "highlights": {"picked": rng.sample(targets, 2), "offered": rng.sample(targets, 5)}})
    return found + marked


def assert_painted_as_cached(painted_by: Callable[[dict[str, Any]], bytes],
                             cached_by: Callable[[dict[str, Any]], bytes], obs: dict[str, Any]) -> None:
    """The board painted anew and the board from the cached layers: the same pixels and the same texts."""
    with recording() as painted_texts:
        painted = decoded(painted_by(dict(obs)))
    with recording() as cached_texts:
        cached = decoded(cached_by(dict(obs)))
    assert ImageChops.difference(painted, cached).getbbox() is None
    assert sorted(map(repr, painted_texts)) == sorted(map(repr, cached_texts))


def test_zarathustra_boards_from_the_cached_empty_board_are_the_painted_boards() -> None:
    found = with_builder_marks([obs for _, obs in positions("zarathustra", 12, seed=24)], render.zarathustra.hotspots)
    sizes, ghosts = set(), 0
    for obs in found:
        assert_painted_as_cached(boards_before.zarathustra, render.zarathustra.render, obs)
        sizes.add((obs["size"], len(obs["hands"])))
        ghosts += bool((obs.get("last") or {}).get("destroyed"))
    assert len(sizes) >= 3 and ghosts > 0, (sizes, ghosts)


def test_ziggurat_boards_from_the_cached_empty_board_are_the_painted_boards() -> None:
    """Every variant, with builder marks on a third of them: the copy of the empty board loses and keeps nothing."""
    found = with_builder_marks([obs for _, obs in positions("ziggurat", 8, seed=24)], render.ziggurat.hotspots)
    for obs in found:
        assert_painted_as_cached(boards_before.ziggurat, render.ziggurat.render, obs)
    assert any("highlights" in obs for obs in found) and any(obs.get("outcome") for obs in found)


def test_a_board_does_not_change_the_cached_layers() -> None:
    """Boards draw on a copy: drawing one never shows on the next (the layers stay as built)."""
    obs = next(o for _, o in positions("zrtz", 1, seed=3))
    first = decoded(render.zrtz.render(dict(obs)))
    busy = [o for _, o in positions("zrtz", 3, seed=4)][-1]
    render.zrtz.render({**busy, "highlights": {"picked": ["supply:w"], "offered": sorted(render.zrtz.hotspots(busy))}})
    assert ImageChops.difference(first, decoded(render.zrtz.render(dict(obs)))).getbbox() is None
