"""Boards drawn in worker processes, so drawing never competes with the event loop for the interpreter lock.

Drawing a board in a thread of the bot holds the GIL for most of its few milliseconds (Pillow's drawing calls,
the renderers' Python): with replies waiting on the event loop, every statement and socket call there, which
lets the GIL go, waited for a drawing thread to give it back (issue 24, bench/bench_moves_images.py). In a
process of its own a board costs the loop only the observation out and the PNG back, and two boards are
drawn on two cores at once.

The pool is made on first use, spawned (no child inherits the loop or the database's threads); until its
first worker has started (its imports take seconds on a loaded machine) boards are drawn in a thread, so no
reply waits for it (a first move after a restart answered after 5.3 s in tests/e2e/test_crash.py). A worker
that dies (killed, out of memory) costs no reply: that board is drawn in a thread and the next call makes a
fresh pool; a worker whose bot is gone (SIGKILL) exits by itself. ``processes=0``, or a renderer that cannot
be sent to a process (a test's lambda), draws in a thread as before.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)
Renderer = Callable[[dict[str, Any]], bytes]
GIVE_UP = 3
"""Pools broken in a row after which the boards are drawn in a thread."""
PROCESSES = 2
"""Worker processes the bot draws its boards in (``host.app.build``): one a core of the 2-core machine the
bench runs on; a board takes a few milliseconds, so more only adds memory (about 60-100 MB each)."""


def paint(renderer: Renderer, observation: dict[str, Any]) -> tuple[bytes, float]:
    """In a worker: the board's PNG and the CPU seconds it took there (the parent counts them)."""
    started = time.thread_time()
    image = renderer(observation)
    return image, time.thread_time() - started


def watch_parent(parent: int) -> None:
    """In a worker, first: exit once the bot is gone. A SIGKILLed bot closes none of the pool's pipes (the
    worker holds both ends of its call queue), so without this its workers would wait for calls forever."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.25)
        os.kill(os.getpid(), signal.SIGTERM)  # the whole worker, at once: its main thread waits on the queue

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _sendable(renderer: Renderer) -> bool:
    try:
        pickle.dumps(renderer)
    except (pickle.PicklingError, AttributeError, TypeError):
        return False
    return True


class Painter:
    """``await painter.draw(observation)``: the PNG, drawn in a worker process (or a thread, see above)."""

    def __init__(self, renderer: Renderer, processes: int = 0) -> None:
        self.renderer = renderer
        self.processes = processes if processes > 0 and _sendable(renderer) else 0
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[int] | None = None
        """The first call into a new pool: boards are drawn in a thread until a worker has answered it."""
        self.drawn = 0
        """Boards drawn in worker processes, and the CPU seconds they took there (benches split a move's cost)."""
        self.drawn_cpu_s = 0.0
        self.broken = 0
        """Pools broken in a row: past ``GIVE_UP`` the boards are drawn in a thread for good (a worker that
        cannot start would otherwise cost a new pool's imports on every board)."""

    def start(self) -> ProcessPoolExecutor | None:
        """Spawn the workers now, without waiting for them (the bot, at start-up: their imports, a second or two
        of CPU each, are then done before the first board rather than beside the first moves)."""
        if self.processes == 0:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=watch_parent, initargs=(os.getpid(),))
            starting = [self._pool.submit(os.getpid) for _ in range(self.processes)]  # every worker, at once
            self._started = starting[0]  # a worker starting: seconds on a loaded machine
        return self._pool

    async def started(self) -> None:
        """Make the pool and wait until its first worker answers (tests; boards need not wait for it)."""
        if self.processes:
            self.start()
            assert self._started is not None
            await asyncio.wrap_future(self._started)

    async def draw(self, observation: dict[str, Any]) -> bytes:
        if self.processes == 0:
            return await asyncio.to_thread(self.renderer, observation)
        try:
            pool = self.start()
        except OSError:  # no process can be made (limits, memory): this board in a thread
            log.exception("cannot start the board worker processes; drawing this board in a thread")
            return await asyncio.to_thread(self.renderer, observation)
        if self._started is not None and not self._started.done():  # no reply waits for it meanwhile
            return await asyncio.to_thread(self.renderer, observation)
        try:
            image, cpu = await asyncio.get_running_loop().run_in_executor(pool, paint, self.renderer, observation)
        except BrokenProcessPool:  # a worker died: this board in a thread, a fresh pool for the next one
            self.broken += 1
            log.warning("a board worker process died; drawing this board in a thread")
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            if self.broken >= GIVE_UP:
                log.error("board worker processes broke %d times in a row; drawing in a thread from now on",
                          self.broken)
                self.processes = 0
            return await asyncio.to_thread(self.renderer, observation)
        self.broken = 0
        self.drawn += 1
        self.drawn_cpu_s += cpu
        return image

    def close(self) -> None:
        """Let the workers go, for good: a drawing under way is abandoned, and a later ``draw`` (a report still
        on its way while the bot closes) uses a thread instead of starting a pool that nothing would close."""
        self.processes = 0
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._started = None
