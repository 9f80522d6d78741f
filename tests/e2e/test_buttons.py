"""Playing by clicking: move buttons under the board (Ziggurat turns), stale buttons, the roll list."""

from __future__ import annotations

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept, mover_name


async def test_a_dice_turn_is_played_by_clicking_and_old_buttons_refuse(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        thread = fake.thread(f"Ziggurat #{game_id}")
        assert "🎲 roll" in first.content or "rolled" in first.content
        ply, moves = await bot.host.turn_moves(game_id)
        assert moves and sorted(first.custom_ids()) == sorted(f"zm:{game_id}:{ply}:{m}" for m in moves)
        mover = await mover_name(harness, bot, game_id)
        other = "bob" if mover == "alice" else "alice"
        not_yours = await fake.click(other, first, f"zm:{game_id}:{ply}:{moves[0]}")
        assert not_yours.ephemeral and "not your turn" in not_yours.content
        pick = next(m for m in moves if m != "end")
        await fake.click(mover, first, f"zm:{game_id}:{ply}:{pick}")
        latest = fake.messages(thread)[-1]
        assert latest.attachments and pick in latest.content
        assert (await bot.host.observation(game_id, None))["ply"] > ply
        assert not fake.messages(thread)[0].custom_ids(), "the clicked board's buttons are removed"
        rolls = await fake.slash(mover, "ziggurat rolls", channel=thread)
        assert rolls.ephemeral and "1:" in rolls.content and rolls.content.count(":") >= 2


async def test_a_button_from_an_older_position_is_refused(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        ply, moves = await bot.host.turn_moves(game_id)
        mover = await mover_name(harness, bot, game_id)
        await fake.slash(mover, "ziggurat move", {"move": "end"}, channel=fake.thread(f"Ziggurat #{game_id}"))
        old = await fake.click(mover, first, f"zm:{game_id}:{ply}:{moves[0]}")
        assert old.ephemeral and "earlier position" in old.content


async def test_an_unexpected_failure_still_gets_a_private_answer(harness: BotHarness, discord_error_logs,
                                                                 monkeypatch) -> None:
    from cogs._shared import GENERIC_FAILURE

    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        ply, moves = await bot.host.turn_moves(game_id)
        mover = await mover_name(harness, bot, game_id)

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(bot.host, "play", broken)
        clicked = await fake.click(mover, first, f"zm:{game_id}:{ply}:{moves[0]}")
        assert clicked.ephemeral and clicked.content == GENERIC_FAILURE
        typed = await fake.slash(mover, "ziggurat move", {"move": "end"}, channel=fake.thread(f"Ziggurat #{game_id}"))
        assert typed.ephemeral and typed.content == GENERIC_FAILURE
    logged = "\n".join(discord_error_logs.formatted())
    assert "MoveButton failed" in logged and "command /ziggurat move failed" in logged and "disk on fire" in logged
    discord_error_logs.clear()
