"""Issue 25: what players still tripped over (aborting an AI game, hints, AI names, teams, leaderboards, wording)."""

from __future__ import annotations

import sqlite3

from host import bots
from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import AI_WAIT, ai_move_count, legal_for, start_ai_game


def rating_rows(harness: BotHarness) -> int:
    with sqlite3.connect(harness.database_path) as conn:
        return conn.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0]


async def test_a_zodiac_game_against_the_ai_can_be_aborted_after_its_secret_pick(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zodiac", {"ai": "hard"})
        await fake.wait_until(lambda: ai_move_count(harness.database_path, game_id, "hard") >= 1,
                              timeout=AI_WAIT, what="the AI's secret pick")
        listed = await fake.slash("alice", "games")
        assert f"#{game_id}" in listed.content
        aborted = await fake.slash("alice", "zodiac abort", channel=thread)
        assert not aborted.ephemeral, aborted.content
        assert "aborted" in aborted.content and "AI's moves are taken back" in aborted.content
        assert (await bot.host.get(game_id)).status == "aborted"
        assert f"#{game_id}" not in (await fake.slash("alice", "games")).content
        assert rating_rows(harness) == 0


async def test_a_game_against_the_ai_cannot_be_aborted_once_the_player_moved(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        alice = harness.user_id("alice")
        row = await bot.host.get(game_id)
        if row.seats_of(bots.user_of("easy"))[0] == 0:  # the AI opens: wait for it
            await fake.wait_until(lambda: ai_move_count(harness.database_path, game_id, "easy") >= 1,
                                  timeout=AI_WAIT, what="the AI's first move")
        move = legal_for(harness.database_path, game_id, alice)[0]
        await fake.slash("alice", "zaic move", {"move": move}, channel=thread)
        refused = await fake.slash("alice", "zaic abort", channel=thread)
        assert refused.ephemeral and "resign instead" in refused.content
