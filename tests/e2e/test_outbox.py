"""What the bot owes after a commit survives Discord's faults: rate limits, server errors, refusals.

The fake Discord serves planned faults (tests/fakediscord/faults.py). discord.py itself retries 429s
(after ``retry_after``) and 500s; anything it gives up on stays owed in the outbox, and the dispatcher
(cogs/dispatch.py) delivers it later, exactly once.
"""

from __future__ import annotations

import asyncio
import sqlite3

from data.jobs import Job
from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept
from tests.fakediscord import Channel, FakeDiscord, Message
from tests.fakediscord.faults import CANNOT_DM, MISSING_PERMISSIONS
from tests.fakediscord.logs import ErrorLogCollector

MESSAGES = "/channels/{channel_id}/messages"


async def challenge(fake: FakeDiscord) -> tuple[int, Message]:
    rec = await fake.slash("alice", "zaic new", {"opponent": "bob"})
    assert rec.original is not None
    accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
    return int(accept.rsplit(":", 1)[1]), rec.original


async def owed(harness: BotHarness, bot: object) -> list[str]:
    """Outbox jobs still pending, scheduled expiries aside."""
    jobs = await bot.host.outbox.pending()  # type: ignore[attr-defined]
    return [j.dedupe for j in jobs if j.kind != "challenge_expire"]


