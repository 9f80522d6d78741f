"""Heavy pure work (reading an uploaded record, building a GIF) in child processes, with fair queues.

A thread is not enough: a regular expression, or any long C call, holds the GIL for its whole run, so
the event loop (every other server's commands) would still stall. A child process cannot stall it.

Each kind of heavy work is a ``Lane``: its own warm child process(es) (``python -m host.offload_child``,
at a lower priority than the bot) and a bounded line of waiting calls, one place per user, served in
turn across servers (a server with many waiting users does not starve the others). Someone waiting is
told their place through ``on_place`` (the command edits its private placeholder: "3rd in line").

Time caps count the child's CPU time, not wall time (host/offload_child.py): the same file gets the
same answer on an idle or a loaded machine. A wall-clock backstop, far above the cap, only catches a
child that stopped answering. A lane may recycle its child after every call (a GIF's memory goes back
to the system with the process).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import pickle
import signal
import struct
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[1]
PRELOAD = ("host.records.worker",)
"""Modules the import child imports when it starts, before any call."""
READY = b"RDY\n"
START_WAIT = 120.0
"""Seconds a new child may take to import its modules, outside any call's time cap: 30 s was too short for a GIF
child at load 30 (bench_fair: 2 of 6 GIFs failed to start), and a child that never starts is still caught."""
BACKSTOP = 20.0
"""Wall seconds per CPU second of cap (plus ``START_WAIT``) before a silent child is killed."""
Place = Callable[[int], Awaitable[None]]
"""Told a waiting call's place in line (1: next) whenever it changes."""


class TooSlow(Exception):
    """The work ran past its time cap and was stopped."""


class Failed(Exception):
    """The work raised; ``kind`` is the exception's class name, the message its text."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Busy(Exception):
    """The lane's line is full, or this user already has a call of this kind in it; the text says which."""


class Worker:
    """One child process and a lock: calls queue up rather than run side by side."""

    def __init__(self, preload: tuple[str, ...] = PRELOAD) -> None:
        self.preload = preload
        self.process: asyncio.subprocess.Process | None = None
        self.lock = asyncio.Lock()

    async def _ensure(self) -> asyncio.subprocess.Process:
        if self.process is None or self.process.returncode is not None:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "host.offload_child", *self.preload, cwd=ROOT,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)  # stderr: the bot's log
            assert self.process.stdout is not None
            try:  # the child says READY once its imports are done: the time cap then counts only the work
                if await asyncio.wait_for(self.process.stdout.readexactly(len(READY)), START_WAIT) != READY:
                    raise Failed("RuntimeError", "the worker process did not start")
            except (TimeoutError, asyncio.IncompleteReadError):
                await self.stop()
                raise Failed("RuntimeError", "the worker process did not start") from None
        return self.process

    async def warm(self) -> None:
        """Start the child ahead of the first call (it imports its modules once)."""
        async with self.lock:
            await self._ensure()

    async def run(self, func: Callable[..., T], *args: Any, cpu: float | None = None,
                  timeout: float | None = None) -> T:
        """``func(*args)`` in the child; ``TooSlow`` past ``cpu`` seconds of the child's CPU time (or, with only
        ``timeout``, of wall time), ``Failed`` if it raised. ``func`` must be a module-level function, its
        arguments and result picklable."""
        wall = timeout if cpu is None else START_WAIT + BACKSTOP * cpu
        async with self.lock:
            process = await self._ensure()
            assert process.stdin is not None and process.stdout is not None
            request = pickle.dumps((func, args, cpu))
            process.stdin.write(struct.pack(">I", len(request)) + request)
            try:
                await process.stdin.drain()
                answer = await asyncio.wait_for(self._read(process.stdout), wall)
            except TimeoutError:
                await self.stop()
                raise TooSlow(f"stopped after {wall:g} s") from None
            except (asyncio.IncompleteReadError, ConnectionError):
                code = await process.wait()
                await self.stop()
                if code == -signal.SIGXCPU:  # a C call held the interpreter past the cap: the hard limit
                    raise TooSlow(f"stopped after {cpu:g} s of CPU time") from None
                raise Failed("EOFError", "the worker process died") from None
        ok, value = pickle.loads(answer)
        if not ok:
            if value[0] == "TooSlow":
                raise TooSlow(value[1])
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


@dataclass(order=True)
class Ticket:
    """A call waiting in a lane: served by ``tag`` (turns across servers), then by arrival."""

    tag: int
    seq: int
    user: int = field(compare=False)
    guild: int | None = field(compare=False)
    on_place: Place | None = field(compare=False, default=None)
    granted: asyncio.Future[Worker] | None = field(compare=False, default=None)
    told: int = field(compare=False, default=0)


