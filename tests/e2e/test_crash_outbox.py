"""SIGKILL inside every window between a commit and what it owes; after a restart each owed message
arrives exactly once and every game has its thread.

The bot runs as ``python bot.py`` in a subprocess (tests/e2e/test_crash.py). The test-only variable
``ZGAMES_CRASH_AT=<point>`` makes the process SIGKILL itself at a named point (host/outbox.py
``crash_point``): ``start`` (the Accept that starts a game is saved, nothing shown yet), ``thread_made``
(the thread exists but is not recorded), ``posted`` (the first board is posted and shown, what follows it not yet sent),
``move`` (a move saved, its board not posted), ``end`` (a resignation saved and rated, no result
posted) and ``remind`` (a reminder recorded, not sent). Each restart runs with the next point set, so
it both recovers the previous window and dies in the next one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data.db import Database
from host.outbox import CRASH_ENV
from tests.e2e.test_crash import HOUR, BotProcess, accept, age, bot_process, dms_about, mover_of, start_game
from tests.e2e.test_shards import mover_of as shard_mover_of
from tests.fakediscord import FakeDiscord, Message


async def died(bot: BotProcess, timeout: float = 60.0) -> None:
    """The bot died at its crash point; a point never reached fails here (its log printed) rather than hanging."""
    assert bot.proc is not None
    try:
        await asyncio.wait_for(bot.proc.wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"the bot did not reach {bot.env.get(CRASH_ENV)!r} in {timeout:.0f} s") from None


async def crash_at(bot: BotProcess, point: str | None) -> None:
    """Start the bot (after the previous process died) armed to die at ``point``."""
    if bot.proc is not None:
        await died(bot)
        assert bot.reader is not None
        await bot.reader
    bot.env.pop(CRASH_ENV, None)
    if point is not None:
        bot.env[CRASH_ENV] = point
    await bot.start()


def boards(fake: FakeDiscord, game_id: int, words: str) -> list[Message]:
    """Messages of the game's thread saying ``words`` (none while the thread does not exist)."""
    threads = [t for t in fake.world.threads() if t.name == f"Zaic #{game_id}"]
    return [m for t in threads for m in fake.messages(t) if words in m.content]


def owed(database: Path) -> list[str]:
    """Outbox jobs not yet done (scheduled challenge expiries aside)."""
    with sqlite3.connect(database) as conn:
        return [r[0] for r in conn.execute("SELECT dedupe FROM jobs WHERE done_at IS NULL AND kind IN"
                                           " ('thread', 'post', 'notice', 'remind', 'choice_dm')")]


async def settled(database: Path) -> None:
    """Until nothing is owed: from then on nothing more will be sent, so counting messages is final."""
    for _ in range(300):
        if not owed(database):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still owed: {owed(database)}")


async def exactly_once(fake: FakeDiscord, database: Path, game_id: int, words: str) -> None:
    await fake.wait_until(lambda: boards(fake, game_id, words), timeout=15, what=f"'{words}' in game {game_id}")
    await settled(database)
    assert len(boards(fake, game_id, words)) == 1, [m.content for m in fake.messages(fake.thread(f"Zaic #{game_id}"))]


async def click_accept(fake: FakeDiscord, game_id: int, challenge: Message, user: str) -> None:
    await fake.click(user, challenge, f"zg:accept:{game_id}", wait="none")


async def slash_in_thread(fake: FakeDiscord, database: Path, game_id: int, command: str,
                          options: dict[str, str], user: str | None = None) -> None:
    who = user or mover_of(database, game_id, fake)
    await fake.slash(who, command, options, channel=fake.thread(f"Zaic #{game_id}"), wait="none")


