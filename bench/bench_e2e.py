"""One ``/zarathustra move`` end to end through the fake Discord, board PNG included.

Run: ``.venv/bin/python -m bench.bench_e2e``. Target: p50 under 60 ms.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import time
from pathlib import Path

import discord

from bench.bench_host import percentiles
from bot import Config, create_bot
from tests.fakediscord import FakeDiscord, running_bot


async def main() -> None:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    # The fake's idle barrier costs a heartbeat per action: lift discord.py's 110-per-minute gateway
    # send limit so hundreds of timed actions do not queue behind it.
    discord.gateway.GatewayRatelimiter.__init__.__defaults__ = (1_000_000, 60.0)
    samples: list[float] = []
    complete: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            config = Config(token="bench", database_path=Path(folder) / "bench.sqlite3", api_base=fake.api_base,
                            gateway_url=fake.gateway_url, sync=True, guild_ready_timeout=0)
            bot = create_bot(config)
            async with running_bot(fake, bot):
                names = {int(u.id): u.name for u in fake.world.users.values()}
                for _ in range(6):
                    rec = await fake.slash("alice", "zarathustra new", {"opponent": "bob"})
                    accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
                    await fake.click("bob", rec.original, accept)
                    game_id = int(accept.rsplit(":", 1)[1])
                    thread = fake.thread(f"Zarathustra #{game_id}")
                    while (await bot.host.get(game_id)).status == "active":
                        row = await bot.host.get(game_id)
                        obs = await bot.host.observation(game_id, None)
                        mover = names[row.user_at(obs["to_move"][0])]
                        start = time.perf_counter()
                        choices = await fake.autocomplete(mover, "zarathustra move", focused="move", value="",
                                                          channel=thread)
                        complete.append((time.perf_counter() - start) * 1000)
                        pick = choices[len(samples) % len(choices)]["value"]
                        if " " not in pick:  # a square: narrow to its moves
                            moves = await fake.autocomplete(mover, "zarathustra move", focused="move",
                                                            value=pick + " ", channel=thread)
                            pick = moves[0]["value"]
                        start = time.perf_counter()
                        await fake.slash(mover, "zarathustra move", {"move": pick}, channel=thread)
                        samples.append((time.perf_counter() - start) * 1000)
    print(f"slash move end to end with PNG: {percentiles(samples)}")
    print(f"autocomplete end to end: {percentiles(complete)}")


if __name__ == "__main__":
    asyncio.run(main())
