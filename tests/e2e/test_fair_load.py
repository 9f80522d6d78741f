"""The same record gets the same answer at any load, through the real bot process (issue 24, item 3).

``bot.py`` runs in its own process (tests/e2e/test_crash.py's ``BotProcess``) with the cap on reading an upload
lowered (``IMPORT_CPU_CAP``) so that a real record is near it: reading it costs about a third of the cap. Two
records, one good and one with an illegal move near its end (refused only after replaying almost all of it), are
imported on an idle machine, then again while a process burns each core (niced between the bot and the child) and
two other users' imports wait ahead of them in the lane. The cap counts CPU time of the lane's child: each record
gets the same answer both times. A wall-clock cap would not: on the busy machine the child (at a lower priority than
the burners) takes many times its CPU time in wall time.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import time
from pathlib import Path

from bench.long_records import long_record
from host.records import imports
from host.records.formats import read
from tests.busy import busy_machine
from tests.e2e.test_crash import bot_process
from tests.fakediscord import FakeDiscord, Upload

CAP = 0.3
"""Seconds of CPU time the bot's import child may spend reading one upload in this test: some three times what the
record costs (its CPU time itself grows a little on a busy machine), far below its wall time there."""


def records() -> dict[str, bytes]:
    """A long good record, and the same with an illegal move five plies before its end."""
    good = long_record(seed=7)
    bad = json.loads(good)
    bad["history"][-5]["move"] = "move z99"
    return {"good": good, "bad": json.dumps(bad).encode()}


async def imported(fake: FakeDiscord, user: str, data: bytes) -> str:
    """What the importer was finally told: "accepted" (the public replay), or the private refusal."""
    rec = await fake.slash(user, "ziggurat import", {"record": Upload("record.json", data)}, wait="response")
    await rec.wait_followups(1, timeout=300)
    last = rec.followups[-1]
    if not last.ephemeral and "imported record R" in last.content:
        return "accepted"
    assert last.ephemeral, f"a public refusal: {last.content!r}"
    return last.content


async def test_the_same_record_gets_the_same_answer_idle_and_on_a_busy_machine(fake_discord: FakeDiscord,
                                                                             tmp_path: Path) -> None:
    fake = fake_discord
    fake.timeout = 300
    fake.callback_deadline = None  # the bot's own replies on a busy machine are bench_fair's business, not this test's
    data = records()
    cpu = time.process_time()
    read(data["good"], "ziggurat")
    cost = time.process_time() - cpu
    assert CAP / 10 < cost < CAP / 1.5, f"reading the record costs {cost:.2f} s: not near, or not inside, the cap"
    env = {imports.CAP_ENV: str(CAP)}
    async with bot_process(fake, tmp_path / "fair.sqlite3", env) as bot:
        await bot.start()
        await imported(fake, "warm", long_record(seed=1, rounds=30))  # the child's first page pays its start-up
        idle = {kind: await imported(fake, f"idle-{kind}", record) for kind, record in data.items()}
        with busy_machine(os.cpu_count() or 2, niceness=5):  # above the lane's child (10), below the suite
            started = time.perf_counter()
            ahead = [asyncio.create_task(imported(fake, f"ahead{k}", long_record(seed=20 + k))) for k in range(2)]
            await asyncio.sleep(0.2)
            busy = dict(zip(data, await asyncio.gather(*(imported(fake, f"busy-{kind}", record)
                                                          for kind, record in data.items())), strict=True))
            others = await asyncio.gather(*ahead)
            wall = time.perf_counter() - started
    used = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"\nreading costs {cost:.3f} s of CPU (cap {CAP} s); the busy imports took {wall:.1f} s of wall time; "
          f"test CPU {sum(u.ru_utime + u.ru_stime for u in used):.1f} s (burners included), load "
          f"{os.getloadavg()[0]:.1f}")
    assert idle == busy
    assert others == ["accepted", "accepted"]
    assert idle["good"] == "accepted"
    assert idle["bad"].startswith("That record cannot be replayed: ") and "z99" in idle["bad"]
    assert not idle["bad"].endswith("..")
