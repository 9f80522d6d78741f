"""Heavy work waits its turn privately (issue 24): while the import lane is busy, each importer's private
placeholder says their place in line, nobody else sees it, and every import ends in its public replay."""

from __future__ import annotations

import asyncio
import time

from bench.long_records import long_record
from host import offload
from tests.e2e.conftest import BotHarness
from tests.fakediscord import Upload
from tests.fakediscord.logs import ErrorLogCollector


async def test_importers_hear_their_place_privately(harness: BotHarness,
                                                    discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    data = long_record()
    async with harness.running():
        lane = offload.lane("import")
        await lane.warm()
        holder = asyncio.create_task(lane.run(999, None, time.sleep, 1.5, cpu=5.0))  # someone else's big import
        await asyncio.sleep(0.1)
        recs = [await fake.slash(name, "ziggurat import", {"record": Upload("long.json", data)}, wait="response")
                for name in ("alice", "bob")]
        await fake.wait_until(lambda: all("in line" in (r.original.content if r.original else "") for r in recs))
        assert "1st in line" in recs[0].original.content and "2nd in line" in recs[1].original.content
        assert all(r.original.ephemeral for r in recs)
        await holder
        for rec in recs:
            await rec.wait_followups(1, timeout=60)
        await fake.wait_until(lambda: all(r.original.deleted for r in recs))
        shown = [rec.followups[-1] for rec in recs]
        assert all(not m.ephemeral and "imported record R" in m.content for m in shown)
        assert not any("in line" in m.content for m in fake.messages() if not m.ephemeral)
