"""Work a dead process owed is finished by the dispatcher of a live one: a daily digest it had taken, and the
next game of a match it had just finished (each a job in the database, host/outbox.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from host import outbox
from host.play import matches
from tests.e2e.conftest import BotHarness
from tests.fakediscord.logs import ErrorLogCollector


async def settled(bot: Any, kind: str) -> None:
    """The dispatcher marks a job done right after Discord answered: wait for that, briefly."""
    for _ in range(200):
        if not [j for j in await bot.host.outbox.pending() if j.kind == kind]:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"a {kind} job is still owed")


async def test_a_digest_taken_by_a_process_that_died_is_sent_once_by_another(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        alice, now = harness.user_id("alice"), bot.host.now()
        text = "📬 It is your turn in 1 game: (owed by a process that died)"
        await bot.host.outbox.jobs.add(kind="digest", due_at=now, now=now, payload={"user": alice, "text": text},
                                       dedupe=f"digest:{alice}:{int(now)}")
        bot.worker.wake()
        await fake.wait_until(lambda: [m for m in fake.messages(fake.user("alice")) if m.content == text],
                              what="the digest")
        await settled(bot, "digest")
        assert [m.content for m in fake.messages(fake.user("alice"))] == [text]


async def test_a_match_whose_process_died_after_its_game_ended_goes_on_in_its_thread(
        harness: BotHarness, discord_error_logs: ErrorLogCollector, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        alice, bob = harness.user_id("alice"), harness.user_id("bob")
        lobby = await bot.host.lobby.challenge(game="zaic", creator=alice, opponents=[bob], settings={"match": 3},
                                         guild_id=fake.guild_id, channel_id=fake.world.general.id)
        first = (await bot.host.lobby.accept(lobby.row.id, bob)).row.id
        await bot.host.outbox.jobs.hasten(outbox.KINDS, bot.host.now(), 3600)  # as if the grace had passed
        bot.worker.wake()
        thread = await fake.wait_until(lambda: next((t for t in fake.threads() if t.name == f"Zaic #{first}"
                                                     and t.messages), None), what="the first game's thread")
        real = bot.host.turns.after_finish  # the match's subscription (host/app.py)

        async def died(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the process died before it started the next game")

        monkeypatch.setattr(bot.host.turns, "after_finish", [died])
        discord_error_logs.clear()
        report = await bot.host.turns.resign(first, alice)
        discord_error_logs.clear()  # the host logs the failed continuation; the owed job is what counts
        monkeypatch.setattr(bot.host.turns, "after_finish", real)
        assert report.next_game is None
        await bot.host.outbox.jobs.hasten(outbox.KINDS, bot.host.now(), 3600)
        bot.worker.wake()
        begun = await fake.wait_until(lambda: [m for m in fake.messages(thread) if "begins" in m.content
                                               and f"#{first}" not in m.content], what="the next game's board")
        second = (await bot.host.boards.resolve("zaic", alice, thread_id=thread.id, guild_id=fake.guild_id)).id
        assert second > first and f"#{second} begins" in begun[0].content
        await bot.host.outbox.jobs.hasten(outbox.KINDS, bot.host.now(), 3600)  # the job, due: a no-op now
        bot.worker.wake()
        await settled(bot, matches.NEXT)
        assert len([m for m in fake.messages(thread) if "begins" in m.content]) == 2
        assert await bot.host.matches.continue_after(first) is None, "the match went on once"
