"""Playing by clicking: move buttons under the board (Ziggurat turns), stale buttons, the roll list."""

from __future__ import annotations

import pytest

from host.results import HostError
from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept, mover_name


async def test_a_dice_turn_is_played_by_clicking_and_old_buttons_refuse(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        thread = fake.thread(f"Ziggurat #{game_id}")
        assert "🎲 roll" in first.content or "rolled" in first.content
        ply, moves = await bot.host.boards.turn_moves(game_id)
        assert first.custom_ids()[0] == f"mo:{game_id}", "the Move button (the move builder) comes first"
        assert moves and sorted(first.custom_ids()[1:]) == sorted(f"zm:{game_id}:{ply}:{m}" for m in moves)
        mover = await mover_name(harness, bot, game_id)
        other = "bob" if mover == "alice" else "alice"
        not_yours = await fake.click(other, first, f"zm:{game_id}:{ply}:{moves[0]}")
        assert not_yours.ephemeral and "not your turn" in not_yours.content
        pick = next(m for m in moves if m != "end")
        await fake.click(mover, first, f"zm:{game_id}:{ply}:{pick}")
        latest = fake.messages(thread)[-1]
        assert latest.attachments and pick in latest.content
        now = (await bot.host.boards.observation(game_id, None))["ply"]
        assert now > ply
        live = [m for m in fake.messages(thread) if m.custom_ids()]
        moves_now = [c for m in live for c in m.custom_ids() if c.startswith("zm:")]
        assert len(live) <= 1 and all(f":{now}:" in c for c in moves_now), "one live board"
        if len(fake.messages(thread)) == 1:  # a step inside the turn: the turn's one message was edited
            assert latest.edited_timestamp and latest.content.startswith("🎲")
        rolls = await fake.slash(mover, "ziggurat rolls", channel=thread)
        assert rolls.ephemeral and "1:" in rolls.content and rolls.content.count(":") >= 2


async def test_a_button_from_an_older_position_is_refused(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _first = await challenge_and_accept(harness, "ziggurat")
        ply, moves = await bot.host.boards.turn_moves(game_id)
        mover = await mover_name(harness, bot, game_id)
        await fake.slash(mover, "ziggurat move", {"move": "end"}, channel=fake.thread(f"Ziggurat #{game_id}"))
        assert not fake.messages(fake.thread(f"Ziggurat #{game_id}"))[0].custom_ids(), "old board retired"
        with pytest.raises(HostError, match="earlier position"):  # a click racing the retirement
            await bot.host.turns.play(game_id, harness.user_id(mover), moves[0], expected_ply=ply)


async def test_an_unexpected_failure_still_gets_a_private_answer(harness: BotHarness, discord_error_logs,
                                                                 monkeypatch) -> None:
    from cogs._errors import GENERIC_FAILURE

    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "ziggurat")
        ply, moves = await bot.host.boards.turn_moves(game_id)
        mover = await mover_name(harness, bot, game_id)

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(bot.host.turns, "play", broken)
        clicked = await fake.click(mover, first, f"zm:{game_id}:{ply}:{moves[0]}")
        assert clicked.ephemeral and clicked.content == GENERIC_FAILURE
        typed = await fake.slash(mover, "ziggurat move", {"move": "end"}, channel=fake.thread(f"Ziggurat #{game_id}"))
        assert typed.ephemeral and typed.content == GENERIC_FAILURE
    logged = "\n".join(discord_error_logs.formatted())
    assert "MoveButton failed" in logged and "command /ziggurat move failed" in logged and "disk on fire" in logged
    discord_error_logs.clear()
