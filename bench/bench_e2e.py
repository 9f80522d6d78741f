"""One ``/zarathustra move`` end to end through the fake Discord, board PNG included.

Run: ``.venv/bin/python -m bench.bench_e2e``. Target: p50 under 60 ms.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from pathlib import Path

from bench.common import report, timing
from tests.fakediscord import FakeDiscord, running_bot
from zbot import Config, create_bot


async def main() -> None:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
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
                    while (await bot.host.session.row(game_id)).status == "active":
                        row = await bot.host.session.row(game_id)
                        obs = await bot.host.boards.observation(game_id, None)
                        mover = names[row.user_at(obs["to_move"][0])]
                        with timing(complete):
                            choices = await fake.autocomplete(mover, "zarathustra move", focused="move", value="",
                                                              channel=thread)
                        pick = choices[len(samples) % len(choices)]
                        while " … (" in pick["name"]:  # a group of moves: narrow into it
                            pick = (await fake.autocomplete(mover, "zarathustra move", focused="move",
                                                            value=pick["value"], channel=thread))[0]
                        with timing(samples):
                            await fake.slash(mover, "zarathustra move", {"move": pick["value"]}, channel=thread)
    report("slash move end to end with PNG", samples)
    report("autocomplete end to end", complete)


if __name__ == "__main__":
    asyncio.run(main())