async def test_sigkill_in_every_window_loses_nothing_and_sends_nothing_twice(fake_discord: FakeDiscord,
                                                                            tmp_path: Path) -> None:
    fake, database = fake_discord, tmp_path / "crash.sqlite3"
    fake.user("erin"), fake.user("frank")
    async with bot_process(fake, database) as bot:
        await crash_at(bot, "start")
        a, a_msg = await start_game(fake, "alice", "bob")
        b, b_msg = await start_game(fake, "carol", "dave")
        c, c_msg = await start_game(fake, "erin", "frank")
        await click_accept(fake, a, a_msg, "bob")  # dies: A started, no thread

        await crash_at(bot, "thread_made")
        await exactly_once(fake, database, a, "begins")  # recovery opened A's thread and posted its board
        await click_accept(fake, b, b_msg, "dave")  # dies: B's thread made, not recorded

        await crash_at(bot, "posted")
        await exactly_once(fake, database, b, "begins")  # the existing thread was found, not a second one made
        assert sum(t.name == f"Zaic #{b}" for t in fake.world.threads()) == 1
        await click_accept(fake, c, c_msg, "frank")  # dies: C's board posted, not marked done

        await crash_at(bot, "move")
        await exactly_once(fake, database, c, "begins")  # resent with the same nonce: Discord returned the first
        await slash_in_thread(fake, database, a, "zaic move", {"move": "2x2 h8"})  # dies: saved, not posted

        await crash_at(bot, "end")
        await exactly_once(fake, database, a, "played")
        await slash_in_thread(fake, database, b, "zaic resign", {}, user="carol")  # dies: over, not told

        await crash_at(bot, None)
        await exactly_once(fake, database, b, "won")
        await bot.kill()
        age(database, c, 19 * HOUR)  # C's reminder (18 h) falls due while the bot is down

        await crash_at(bot, "remind")  # the first tick records the reminder and dies before sending it
        await died(bot)
        waiting = mover_of(database, c, fake)
        await crash_at(bot, None)
        await fake.wait_until(lambda: dms_about(fake, waiting, c), timeout=15, what="the reminder")
        await settled(database)
        assert len(dms_about(fake, waiting, c)) == 1
        await bot.kill()
        assert bot.errors() == []

    with sqlite3.connect(database) as conn:
        threads = dict(conn.execute("SELECT id, thread_id FROM games").fetchall())
    assert all(threads[g] is not None and fake.messages(fake.world.channel(threads[g])) for g in (a, b, c))
    assert owed(database) == []


DUPLICATES_ALLOWED = {"replied": 1, "shown": 0}
"""Duplicate boards per crash, by where the process dies after a move made inside its thread (whose board is
the interaction's reply, which has no nonce): ``replied`` (Discord shows the reply; the one transaction of
``shown`` has not committed) repeats the board once after the restart: that is the window docs/correspondence.md
states. ``shown`` (that transaction committed, before any further REST call) repeats nothing."""


@pytest.fixture(params=["sqlite", "postgres"])
def crash_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A SQLite file, or a fresh database on the test PostgreSQL server."""
    return str(request.getfixturevalue("pg_url")) if request.param == "postgres" else str(tmp_path / "crash.sqlite3")


async def owed_in(database: str) -> list[str]:
    """``owed`` on either backend."""
    db = await Database.open(database)
    try:
        rows = await db.fetchall("SELECT dedupe FROM jobs WHERE done_at IS NULL AND kind IN"
                                 " ('thread', 'post', 'notice', 'remind', 'choice_dm')")
    finally:
        await db.close()
    return [row["dedupe"] for row in rows]


async def test_a_crash_after_a_move_in_its_thread_repeats_its_board_only_inside_the_stated_window(
        fake_discord: FakeDiscord, crash_database: str) -> None:
    fake, database = fake_discord, crash_database
    fake.callback_deadline = None  # "replied" comes after the reply: one later than 3 s on a busy machine never does
    async with bot_process(fake, database) as bot:
        await crash_at(bot, None)
        game_id, challenge = await start_game(fake, "alice", "bob")
        await accept(fake, "bob", game_id, challenge)
        thread = fake.thread(f"Zaic #{game_id}")
        duplicates = {}
        for point, move in (("replied", "2x2 h8"), ("shown", "1x1 g8")):
            await bot.kill()
            await crash_at(bot, point)
            mover = await shard_mover_of(database, fake, game_id)
            await fake.slash(mover, "zaic move", {"move": move}, channel=thread, wait="none")
            await died(bot)
            await crash_at(bot, None)
            for _ in range(300):  # until nothing is owed: then nothing more will be sent
                if not await owed_in(database):
                    break
                await asyncio.sleep(0.05)
            assert await owed_in(database) == []
            await asyncio.sleep(0.5)
            duplicates[point] = sum(f"played `{move}`" in m.content for m in fake.messages(thread)) - 1
        await bot.kill()
        assert bot.errors() == []
    assert duplicates == DUPLICATES_ALLOWED
