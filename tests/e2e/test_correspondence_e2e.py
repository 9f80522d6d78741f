"""Correspondence play end to end: the real bot and its scheduler loop against the fake Discord.

Time is a FakeClock put into the bot's host after start-up; the tests drive the scheduler with the
cog's ``run_once`` (what its background loop calls), so nothing sleeps. ``/<game> new`` has no
``clock`` option yet, so a test sets the challenge's clock in the database before it is accepted.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from host.correspondence.clocks import DAY
from tests.conftest import FakeClock
from tests.e2e.conftest import BotHarness
from tests.e2e.test_zodiac import dm_menu
from zbot import ZBot

PNG = b"\x89PNG\r\n\x1a\n"


def real_time_clock() -> FakeClock:
    """Starts at the real time, so a loop tick that runs on real time before the switch finds nothing due."""
    return FakeClock(time.time())


@asynccontextmanager
async def clocked_bot(harness: BotHarness, clock: FakeClock) -> AsyncIterator[tuple[ZBot, Any]]:
    """The bot with its host on ``clock``, and the correspondence cog (loaded as an extension, so its own class)."""
    async with harness.running() as bot:
        bot.host.now = clock
        cog = bot.get_cog("Correspondence")
        assert cog is not None and hasattr(cog, "run_once")
        await harness.fake.wait_until(lambda: bot._worker_task is not None, what="the job runner")
        yield bot, cog


async def clocked_game(harness: BotHarness, bot: ZBot, opponent: str, clock: str) -> int:
    """alice challenges ``opponent`` to Zaic with ``clock``; they accept; the thread opens."""
    fake = harness.fake
    rec = await fake.slash("alice", "zaic new", {"opponent": opponent})
    accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
    game_id = int(accept.rsplit(":", 1)[1])
    async with bot.db.transaction() as tx:
        await tx.execute("UPDATE games SET settings = json_set(settings, '$.clock', ?) WHERE id = ?",
                         (clock, game_id))
    await fake.click(opponent, rec.original, accept)
    name = f"Zaic #{game_id}"
    await fake.wait_until(lambda: any(t.name == name and t.messages for t in fake.threads()), what=f"{name} board")
    return game_id


async def to_move(harness: BotHarness, bot: ZBot, game_id: int) -> str:
    row = await bot.host.session.row(game_id)
    user = row.user_at((await bot.host.boards.observation(game_id, None))["to_move"][0])
    assert user is not None
    return harness.name_of(user)


async def play_any(harness: BotHarness, bot: ZBot, game_id: int) -> str:
    """The player to move plays their first legal move through the slash command; returns who moved."""
    fake = harness.fake
    thread = fake.thread(f"Zaic #{game_id}")
    mover = await to_move(harness, bot, game_id)
    choices = await fake.autocomplete(mover, "zaic move", focused="move", value="", channel=thread)
    played = await fake.slash(mover, "zaic move", {"move": choices[0]["value"]}, channel=thread)
    assert not played.ephemeral
    return mover


async def test_a_game_with_a_reminder_a_restart_and_a_timeout(harness: BotHarness) -> None:
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, cog):
        game_id = await clocked_game(harness, bot, "bob", "1d")
        first = await play_any(harness, bot, game_id)
        late = "bob" if first == "alice" else "alice"
        assert (await bot.host.session.row(game_id)).deadline == clock() + DAY
        clock.advance(0.75 * DAY)
        await cog.run_once()
        [reminder] = fake.messages(fake.user(late))
        assert "6h 00m left (1 day per move)" in reminder.content and f"#{game_id}" in reminder.content
    # A restart: the reminder is not sent again, and the deadline still stands.
    async with clocked_bot(harness, clock) as (bot, cog):
        clock.advance(0.25 * DAY - 1)
        done = await cog.run_once()
        assert not done and len(fake.messages(fake.user(late))) == 1
        clock.advance(1)
        done = await cog.run_once()
        assert len(done.timeouts) == 1
        posted = fake.last_message(fake.thread(f"Zaic #{game_id}"))
        assert "ran out of time (1 day per move)" in posted.content and f"<@{harness.user_id(late)}>" in posted.content
        assert posted.attachments and posted.attachments[0].data.startswith(PNG)
        history = await fake.slash(first, "history")
        assert history.ephemeral and f"#{game_id}" in history.content and "won" in history.content


async def test_a_timeout_that_fell_due_while_the_bot_was_down_is_posted_on_start(harness: BotHarness) -> None:
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, _):
        game_id = await clocked_game(harness, bot, "bob", "2d")
        await play_any(harness, bot, game_id)
    clock.advance(3 * DAY)  # down through the reminder and the deadline
    async with clocked_bot(harness, clock) as (bot, cog):
        done = await cog.run_once()
        assert len(done.timeouts) == 1 and done.reminders == []
        assert "ran out of time (2 days per move)" in fake.last_message(fake.thread(f"Zaic #{game_id}")).content
        assert (await bot.host.session.row(game_id)).status == "finished"


async def test_closed_dms_fall_back_to_the_thread(harness: BotHarness) -> None:
    fake, clock = harness.fake, real_time_clock()
    fake.close_dms("carol")
    async with clocked_bot(harness, clock) as (bot, cog):
        game_id = await clocked_game(harness, bot, "carol", "1d")
        if await play_any(harness, bot, game_id) == "carol":
            await play_any(harness, bot, game_id)  # make it carol's turn
        clock.advance(0.75 * DAY)
        await cog.run_once()
        assert fake.messages(fake.user("carol")) == []
        posted = fake.last_message(fake.thread(f"Zaic #{game_id}"))
        assert posted.content.startswith(f"⏳ <@{harness.user_id('carol')}>, it is your move")


@pytest.mark.parametrize("then", ["resigns", "moves"])
async def test_a_reminder_retried_after_its_turn_is_over_is_dropped(harness: BotHarness, then: str) -> None:
    """A reminder whose send failed is retried by the job runner; by then carol resigned (the game is over) or
    moved (the turn passed): "it is your move" would be wrong, so the retry drops it and nothing is posted."""
    fake, clock = harness.fake, real_time_clock()
    fake.close_dms("carol")  # reminders go to the thread
    async with clocked_bot(harness, clock) as (bot, cog):
        game_id = await clocked_game(harness, bot, "carol", "1d")
        if await play_any(harness, bot, game_id) == "carol":
            await play_any(harness, bot, game_id)  # make it carol's turn
        thread = fake.thread(f"Zaic #{game_id}")
        clock.advance(0.75 * DAY)
        fake.faults.add("POST", "/channels/{channel_id}/messages", 403, code=50013,
                        path=f"/channels/{thread.id}/messages")  # the reminder's one send is refused
        [reminder] = (await cog.run_once()).reminders
        assert reminder.key in [j.dedupe for j in await bot.host.outbox.pending()]
        if then == "resigns":
            await fake.slash("carol", "zaic resign", channel=thread)
            assert (await bot.host.session.row(game_id)).status == "finished"
        else:
            assert await play_any(harness, bot, game_id) == "carol"
        before = len(fake.messages(thread))
        await bot.worker.run_keys([reminder.key])  # what the job runner does once the retry falls due
        assert not any("it is your move" in m.content for m in fake.messages(thread)[before:])
        assert reminder.key not in [j.dedupe for j in await bot.host.outbox.pending()], "dropped, not retried"


async def test_games_vacation_and_the_digest(harness: BotHarness) -> None:
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, cog):
        slow = await clocked_game(harness, bot, "bob", "7d")
        fast = await clocked_game(harness, bot, "dave", "1d")
        for game_id in (slow, fast):
            if await to_move(harness, bot, game_id) != "alice":
                await play_any(harness, bot, game_id)
        listed = await fake.slash("alice", "games")
        assert listed.ephemeral
        assert listed.content.index(f"#{fast}") < listed.content.index(f"#{slow}")
        assert "1d 0h left" in listed.content and "**your turn**" in listed.content
        theirs = await fake.slash("alice", "games", {"user": "bob"})
        assert f"#{slow}" in theirs.content and f"#{fast}" not in theirs.content

        deadline = (await bot.host.session.row(fast)).deadline
        assert deadline is not None
        said = await fake.slash("alice", "vacation", {"days": 3})
        assert said.ephemeral and "3 of 14 vacation days" in said.content
        assert (await bot.host.session.row(fast)).deadline == deadline + 3 * DAY
        refused = await fake.slash("alice", "vacation", {"days": 12})
        assert refused.ephemeral and "11 vacation day(s) left" in refused.content

        chosen = await fake.slash("alice", "notify", {"mode": "digest"})
        assert chosen.ephemeral and "daily DM" in chosen.content
        done = await cog.run_once()
        assert len(done.digests) == 1
        digest = fake.last_message(fake.user("alice"))
        assert "your turn in 2 games" in digest.content and f"#{fast}" in digest.content
        clock.advance(DAY)
        await cog.run_once()
        assert len(fake.messages(fake.user("alice"))) == 2  # one digest a day


async def test_a_double_submitted_vacation_is_granted_once(harness: BotHarness) -> None:
    """Two ``/vacation days:14`` at once: one is granted, the other privately refused, the clock paused 14 days."""
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, _cog):
        game_id = await clocked_game(harness, bot, "bob", "1d")
        if await to_move(harness, bot, game_id) != "alice":
            await play_any(harness, bot, game_id)
        deadline = (await bot.host.session.row(game_id)).deadline
        assert deadline is not None
        replies = await asyncio.gather(fake.slash("alice", "vacation", {"days": 14}),
                                       fake.slash("alice", "vacation", {"days": 14}))
        assert all(r.ephemeral for r in replies)
        assert sorted("14 of 14 vacation days" in r.content for r in replies) == [False, True]
        assert any("0 vacation day(s) left" in r.content for r in replies)
        assert (await bot.host.session.row(game_id)).deadline == deadline + 14 * DAY


async def test_a_later_match_game_the_clock_aborts_ends_the_match_in_its_thread(harness: BotHarness) -> None:
    """Game 2 of a Zodiac best of 3 that nobody started (both had a secret pick to make): the notice says nobody
    scores and the match ends at its score, 1-0 (it once hung: no result, no game 3, no word)."""
    fake, clock = harness.fake, real_time_clock()
    async with clocked_bot(harness, clock) as (bot, cog):
        rec = await fake.slash("alice", "zodiac new", {"opponent": "bob", "games": 3, "clock": "1d"})
        accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("bob", rec.original, accept)
        first = int(accept.rsplit(":", 1)[1])
        thread = await fake.wait_until(lambda: next((t for t in fake.threads() if t.name == f"Zodiac Chess #{first}"
                                                     and t.messages), None), what="the match's thread")
        await fake.select("alice", dm_menu(harness, "alice", first), f"zs:{first}", ["pick Tree"])
        await fake.select("bob", dm_menu(harness, "bob", first), f"zs:{first}", ["pick Wolf"])
        await fake.slash("alice", "zodiac move", {"move": "light"}, channel=thread)
        await fake.slash("bob", "zodiac resign", channel=thread)  # game 1: alice leads 1-0
        second = (await bot.host.boards.resolve("zodiac", harness.user_id("alice"), thread_id=thread.id,
                                                guild_id=fake.guild_id)).id
        assert second != first
        clock.advance(3 * DAY)
        await cog.run_once()
        notice = await fake.wait_until(lambda: next((m for m in fake.messages(thread) if f"#{second} is aborted"
                                                     in m.content), None), what="the abort's notice")
        alice, bob = (f"<@{harness.user_id(name)}>" for name in ("alice", "bob"))
        assert "neither player scores" in notice.content, notice.content
        score = f"{alice} 1 – 0 {bob}", f"{bob} 0 – 1 {alice}"  # in the seat order of game 1, which was drawn
        assert any(s in notice.content for s in score) and f"{alice} wins the match" in notice.content, notice.content
        assert (await bot.host.session.row(second)).status == "aborted"
        assert not [m for m in fake.messages(thread) if "begins" in m.content
                    and f"#{first}" not in m.content and f"#{second}" not in m.content], "no game 3"
