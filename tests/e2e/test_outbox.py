"""What the bot owes after a commit survives Discord's faults: rate limits, server errors, refusals.

The fake Discord serves planned faults (tests/fakediscord/faults.py). discord.py itself retries 429s
(after ``retry_after``) and 500s; anything it gives up on stays owed in the outbox, and the dispatcher
(cogs/dispatch.py) delivers it later, exactly once.
"""

from __future__ import annotations

import asyncio
import sqlite3

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept
from tests.fakediscord import FakeDiscord, Message
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
