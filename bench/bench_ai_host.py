"""Autocomplete through the fake Discord while four AI games think at once. Target: p95 under 50 ms.

Run: ``.venv/bin/python -m bench.bench_ai_host`` (``AI_WORKERS`` sets the pool, default 2 here so both
cores search). Four players each have a game against the hard AI; whenever it is their turn they reply
at once, so the AIs think without pause. Meanwhile two people play Zarathustra through autocomplete,
and each autocomplete request is timed end to end. The searches are whatever ``ai.choose`` is installed.

``BENCH_AI_THINK`` (seconds, default 0) adds a pause before every search (the ``AI_THINK_DELAY`` knob):
with a search that returns at once (the provisional random AI), 0 is the worst case, four games
moving as fast as the host can post them; 1 paces them like the medium level's search.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import tempfile
import time
from pathlib import Path

from bench.common import report, timing
from host.play import bots
from tests.fakediscord import FakeDiscord, running_bot
from zbot import Config, ZBot, create_bot

AI_GAMES = 4
SAMPLES = 300


async def keep_ais_busy(bot: ZBot, games: list[int], humans: dict[int, int], stop: asyncio.Event) -> int:
    """Reply at once whenever a human is to move in an AI game (a new game when one ends); returns the replies."""
    rng = random.Random(1)
    replies = 0
    while not stop.is_set():
        for i, game_id in enumerate(games):
            row, game = await bot.host.session.engine_copy(game_id)
            if row.status != "active":
                lobby = await bot.host.lobby.challenge(game="zaic", creator=humans[i], opponents=[bots.user_of("hard")],
                                                 settings={"rated": False})
                games[i] = lobby.row.id
                await bot.ai.hurry(lobby.row.id)
                continue
            seats = [s for s in row.seats_of(humans[i]) if s in game.to_move()]
            if seats:
                await bot.host.turns.play(game_id, humans[i], rng.choice(game.legal_moves(seats[0])))
                await bot.ai.hurry(game_id)
                replies += 1
        await asyncio.sleep(0.05)
    return replies


async def main() -> None:
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    workers = int(os.environ.get("AI_WORKERS") or 2)
    think = float(os.environ.get("BENCH_AI_THINK") or 0)
    samples: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            config = Config(token="bench", database_path=Path(folder) / "bench.sqlite3", api_base=fake.api_base,
                            gateway_url=fake.gateway_url, sync=True, guild_ready_timeout=0, ai_workers=workers,
                            ai_think_delay=think)
            bot = create_bot(config)
            async with running_bot(fake, bot):
                names = {int(u.id): u.name for u in fake.world.users.values()}
                humans = {i: int(fake.user(f"player{i}").id) for i in range(AI_GAMES)}
                games = []
                for i in range(AI_GAMES):
                    lobby = await bot.host.lobby.challenge(game="zaic", creator=humans[i],
                                                     opponents=[bots.user_of("hard")], settings={"rated": False})
                    games.append(lobby.row.id)
                    await bot.ai.hurry(lobby.row.id)
                stop = asyncio.Event()
                busy = asyncio.create_task(keep_ais_busy(bot, games, humans, stop))
                started = time.perf_counter()
                while len(samples) < SAMPLES:
                    rec = await fake.slash("alice", "zarathustra new", {"opponent": "bob"})
                    accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
                    await fake.click("bob", rec.original, accept)
                    game_id = int(accept.rsplit(":", 1)[1])
                    thread = fake.thread(f"Zarathustra #{game_id}")
                    while (await bot.host.session.row(game_id)).status == "active" and len(samples) < SAMPLES:
                        row = await bot.host.session.row(game_id)
                        obs = await bot.host.boards.observation(game_id, None)
                        mover = names[row.user_at(obs["to_move"][0]) or 0]
                        with timing(samples):
                            choices = await fake.autocomplete(mover, "zarathustra move", focused="move", value="",
                                                              channel=thread)
                        pick = choices[len(samples) % len(choices)]
                        while " … (" in pick["name"]:
                            pick = (await fake.autocomplete(mover, "zarathustra move", focused="move",
                                                            value=pick["value"], channel=thread))[0]
                        await fake.slash(mover, "zarathustra move", {"move": pick["value"]}, channel=thread)
                elapsed = time.perf_counter() - started
                stop.set()
                replies = await busy
    report(f"autocomplete, {AI_GAMES} AI games thinking ({workers} workers, +{think:g} s)", samples)
    print(f"  meanwhile the AIs moved and were answered {replies} times in {elapsed:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
