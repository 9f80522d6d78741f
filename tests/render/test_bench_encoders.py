"""The bench's two sides (bench/bench_bot.py): ``old`` is Pillow's PNG at level 3 and the move path before issue
24's cuts, ``new`` is today's code with ``render.common.to_png``; the same pixels either way, the board work is
counted and every module can be put back."""

from __future__ import annotations

import io
from typing import Any

import asyncpg
from PIL import Image

import render
import render.common as common
import render.zrtz
from bench import boards_before
from bench.bench_bot import install
from data.boards import BoardPosts
from data.postgres import PooledConnection
from data.store import GameStore
from host.play.turns import Turns
from tests.render.positions import positions
from tests.render.test_png import captured, pillow_png

layered = render.zrtz.render


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
    def now() -> tuple[Any, ...]:
        return (common.to_png, render.zrtz.to_png, render.zrtz.render, boards_before.to_png, GameStore.get,
                GameStore.find_by_thread, GameStore.__dict__["_checked_at_once"], BoardPosts._shown_at_once,
                Turns.play, PooledConnection.get_reset_query,
                asyncpg.Connection.execute)

    before = now()
    _, restore = install("old")
    assert all(a != b for a, b in zip(now(), before, strict=True))  # every one replaced on the old side
    restore()
    assert now() == before


def test_the_old_side_paints_boards_and_resets_pool_connections() -> None:
    """As before issue 24's move-path cuts (the bench's ``sql`` column shows the game read in two statements);
    the new side keeps today's code, only counted."""
    stages, restore = install("old")
    try:
        assert PooledConnection.get_reset_query is asyncpg.Connection.get_reset_query
        assert render.zrtz.render.__wrapped__ is boards_before.zrtz  # type: ignore[attr-defined]
        obs = observations()[1]
        old = Image.open(io.BytesIO(render.render(obs)))
        assert stages.renders == stages.encodes == 1
    finally:
        restore()
    assert old.tobytes() == Image.open(io.BytesIO(layered(obs))).tobytes()  # the same board either way
    stages, restore = install("new")
    try:
        assert PooledConnection.get_reset_query is not asyncpg.Connection.get_reset_query
        assert render.zrtz.render.__wrapped__ is layered  # type: ignore[attr-defined]
    finally:
        restore()
