"""A hostile ``/zrtz import`` neither stalls the bot nor runs for long (issue 16, item 1).

The issue's reproduction, ``(;SU[Zertz]`` and ``; P0[`` 24,000 times (120 KB), once froze every server
for 28 s. Now the file is parsed in a child process with a 1 s cap, so another user's ``/help``
answers at once meanwhile; a 1 MB file is refused before any parsing.
"""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import BotHarness
from tests.fakediscord import Upload
from tests.fakediscord.logs import ErrorLogCollector

HOSTILE = b"(;SU[Zertz]" + b"; P0[" * 24_000


async def test_a_hostile_record_does_not_stall_other_commands(harness: BotHarness,
                                                              discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    loop = asyncio.get_running_loop()
    async with harness.running():
        started = loop.time()
        big = await fake.slash("alice", "zrtz import", {"record": Upload("big.sgf", HOSTILE)}, wait="response")
        assert big.deferred
        times = []
        for _ in range(3):  # the median of three, as the machine running the tests is shared
            asked = loop.time()
            helped = await fake.slash("bob", "help", wait="response")
            times.append(loop.time() - asked)
            assert helped.ephemeral and not big.followups, "the import was still being processed"
        await big.wait_followups(1, timeout=10)
        refused = loop.time() - started
        answered = sorted(times)[1]
        print(f"\n/help answered in {', '.join(f'{t * 1000:.1f}' for t in times)} ms during the import;"
              f" import refused in {refused:.2f} s")
        assert answered < 0.1
        refusal = big.followups[-1]
        assert refusal.ephemeral and "record" in refusal.content and refused < 3.0


async def test_a_megabyte_record_is_refused_at_once(harness: BotHarness,
                                                    discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running():
        megabyte = b"(;SU[Zertz]" + b"; P0[" * 200_000
        huge = await fake.slash("alice", "zrtz import", {"record": Upload("huge.sgf", megabyte)})
        assert huge.ephemeral and not huge.deferred and "too large" in huge.content
        again = await fake.slash("alice", "zrtz import", {"record": Upload("huge.sgf", b"x")})
        assert again.ephemeral and "try again in" in again.content  # the per-user cooldown
