"""SIGKILL of the bot while the AI thinks: after the restart the AI moves exactly once, and it is posted.

``AI_THINK_DELAY`` makes the first process's AI think for long enough to be killed mid-search; the
restarted process thinks at normal speed. The job's lease (host/ai_players/turns.py ``LEASE``) runs out and
the new process claims the same job again.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from host.play import bots
from tests.e2e.test_ai import ai_move_count, legal_for, played_by, start_ai_game
from tests.e2e.test_crash import BotProcess, bot_process
from tests.fakediscord import FakeDiscord


class BotGroup(BotProcess):
    """The bot in a process group of its own, SIGKILLed whole: its AI worker processes die with it."""

    whole_group = True


def claimed_ai_job(database: Path, game_id: int) -> bool:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT COUNT(*) FROM jobs WHERE game_id = ? AND kind = 'ai_turn' AND done_at IS NULL"
                            " AND lease_owner IS NOT NULL", (game_id,)).fetchone()[0] == 1


async def poll(predicate: object, what: str, timeout: float = 30.0) -> None:
    """For state only the other process changes (its database): check every 50 ms."""
    for _ in range(int(timeout / 0.05)):
        if predicate():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise TimeoutError(what)


async def test_sigkill_while_the_ai_thinks_then_exactly_one_ai_move_is_stored_and_posted(
        fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, database = fake_discord, tmp_path / "ai-crash.sqlite3"
    async with bot_process(fake, database, kind=BotGroup) as bot:
        bot.env["AI_THINK_DELAY"] = "20"
        await bot.start()
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "medium", "rated": False})
        with sqlite3.connect(database) as conn:
            ai_seat = conn.execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                                   (game_id, bots.user_of("medium"))).fetchone()[0]
        if ai_seat != 0:  # light (seat 0) moves first
            move = legal_for(database, game_id, int(fake.user("alice").id))[0]
            played = await fake.slash("alice", "zaic move", {"move": move}, channel=thread, wait="response")
            assert not played.ephemeral, played.content
        await poll(lambda: claimed_ai_job(database, game_id), "the AI's job to be claimed")
        await bot.kill()
        assert bot.errors() == []
        assert ai_move_count(database, game_id, "medium") == 0 and played_by(fake.messages(thread), "medium") == []

        bot.env["AI_THINK_DELAY"] = "0"
        await bot.start()
        await fake.wait_until(lambda: played_by(fake.messages(thread), "medium"), timeout=60,
                              what="the AI's move after the restart")
        await poll(lambda: not claimed_ai_job(database, game_id), "the job to be done")
        assert ai_move_count(database, game_id, "medium") == 1
        assert len(played_by(fake.messages(thread), "medium")) == 1
        with sqlite3.connect(database) as conn:
            jobs = conn.execute("SELECT attempts, done_at FROM jobs WHERE game_id = ? AND kind = 'ai_turn'",
                                (game_id,)).fetchall()
        assert len(jobs) == 1 and jobs[0][0] == 2 and jobs[0][1] is not None
        await bot.kill()
        assert bot.errors() == []
