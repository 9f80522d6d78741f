"""Animated GIFs: really animated, every frame as its board shows, and small enough for Discord."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops, ImageStat

import engines
from render import render
from render.animate import HOLD_MS, animate

DISCORD_LIMIT = 8_000_000


def positions(name: str, count: int, seed: int = 1) -> list[bytes]:
    """Boards of a seeded random ``name`` game after each of its first moves."""
    game = engines.get(name).new(2)
    rng = random.Random(seed)
    boards = [render(game.observation(None))]
    while len(boards) < count and game.outcome() is None:
        seat = sorted(game.to_move())[0]
        game.play(seat, rng.choice(game.legal_moves(seat)))
        boards.append(render(game.observation(None)))
    return boards


def test_every_frame_shows_its_board_and_the_last_is_held() -> None:
    boards = positions("zarathustra", 6)
    labels = [f"{k}. move {k}" for k in range(len(boards))]
    gif = Image.open(io.BytesIO(animate(boards, labels)))
    assert gif.is_animated and gif.n_frames == len(boards)
    for k, board in enumerate(boards):
        gif.seek(k)
        alone = Image.open(io.BytesIO(animate([board], [labels[k]]))).convert("RGB")
        difference = ImageStat.Stat(ImageChops.difference(gif.convert("RGB"), alone)).mean
        assert max(difference) < 4, f"frame {k} differs from its board by {difference}"
        assert gif.info["duration"] == (HOLD_MS if k == len(boards) - 1 else 1000)


def test_a_200_move_gif_stays_under_discords_limit() -> None:
    boards = positions("zrtz", 30)  # real boards; the game walks back and forth through them
    walk = [boards[k % (2 * len(boards) - 2)] if k % (2 * len(boards) - 2) < len(boards)
            else boards[2 * len(boards) - 2 - k % (2 * len(boards) - 2)] for k in range(201)]
    data = animate(walk, [f"{k}. Blue: wd4 a1" for k in range(201)])
    gif = Image.open(io.BytesIO(data))
    assert gif.n_frames == 201 and len(data) < DISCORD_LIMIT
