"""Expensive pure work (parsing an uploaded record) in a separate process, with a hard time cap.

A thread is not enough: a regular expression, or any long C call, holds the GIL for its whole run, so
the event loop (every other server's commands) would still stall. A child process cannot stall it,
and on the time cap it is killed, so a hostile input costs at most ``timeout`` seconds of one core.
One warm child (``python -m host.offload_child``) serves the calls one at a time, so a call costs
milliseconds, not an interpreter start; a killed child is replaced on the next call.
"""

from __future__ import annotations

import asyncio
import pickle
import struct
import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
PRELOAD = ("host.record_worker",)
"""Modules the child imports when it starts, before any call."""
READY = b"RDY\n"
START_WAIT = 30.0
"""Seconds a new child may take to import its modules (a loaded machine), outside any call's time cap."""


class TooSlow(Exception):
    """The work ran past its time cap and was stopped."""


class Failed(Exception):
    """The work raised; ``kind`` is the exception's class name, the message its text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Worker:
    """One child process and a lock: calls queue up rather than run side by side."""

    def __init__(self) -> None:
        self.process: asyncio.subprocess.Process | None = None
        self.lock = asyncio.Lock()

    async def _ensure(self) -> asyncio.subprocess.Process:
        if self.process is None or self.process.returncode is not None:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "host.offload_child", *PRELOAD, cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
            assert self.process.stdout is not None
            try:  # the child says READY once its imports are done: the time cap then counts only the work
                if await asyncio.wait_for(self.process.stdout.readexactly(len(READY)), START_WAIT) != READY:
                    raise Failed("RuntimeError", "the worker process did not start")
            except (TimeoutError, asyncio.IncompleteReadError):
                await self.stop()
                raise Failed("RuntimeError", "the worker process did not start") from None
        return self.process

    async def warm(self) -> None:
        """Start the child ahead of the first call (it imports the engine once)."""
        async with self.lock:
            await self._ensure()

    async def run(self, func: Callable[..., T], *args: Any, timeout: float) -> T:
        """``func(*args)`` in the child; ``TooSlow`` after ``timeout`` seconds, ``Failed`` if it raised.
        ``func`` must be a module-level function, its arguments and result picklable."""
        async with self.lock:
            process = await self._ensure()
            assert process.stdin is not None and process.stdout is not None
            request = pickle.dumps((func, args))
            process.stdin.write(struct.pack(">I", len(request)) + request)
            try:
                await process.stdin.drain()
                answer = await asyncio.wait_for(self._read(process.stdout), timeout)
            except TimeoutError:
                await self.stop()
                raise TooSlow(f"stopped after {timeout:g} s") from None
            except (asyncio.IncompleteReadError, ConnectionError):
                await self.stop()
                raise Failed("EOFError", "the worker process died") from None
        ok, value = pickle.loads(answer)
        if not ok:
            raise Failed(*value)
        return value  # type: ignore[no-any-return]

    @staticmethod
    async def _read(stdout: asyncio.StreamReader) -> bytes:
        size = struct.unpack(">I", await stdout.readexactly(4))[0]
        return await stdout.readexactly(size)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        self.process = None


_workers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Worker] = weakref.WeakKeyDictionary()


def _worker() -> Worker:
    """The running event loop's worker (pipes and locks belong to one loop; tests run several)."""
    loop = asyncio.get_running_loop()
    if loop not in _workers:
        _workers[loop] = Worker()
    return _workers[loop]


async def warm() -> None:
    await _worker().warm()


async def run(func: Callable[..., T], *args: Any, timeout: float) -> T:
    return await _worker().run(func, *args, timeout=timeout)


async def stop() -> None:
    await _worker().stop()