async def test_a_rate_limit_and_a_server_error_are_retried_and_the_board_arrives_once(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, message = await challenge(fake)
        fake.faults.add("POST", MESSAGES, 429, retry_after=0.3)
        fake.faults.add("POST", MESSAGES, 500)
        await fake.click("bob", message, f"zg:accept:{game_id}")
        assert [status for *_, status in fake.faults.served] == [429, 500]
        boards = fake.messages(fake.thread(f"Zaic #{game_id}"))
        assert len(boards) == 1 and "begins" in boards[0].content and boards[0].attachments
        assert await owed(harness, bot) == []


async def test_a_refused_post_stays_owed_and_the_dispatcher_delivers_it_once(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, message = await challenge(fake)
        fake.faults.add("POST", MESSAGES, 403, code=MISSING_PERMISSIONS)  # discord.py does not retry a 403
        await fake.click("bob", message, f"zg:accept:{game_id}")
        thread = fake.thread(f"Zaic #{game_id}")
        assert fake.messages(thread) == [] and await owed(harness, bot) == [f"thread:{game_id}"]
        await fake.wait_until(lambda: fake.messages(thread), timeout=10, what="the dispatcher's retry")
        for _ in range(100):  # the dispatcher marks the job done right after Discord answered
            if not await owed(harness, bot):
                break
            await asyncio.sleep(0.02)
        assert await owed(harness, bot) == []
        assert len(fake.messages(thread)) == 1 and "begins" in fake.messages(thread)[0].content


async def test_a_repeated_nonce_returns_the_first_message_as_discord_does(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        channel = bot.get_channel(fake.world.channel("general").id)
        first = await channel.send("owed once", nonce="n-1")  # type: ignore[union-attr]
        again = await channel.send("owed once", nonce="n-1")  # type: ignore[union-attr]
        other = await channel.send("owed once", nonce="n-2")  # type: ignore[union-attr]
        assert first.id == again.id != other.id
        assert [m.content for m in fake.messages("general")].count("owed once") == 2


async def test_a_dm_refused_with_403_falls_back_to_the_thread_and_nothing_stays_owed(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        bob_dm = fake.world.dm_channel(fake.user("bob"))
        assert bob_dm is not None
        fake.faults.add("POST", MESSAGES, 403, code=CANNOT_DM, path=f"/channels/{bob_dm.id}/messages", times=5)
        game_id, _ = await challenge_and_accept(harness, "zodiac")
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        assert any(f"zs:{game_id}" in m.custom_ids() for m in fake.messages(fake.user("alice")))
        assert fake.messages(bob_dm) == [] and [s for *_, s in fake.faults.served] == [403]
        assert any(f"zp:{game_id}" in m.custom_ids() and "DMs are closed" in m.content for m in fake.messages(thread))
        assert await owed(harness, bot) == []


async def test_a_move_blocked_by_another_writer_is_refused_as_busy_within_2_seconds(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _ = await challenge_and_accept(harness, "zaic")
        mover = harness.name_of((await bot.host.session.row(game_id)).user_at(0) or 0)
        other = sqlite3.connect(harness.database_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process (a backup, a second bot) holds the write lock
        try:
            loop = asyncio.get_running_loop()
            started = loop.time()
            refused = await fake.slash(mover, "zaic move", {"move": "2x2 h8"}, channel=fake.thread(f"Zaic #{game_id}"))
            took = loop.time() - started
        finally:
            other.execute("ROLLBACK")
            other.close()
        print(f"\nbusy refusal after {took:.2f} s")
        assert refused.ephemeral and "busy" in refused.content and "try again" in refused.content and took < 2.5
        discord_error_logs.clear()  # the refusal is logged as a warning by data/db.py, not an error
        played = await fake.slash(mover, "zaic move", {"move": "2x2 h8"}, channel=fake.thread(f"Zaic #{game_id}"))
        assert not played.ephemeral and played.files


async def test_an_owed_thread_without_a_challenge_message_is_opened_in_the_channel(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    """A game that started at once (all seats taken) and whose process died before its message was known."""
    fake = harness.fake
    async with harness.running() as bot:
        alice = harness.user_id("alice")
        lobby = await bot.host.lobby.challenge(game="zaic", creator=alice, opponents=[alice], guild_id=fake.guild_id,
                                         channel_id=fake.world.general.id)
        assert lobby.started and lobby.row.message_id is None
        await bot.host.outbox.jobs.reschedule_key(f"thread:{lobby.row.id}", bot.host.now())  # as after a restart
        await fake.wait_until(lambda: [t for t in fake.world.threads() if t.name == f"Zaic #{lobby.row.id}"
                                       and fake.messages(t)], timeout=10, what="the thread")
        for _ in range(100):
            if not await owed(harness, bot):
                break
            await asyncio.sleep(0.02)
        assert await owed(harness, bot) == []
        row = await bot.host.session.row(lobby.row.id)
        thread = fake.thread(f"Zaic #{lobby.row.id}")
        assert row.thread_id == int(thread.id) and "begins" in fake.messages(thread)[0].content


async def retry_now(bot: object, key: str) -> None:
    """The dispatcher's retry of an owed job, now rather than after its back-off; waits until it ran."""
    await bot.host.outbox.jobs.reschedule_key(key, bot.host.now())  # type: ignore[attr-defined]
    for _ in range(200):
        if key not in [j.dedupe for j in await bot.host.outbox.pending()]:  # type: ignore[attr-defined]
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{key} was not retried")


def menus(fake: FakeDiscord, user: str, game_id: int) -> list[Message]:
    """The user's Zodiac DM menus still open (a closed one has lost its select)."""
    return [m for m in fake.messages(fake.user(user)) if f"zs:{game_id}" in fake.world.messages[m.id].custom_ids()]


async def zodiac_with_bobs_first_dm_lost(harness: BotHarness) -> tuple[int, Channel, str]:
    """A Zodiac game alice challenged and bob accepted, bob's first choice DM failing once with a 400 (not a 403:
    no thread fallback), so it stays owed: the game, bob's DM channel and the owed job's key."""
    fake = harness.fake
    bob_dm = fake.world.dm_channel(fake.user("bob"))
    fake.faults.add("POST", MESSAGES, 400, code=50035, path=f"/channels/{bob_dm.id}/messages", times=1)
    game_id, _ = await challenge_and_accept(harness, "zodiac")
    return game_id, bob_dm, f"dm:{game_id}:0:{harness.user_id('bob')}"


async def test_a_lost_duel_dm_is_still_sent_after_the_opponent_chose(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, bob_dm, key = await zodiac_with_bobs_first_dm_lost(harness)
        assert menus(fake, "bob", game_id) == [] and await owed(harness, bot) == [key]
        board = fake.messages(fake.thread(f"Zodiac Chess #{game_id}"))[-1]
        told = (await (await fake.click("bob", board, f"mo:{game_id}")).wait_followups(1))[0]
        assert told.ephemeral and "`/zodiac move`" in told.content, "without a DM, the Move button names a way"
        await fake.select("alice", menus(fake, "alice", game_id)[-1], f"zs:{game_id}", ["pick Tree"])
        await retry_now(bot, key)  # the ply moved on, but bob still has his pick to make
        [menu] = menus(fake, "bob", game_id)
        assert "side duel" in menu.content and "Wolf" in str(menu.components)
        assert await owed(harness, bot) == []
        again = Job(0, "choice_dm", game_id, {"user": harness.user_id("bob"), "upto": 0}, 0.0, 2, key)
        await bot.get_cog("ZodiacCog").outbox_choice_dm(again)  # the same job run twice: its nonce, one menu
        assert menus(fake, "bob", game_id) == [menu] and len(fake.messages(bob_dm)) == 1
        await fake.select("bob", menu, f"zs:{game_id}", ["pick Wolf"])
        assert (await bot.host.boards.observation(game_id, None))["phase"] == "side"
        discord_error_logs.clear()  # the planned 400 and its retry were logged


async def test_a_lost_duel_dm_owed_across_a_restart_is_sent_by_the_next_process(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, _, key = await zodiac_with_bobs_first_dm_lost(harness)
        await fake.select("alice", menus(fake, "alice", game_id)[-1], f"zs:{game_id}", ["pick Tree"])
        assert menus(fake, "bob", game_id) == [] and await owed(harness, bot) == [key]
    async with harness.running() as bot:  # start-up catches up with what the dead process owed
        for _ in range(200):
            if not await owed(harness, bot):
                break
            await asyncio.sleep(0.05)
        assert await owed(harness, bot) == []
        [menu] = menus(fake, "bob", game_id)
        assert "side duel" in menu.content
    discord_error_logs.clear()


async def test_a_lost_dm_is_dropped_once_its_choice_is_made_or_a_new_round_owes_its_own(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, bob_dm, stale = await zodiac_with_bobs_first_dm_lost(harness)
        thread = fake.thread(f"Zodiac Chess #{game_id}")
        await fake.slash("bob", "zodiac move", {"move": "pick Tree"}, channel=thread)
        await fake.select("alice", menus(fake, "alice", game_id)[-1], f"zs:{game_id}", ["pick Tree"])  # a tie
        [fresh] = menus(fake, "bob", game_id)  # round 2 of the duel: its own DM, delivered at once
        await retry_now(bot, stale)
        assert menus(fake, "bob", game_id) == [fresh], "the old round's DM sends no second menu"
        assert len([m for m in fake.messages(bob_dm) if f"zs:{game_id}" in m.custom_ids()]) == 1
        assert await owed(harness, bot) == []
    discord_error_logs.clear()
