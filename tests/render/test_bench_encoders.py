"""The bench's two sides differ only in the encoder: ``old`` is Pillow's PNG at level 3, ``new`` is
``render.common.to_png``; the board work is counted and every module can be put back (bench/bench_bot.py)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

import render
import render.common as common
import render.zrtz
from bench.bench_bot import install
from tests.render.positions import positions
from tests.render.test_png import captured, pillow_png


def observations() -> list[dict[str, Any]]:
    return [observation for _, observation in list(positions("zrtz", 2, seed=24))[:2]]


def test_old_is_pillow_level_3_and_new_is_to_png_with_the_same_pixels() -> None:
    with captured() as images:
        for observation in observations():
            render.render(observation)
    drawn: dict[str, list[bytes]] = {}
    for encoder in ("old", "new"):
        stages, restore = install(encoder)
        try:
            drawn[encoder] = [render.render(observation) for observation in observations()]
        finally:
            restore()
        assert stages.renders == stages.encodes == len(images) == 2
        assert stages.render_s >= stages.encode_s > 0
    assert drawn["old"] == [pillow_png(image) for image in images]
    assert drawn["new"] == [common.to_png(image) for image in images] != drawn["old"]
    for old, new in zip(drawn["old"], drawn["new"], strict=True):
        assert Image.open(io.BytesIO(old)).tobytes() == Image.open(io.BytesIO(new)).tobytes()


def test_restore_puts_every_module_back() -> None:
    before = (common.to_png, render.zrtz.to_png, render.zrtz.render)
    _, restore = install("old")
    assert (common.to_png, render.zrtz.to_png, render.zrtz.render) != before
    restore()
    assert (common.to_png, render.zrtz.to_png, render.zrtz.render) == before
