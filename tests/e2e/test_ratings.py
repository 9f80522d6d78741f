"""Ratings end to end: finished games count, /leaderboard and /profile images, /season start rights."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import PNG, challenge_and_accept, mover_name


async def play_rated_game(harness: BotHarness, bot, loser: str) -> int:
    """A Zaic game with two moves each, then ``loser`` resigns in the thread."""
    game_id, _ = await challenge_and_accept(harness, "zaic")
    for _ in range(4):
        mover = await mover_name(harness, bot, game_id)
        moves = [m for _, m in await bot.host.boards.move_choices(game_id, harness.user_id(mover), "")]
        full = [m for _, m in await bot.host.boards.move_choices(game_id, harness.user_id(mover), moves[0] + " ")]
        await bot.host.turns.play(game_id, harness.user_id(mover), (full or moves)[0])
    await harness.fake.slash(loser, "zaic resign", channel=harness.fake.thread(f"Zaic #{game_id}"))
    return game_id


async def test_leaderboard_profile_and_seasons(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        for _ in range(5):
            await play_rated_game(harness, bot, loser="bob")
        board = await fake.slash("alice", "leaderboard", {"game": "zaic"})
        assert board.files and board.files[0].data.startswith(PNG)
        assert "You are #1 of 2" in board.content
        bob = await fake.slash("bob", "leaderboard", {"game": "zaic", "scope": "global"})
        assert "You are #2 of 2" in bob.content

        profile = await fake.slash("carol", "profile", {"user": "alice"})
        embed = profile.embeds[0]
        assert "Zaic" in str(embed["fields"]) and "5W 0L 0D" in str(embed["fields"])
        assert profile.files[0].data.startswith(PNG)

        fake.user("carol").permissions = "0"
        refused = await fake.slash("carol", "season start")
        assert refused.ephemeral and "Manage Server" in refused.content
        started = await fake.slash("alice", "season start")
        assert "Season 2 begins" in started.content and not started.ephemeral
        again = await fake.slash("alice", "season start")  # a double submit: a private line, no season 3
        assert again.ephemeral and "Season 2 began on this server" in again.content
        assert "`/season start season:3`" in again.content
        fresh = await fake.slash("alice", "leaderboard", {"game": "zaic", "season": 2})
        assert "Nobody is ranked yet" in fresh.content