class Lane:
    """One kind of heavy work: ``slots`` child processes and a line of at most ``depth`` waiting calls.

    One user holds at most one place (running or waiting) in a lane. Waiting calls are served in turns
    across servers (fair queueing: a server's n-th waiting call comes after every other server's
    (n-1)-th), in arrival order within a server.
    """

    def __init__(self, name: str, *, slots: int = 1, depth: int = 16, preload: tuple[str, ...] = PRELOAD,
                 recycle: bool = False) -> None:
        self.name = name
        self.depth = depth
        self.recycle = recycle
        self.workers = [Worker(preload) for _ in range(slots)]
        self.free = list(self.workers)
        self.waiting: list[Ticket] = []
        self.users: set[int] = set()
        self.clock = 0
        self.last_tag: dict[int | None, int] = {}
        self.seq = itertools.count()
        self.tasks: set[asyncio.Task[None]] = set()

    def place_of(self, user: int) -> int | None:
        """1-based place in line of ``user``'s waiting call (None: running or not here)."""
        for place, ticket in enumerate(sorted(self.waiting), 1):
            if ticket.user == user:
                return place
        return None

    @asynccontextmanager
    async def session(self, user: int, guild: int | None, on_place: Place | None = None) -> AsyncIterator[Worker]:
        """A child of the lane for ``user``'s calls, once it is their turn (several calls of one piece of work:
        an import's reading and its first replay page); ``Busy`` when the user has a place already or the line
        is full."""
        if user in self.users:
            article = "an" if self.name[:1].lower() in "aeiou" else "a"
            raise Busy(f"You already have {article} {self.name} under way: wait for it to finish.")
        if not self.free and len(self.waiting) >= self.depth:
            raise Busy(f"Too many {self.name}s are waiting right now: try again in a minute.")
        self.users.add(user)
        try:
            worker = await self._acquire(user, guild, on_place)
            try:
                yield worker
            finally:
                if self.recycle:
                    await worker.stop()
                self._release(worker)
        finally:
            self.users.discard(user)

    async def run(self, user: int, guild: int | None, func: Callable[..., T], *args: Any, cpu: float,
                  on_place: Place | None = None) -> T:
        """``func(*args)`` in one of the lane's children once it is this call's turn (see ``Worker.run``)."""
        async with self.session(user, guild, on_place) as worker:
            return await worker.run(func, *args, cpu=cpu)

    async def _acquire(self, user: int, guild: int | None, on_place: Place | None) -> Worker:
        if self.free and not self.waiting:
            return self.free.pop()
        tag = max(self.clock, self.last_tag.get(guild, 0)) + 1
        self.last_tag[guild] = tag
        ticket = Ticket(tag, next(self.seq), user, guild, on_place, asyncio.get_running_loop().create_future())
        self.waiting.append(ticket)
        self._tell()
        assert ticket.granted is not None
        try:
            return await ticket.granted
        except asyncio.CancelledError:
            if ticket in self.waiting:
                self.waiting.remove(ticket)
                self._tell()
            elif ticket.granted.done() and not ticket.granted.cancelled():
                self._release(ticket.granted.result())
            raise

    def _release(self, worker: Worker) -> None:
        if self.waiting:
            ticket = min(self.waiting)
            self.waiting.remove(ticket)
            self.clock = max(self.clock, ticket.tag)
            assert ticket.granted is not None
            ticket.granted.set_result(worker)
            self._tell()
        else:
            self.free.append(worker)
            if self.recycle:  # the next call finds its child started
                self._spawn(worker.warm())

    def _tell(self) -> None:
        """Each waiting call whose place changed hears its new place."""
        for place, ticket in enumerate(sorted(self.waiting), 1):
            if ticket.on_place is not None and ticket.told != place:
                ticket.told = place
                self._spawn(ticket.on_place(place))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def guarded() -> None:
            try:
                await work
            except Exception:  # a place message that fails (the user's token expired) must not hurt the line
                log.info("%s lane: a background step failed", self.name, exc_info=True)

        task = asyncio.get_running_loop().create_task(guarded())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def warm(self) -> None:
        await asyncio.gather(*(w.warm() for w in self.workers))

    async def stop(self) -> None:
        for worker in self.workers:
            await worker.stop()


LANES: dict[str, dict[str, Any]] = {
    "import": {"slots": 1, "depth": 24, "preload": ("host.records.worker", "host.records.replay", "render")},
    "GIF": {"slots": 1, "depth": 12, "preload": ("host.records.replay", "render", "render.animate"), "recycle": True},
}
"""The kinds of heavy work. One child each: two cores serve the bot, the AI and these."""

_lanes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Lane]] = weakref.WeakKeyDictionary()


def lane(name: str) -> Lane:
    """The running event loop's lane ``name`` (pipes and futures belong to one loop; tests run several)."""
    loop = asyncio.get_running_loop()
    lanes = _lanes.setdefault(loop, {})
    if name not in lanes:
        lanes[name] = Lane(name, **LANES[name])
    return lanes[name]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


async def warm() -> None:
    await lane("import").warm()


async def run(func: Callable[..., T], *args: Any, timeout: float) -> T:
    """``func(*args)`` in the import lane's child with a cap of ``timeout`` seconds of its CPU time."""
    return await lane("import").run(-1 - next(_anonymous), None, func, *args, cpu=timeout)


_anonymous = itertools.count()


async def stop() -> None:
    loop = asyncio.get_running_loop()
    for each in _lanes.pop(loop, {}).values():
        await each.stop()
