"""A hostile ``/zrtz import`` neither stalls the bot nor runs for long (issue 16, item 1).

The issue's reproduction, ``(;SU[Zertz]`` and ``; P0[`` 24,000 times (120 KB), once froze every server
for 28 s. Now the file is parsed in a child process with a CPU time cap, so another user's ``/help``
is answered while the parse runs; a 1 MB file is refused before any parsing.
"""

from __future__ import annotations

import asyncio
import os
import signal

from host import offload
from tests.e2e.conftest import BotHarness
from tests.fakediscord import Upload
from tests.fakediscord.logs import ErrorLogCollector

HOSTILE = b"(;SU[Zertz]" + b"; P0[" * 24_000


async def test_a_hostile_record_does_not_stall_other_commands(harness: BotHarness,
                                                              discord_error_logs: ErrorLogCollector) -> None:
    """The import lane's child is paused (SIGSTOP) while the import is handed to it, so the import is provably
    still running when each ``/help`` is answered, however loaded the machine (the parser now refuses this record
    in milliseconds, so a running import was not something to count on). A parse in the event loop would answer
    the import first. The answer times depend on the load: printed, not asserted."""
    fake = harness.fake
    loop = asyncio.get_running_loop()
    async with harness.running():
        lane = offload.lane("import")
        await lane.warm()
        child = lane.workers[0].process
        assert child is not None
        os.kill(child.pid, signal.SIGSTOP)
        try:
            started = loop.time()
            big = await fake.slash("alice", "zrtz import", {"record": Upload("big.sgf", HOSTILE)}, wait="response")
            assert big.deferred
            times = []
            for _ in range(3):
                asked = loop.time()
                helped = await fake.slash("bob", "help", wait="response")
                times.append(loop.time() - asked)
                assert helped.ephemeral and not big.followups, "the import was answered before its child ran"
        finally:
            os.kill(child.pid, signal.SIGCONT)
        await big.wait_followups(1)
        refused = loop.time() - started
        print(f"\n/help answered in {', '.join(f'{t * 1000:.1f}' for t in times)} ms during the import;"
              f" import refused in {refused:.2f} s")
        refusal = big.followups[-1]
        assert refusal.ephemeral and refusal.content.startswith("That record")


async def test_a_megabyte_record_is_refused_at_once(harness: BotHarness,
                                                    discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running():
        megabyte = b"(;SU[Zertz]" + b"; P0[" * 200_000
        huge = await fake.slash("alice", "zrtz import", {"record": Upload("huge.sgf", megabyte)})
        assert huge.ephemeral and not huge.deferred and "too large" in huge.content
        again = await fake.slash("alice", "zrtz import", {"record": Upload("huge.sgf", b"x")})
        await again.wait_followups(1, timeout=10)  # the refusal spent nothing: this one is read, and refused for itself
        assert again.followups[-1].ephemeral and again.followups[-1].content.startswith("That record")
