"""The Rematch button end to end: against the AI the rematch starts at once, and a second press is refused."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import start_ai_game


async def test_a_rematch_against_the_ai_starts_and_pressing_again_is_refused_privately(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        resigned = await fake.slash("alice", "zaic resign", channel=thread)
        assert not resigned.ephemeral and (await bot.host.session.row(game_id)).status == "finished"
        final = next(m for m in reversed(fake.messages(thread)) if f"zr:{game_id}" in m.custom_ids())
        asked = await fake.click("alice", final, f"zr:{game_id}")
        assert asked.ephemeral and asked.content.startswith("Rematch #"), asked.content
        new_id = int(asked.content.split("#", 1)[1].split(" ", 1)[0])
        started = fake.messages("general")[-1]
        assert f"#{new_id}" in started.content and "The game is on!" in started.content
        assert not started.custom_ids(), "nobody is left to accept"
        await fake.wait_until(lambda: any(t.name == f"Zaic #{new_id}" and t.messages for t in fake.threads()),
                              what="the rematch's thread")
        assert (await bot.host.session.row(new_id)).status == "active"
        before = len(fake.messages("general"))
        again = await fake.click("alice", final, f"zr:{game_id}")
        assert again.ephemeral and f"Rematch #{new_id} of game #{game_id} is already being played" in again.content
        assert len(fake.messages("general")) == before, "no second challenge"


async def test_the_final_board_opens_the_games_replay_with_its_move_list(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy"})
        resigned = await fake.slash("alice", "zaic resign", channel=thread)
        assert not resigned.ephemeral and (await bot.host.session.row(game_id)).status == "finished"
        final = next(m for m in reversed(fake.messages(thread)) if f"zr:{game_id}" in m.custom_ids())
        assert f"zro:{game_id}" in final.custom_ids(), final.custom_ids()
        replay = await fake.click("bob", final, f"zro:{game_id}")
        assert replay.ephemeral, "the replay opens privately, for anyone who presses"
        assert f"#{game_id}" in replay.content, replay.content
        assert "Position after move" in replay.content, replay.content
