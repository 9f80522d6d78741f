"""Boards drawn in worker processes (host/play/painter.py): the same PNG as a thread draws, no reply lost when a
worker dies, and a renderer that cannot go to a process drawn in a thread."""

from __future__ import annotations

import os
import random
import signal
from typing import Any

import pytest

import engines
import render
from host.play.painter import Painter


def zrtz_observation(plies: int = 12) -> dict[str, Any]:
    """A ZÈRTZ position a few random moves in: rings gone, marbles on the board and captured."""
    game = engines.get("zrtz").new(2, {})
    rng = random.Random(7)
    for _ in range(plies):
        if game.outcome() is not None:
            break
        seat = min(game.to_move())
        game.play(seat, rng.choice(game.legal_moves(seat)))
    return game.observation(None)


async def test_a_board_drawn_in_a_worker_is_the_one_a_thread_draws() -> None:
    observation = zrtz_observation()
    painter = Painter(render.render, processes=1)
    try:
        assert await painter.draw(observation) == render.render(observation)  # in a thread: no worker yet
        assert painter.drawn == 0
        await painter.started()
        image = await painter.draw(observation)
        assert image == render.render(observation)
        assert painter.drawn == 1 and painter.drawn_cpu_s > 0  # drawn over there, its CPU counted
        worker = next(iter(painter._pool._processes.values()))  # type: ignore[union-attr]
        assert worker.pid != os.getpid() and worker.is_alive()
    finally:
        painter.close()
    assert painter._pool is None


async def test_a_dead_worker_costs_no_board_and_the_next_one_gets_a_fresh_pool() -> None:
    observation = zrtz_observation()
    expected = render.render(observation)
    painter = Painter(render.render, processes=1)
    try:
        await painter.started()
        assert await painter.draw(observation) == expected
        first = painter._pool
        assert first is not None
        for process in list(first._processes.values()):  # type: ignore[attr-defined]
            os.kill(process.pid, signal.SIGKILL)
            process.join(10)
        assert await painter.draw(observation) == expected  # drawn in a thread this time
        assert painter.drawn == 1
        await painter.started()  # a fresh pool
        assert painter._pool is not None and painter._pool is not first
        assert await painter.draw(observation) == expected
        assert painter.drawn == 2
    finally:
        painter.close()


@pytest.mark.parametrize("processes", [0, 2])
async def test_a_renderer_a_process_cannot_receive_is_drawn_in_a_thread(processes: int) -> None:
    calls: list[int] = []
    painter = Painter(lambda observation: (calls.append(observation["ply"]), b"png")[1], processes=processes)
    assert painter.processes == 0
    assert await painter.draw({"game": "zrtz", "ply": 3}) == b"png"
    assert calls == [3] and painter.drawn == 0 and painter._pool is None


BOT = """
import asyncio, sys, time
import render
from host.play.painter import Painter
from tests.host.test_painter import zrtz_observation

async def main():
    painter = Painter(render.render, processes=1)
    await painter.started()
    print(*(p.pid for p in painter._pool._processes.values()), flush=True)
    time.sleep(600)

asyncio.run(main())
"""


async def test_the_workers_of_a_sigkilled_bot_exit_by_themselves() -> None:
    import asyncio
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    bot = await asyncio.create_subprocess_exec(sys.executable, "-c", BOT, cwd=root, stdout=asyncio.subprocess.PIPE)
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in (await asyncio.wait_for(bot.stdout.readline(), 60)).split()]
        assert workers and all(Path(f"/proc/{pid}").exists() for pid in workers)
    finally:
        bot.kill()  # SIGKILL: nothing closes the pool
        await bot.wait()
    for _ in range(100):
        if not any(alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def alive(pid: int) -> bool:
    """Running, not a zombie that an init which does not reap keeps listed."""
    from pathlib import Path

    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def dies_in_a_worker(observation: dict[str, Any]) -> bytes:
    """A renderer whose worker process dies at once (a board that crashes it); in the bot's own process, a PNG."""
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        os.kill(os.getpid(), signal.SIGKILL)
    return b"png"


async def test_pools_that_keep_breaking_leave_the_boards_to_a_thread() -> None:
    from host.play.painter import GIVE_UP

    painter = Painter(dies_in_a_worker, processes=1)
    try:
        for _ in range(GIVE_UP):
            await painter.started()
            assert await painter.draw({"ply": 1}) == b"png"  # the worker died: drawn in a thread
        assert painter.processes == 0 and painter._pool is None
        assert await painter.draw({"ply": 2}) == b"png" and painter._pool is None  # no fourth pool
    finally:
        painter.close()


async def test_a_closed_painter_draws_in_a_thread_and_starts_no_pool() -> None:
    observation = zrtz_observation()
    painter = Painter(render.render, processes=1)
    await painter.started()
    painter.close()
    assert await painter.draw(observation) == render.render(observation)
    assert painter._pool is None and painter.drawn == 0
