"""The move builder end to end: whole games played only by builder presses, and its refusals."""

from __future__ import annotations

import random

from tests.e2e.builder_driver import Presses, is_builder, open_builder, play_one_move
from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept, game_title, mover_name

MAX_PLIES = 400


async def play_whole_game(harness: BotHarness, bot, game: str, seed: str) -> Presses:
    """alice and bob play ``game`` to its end pressing only Move, the builder's choices and Play."""
    fake = harness.fake
    fake.timeout = 30
    game_id, _first = await challenge_and_accept(harness, game)
    thread = fake.thread(f"{game_title(game)} #{game_id}")
    rng, stats = random.Random(seed), Presses()
    for _ in range(MAX_PLIES):
        row = await bot.host.get(game_id)
        if row.status != "active":
            break
        board = next(m for m in reversed(fake.messages(thread)) if f"mo:{game_id}" in m.custom_ids())
        user = await mover_name(harness, bot, game_id)
        builder = await open_builder(fake, user, board, game_id, stats)
        builder = await play_one_move(fake, user, builder, rng, stats)
        while is_builder(builder):  # the same player's next step of a turn of several
            builder = await play_one_move(fake, user, builder, rng, stats, opened=False)
    row = await bot.host.get(game_id)
    assert row.status == "finished", f"{game} #{game_id} did not end by builder presses"
    last = fake.messages(thread)[-1]
    assert "🏆" in last.content or "🤝" in last.content
    return stats


async def test_a_whole_zaic_game_by_builder_presses(harness: BotHarness) -> None:
    async with harness.running() as bot:
        stats = await play_whole_game(harness, bot, "zaic", "zaic")
    assert stats.per_move and max(stats.picks_per_move) <= 3
