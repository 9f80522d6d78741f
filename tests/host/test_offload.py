"""Heavy work in fair lanes of child processes (host/offload.py, issue 24): one place per user, turns across
servers, places told as they change, and caps on the child's CPU time, so a busy machine gives the same answers."""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.long_records import long_record
from host import offload
from host.records import imports
from host.records.formats import read
from host.results import HostError
from tests.busy import busy_machine


async def test_one_place_per_user_turns_across_servers_and_places_told() -> None:
    lane = offload.Lane("test", slots=1, depth=3, preload=())
    told: dict[str, list[int]] = {}
    finished: list[str] = []

    async def call(name: str, user: int, guild: int) -> None:
        async def on_place(place: int) -> None:
            told.setdefault(name, []).append(place)
        await lane.run(user, guild, time.sleep, 0.3 if name == "a" else 0.01, cpu=5.0, on_place=on_place)
        finished.append(name)

    try:
        await lane.warm()
        first = asyncio.create_task(call("a", 1, 100))  # runs at once
        await asyncio.sleep(0.05)
        waiting = [asyncio.create_task(call(name, user, guild))
                   for name, user, guild in (("b", 2, 100), ("c", 3, 100), ("d", 4, 200))]
        await asyncio.sleep(0.05)
        assert [lane.place_of(u) for u in (2, 3, 4)] == [1, 3, 2]  # server 200's first call before 100's second
        with pytest.raises(offload.Busy, match="already have a test"):
            await lane.run(1, 100, time.sleep, 0, cpu=1.0)  # one place per user
        with pytest.raises(offload.Busy, match="Too many"):
            await lane.run(5, 300, time.sleep, 0, cpu=1.0)  # the line is full
        await asyncio.gather(first, *waiting)
        await asyncio.sleep(0.05)  # the last place messages run as tasks
    finally:
        await lane.stop()
    assert finished == ["a", "b", "d", "c"]
    imports = offload.Lane("import", preload=())
    imports.users.add(1)
    with pytest.raises(offload.Busy, match="You already have an import under way"):
        async with imports.session(1, None):
            pass
    assert told == {"b": [1], "c": [2, 3, 2, 1], "d": [2, 1]}


def hog(megabytes: int) -> tuple[int, int]:
    """In the child: hold ``megabytes`` (written, so resident) like a GIF being built; its pid and peak RSS (kB).
    The peak is VmHWM, this process's own: ru_maxrss carries the forking test worker's peak across exec."""
    import os
    from pathlib import Path

    block = b"x" * (megabytes << 20)
    status = Path("/proc/self/status").read_text()
    peak = int(next(line for line in status.splitlines() if line.startswith("VmHWM:")).split()[1])
    del block
    return os.getpid(), peak


async def test_a_recycling_lane_gives_a_gifs_memory_back_with_its_child() -> None:
    """The GIF lane recycles its child after every call: the next call runs in a fresh process whose peak memory
    is far below the 200 MB the last one held (a child kept alive keeps its peak: the C allocator holds it)."""
    assert offload.LANES["GIF"].get("recycle") is True
    for recycle in (True, False):
        lane = offload.Lane("test", preload=(), recycle=recycle)
        try:
            first_pid, first_peak = await lane.run(1, None, hog, 200, cpu=30.0)
            second_pid, second_peak = await lane.run(1, None, hog, 1, cpu=30.0)
        finally:
            await lane.stop()
        assert first_peak > 200 << 10
        if recycle:
            assert second_pid != first_pid and second_peak < 100 << 10
        else:
            assert second_pid == first_pid and second_peak > 200 << 10


async def test_a_place_message_that_fails_does_not_hurt_the_line() -> None:
    lane = offload.Lane("test", slots=1, depth=3, preload=())

    async def broken(place: int) -> None:
        raise RuntimeError("the user's token expired")

    try:
        running = asyncio.create_task(lane.run(1, None, time.sleep, 0.2, cpu=5.0))
        await asyncio.sleep(0.05)
        assert await lane.run(2, None, abs, -3, cpu=5.0, on_place=broken) == 3
        await running
    finally:
        await lane.stop()


def test_ordinals() -> None:
    assert [offload.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd", "111th"]


async def answer(data: bytes, user: int) -> str:
    try:
        record = await imports.our_record(data, "ziggurat", user, None)
    except HostError as error:
        return str(error)
    return f"accepted, {len(record.history)} plies"


async def test_the_same_record_gets_the_same_answer_on_a_busy_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cap counts the child's CPU time: a record well inside it is accepted, one far over it refused, however
    busy the machine (a wall-clock cap refuses the first when other processes take the cores)."""
    data = long_record()
    cpu = time.process_time()
    read(data, "ziggurat")
    cost = time.process_time() - cpu
    try:
        await offload.lane("import").warm()
        with busy_machine(4):
            monkeypatch.setattr(imports, "JSON_CAP", 3 * cost)
            started = time.perf_counter()
            generous = await answer(data, 1)
            wall = time.perf_counter() - started
            monkeypatch.setattr(imports, "JSON_CAP", cost / 5)
            tight = await answer(data, 1)
    finally:
        await offload.stop()
    print(f"\nread costs {cost:.3f} s of CPU; under load the child took {wall:.2f} s of wall time for it")
    assert generous.startswith("accepted") and "too long" in tight

