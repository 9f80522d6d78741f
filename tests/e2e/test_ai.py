"""AI players end to end: the real bot (its process pool included) against the fake Discord.

The AI's reply arrives by itself (a job the bot's worker runs), so the tests wait for the thread's
messages rather than for the slash command that caused them.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from pathlib import Path

import engines
from host.play import bots
from tests.e2e.conftest import BotHarness
from tests.fakediscord import Channel, FakeDiscord, Message, running_bot
from zbot import Config, create_bot

AI_WAIT = 60.0
"""Seconds to wait for an AI's reply: the first one spawns the worker process (imports engines and ai)."""


def played_by(thread_messages: list[Message], level: str) -> list[Message]:
    return [m for m in thread_messages if f"(🤖 AI ({level})) played" in m.content]


def to_move_line(message: Message) -> str:
    return next((line for line in message.content.splitlines() if line.startswith("To move:")), "")


def legal_for(database: Path, game_id: int, user_id: int) -> list[str]:
    """The user's legal moves now, from the stored game (what autocomplete would offer)."""
    with sqlite3.connect(database) as conn:
        name, players, options = conn.execute("SELECT game, players, options FROM games WHERE id = ?",
                                              (game_id,)).fetchone()
        history = conn.execute("SELECT seat, text FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)).fetchall()
        seats = [r[0] for r in conn.execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                                            (game_id, user_id))]
    game = engines.get(name).from_dict({"game": name, "players": players, "options": json.loads(options),
                                        "history": history})
    return next((game.legal_moves(s) for s in seats if s in game.to_move()), [])


def ai_move_count(database: Path, game_id: int, level: str) -> int:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT COUNT(*) FROM moves m JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat"
                            " WHERE m.game_id = ? AND s.user_id = ?", (game_id, bots.user_of(level))).fetchone()[0]


async def start_ai_game(fake: FakeDiscord, user: str, game: str, options: dict[str, object]) -> tuple[int, Channel]:
    rec = await fake.slash(user, f"{game} new", options, wait="response")
    assert not rec.ephemeral and "The game is on!" in rec.content, rec.content
    game_id = int(re.search(r"#(\d+)", rec.content)[1])  # type: ignore[index]
    title = f"{engines.get(game).title} #{game_id}"
    await fake.wait_until(lambda: any(t.name == title and t.messages for t in fake.threads()), what="the thread")
    return game_id, fake.thread(title)


async def test_zrtz_new_ai_hard_the_ai_moves_and_its_board_appears_in_the_thread(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "zrtz", {"ai": "hard"})
        assert "🤖 AI (hard)" in fake.messages(thread)[0].content
        row = await bot.host.session.row(game_id)
        ai_seat = row.seats_of(bots.user_of("hard"))[0]
        if ai_seat != 0:  # alice moves first: her move, then the AI's reply
            move = legal_for(harness.database_path, game_id, harness.user_id("alice"))[0]
            played = await fake.slash("alice", "zrtz move", {"move": move}, channel=thread)
            assert not played.ephemeral, played.content
        await fake.wait_until(lambda: played_by(fake.messages(thread), "hard"), timeout=AI_WAIT, what="the AI's move")
        reply = played_by(fake.messages(thread), "hard")[0]
        assert reply.attachments and reply.attachments[0].filename.endswith(".png")
        assert f"<@{harness.user_id('alice')}>" in to_move_line(reply)
        assert ai_move_count(harness.database_path, game_id, "hard") == 1
        assert reply.custom_ids()[0] == f"mo:{game_id}", "alice's turn: the Move button of the move builder"
        assert all(c.startswith("zm:") for c in reply.custom_ids()[1:])


async def test_naming_the_bot_as_opponent_means_ai_medium_and_other_bots_are_refused(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        assert bot.user is not None
        game_id, thread = await start_ai_game(fake, "alice", "zaic", {"opponent": fake.world.bot})
        assert "🤖 AI (medium)" in fake.messages(thread)[0].content
        assert (await bot.host.session.row(game_id)).seats_of(bots.user_of("medium"))
        other = fake.world.add_user("otherbot", bot=True)
        refused = await fake.slash("alice", "zaic new", {"opponent": other})
        assert refused.ephemeral and refused.content.startswith("Other bots cannot play")


async def test_ziggurat_with_ai_seats_plays_several_rounds(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id, thread = await start_ai_game(fake, "alice", "ziggurat",
                                              {"ai": "easy", "open_seats": 3, "round_limit": 30})
        alice = harness.user_id("alice")
        assert (await bot.host.session.row(game_id)).players == 4
        turns = 0
        while turns < 3:
            await fake.wait_until(lambda: f"<@{alice}>" in to_move_line(fake.messages(thread)[-1])
                                  or "won" in fake.messages(thread)[-1].content,
                                  timeout=AI_WAIT, what="alice's turn")
            if (await bot.host.session.row(game_id)).status != "active":
                break
            move = legal_for(harness.database_path, game_id, alice)[0]
            played = await fake.slash("alice", "ziggurat move", {"move": move}, channel=thread)
            # a step inside a turn edits the turn's board and answers privately; any refusal fails
            assert not played.ephemeral or played.content.startswith("Played:"), played.content
            turns += 1
        assert ai_move_count(harness.database_path, game_id, "easy") >= 6  # every AI seat took turns
        # one message per turn (a Redo's roll included), and a turn the dice end at once shows no play
        assert len(played_by(fake.messages(thread), "easy")) >= 3


async def test_a_hint_in_a_rated_game_is_refused_privately_and_allowed_in_an_unrated_one(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        _, thread = await start_ai_game(fake, "alice", "zaic", {"ai": "easy", "rated": True})
        before = len(fake.messages(thread))
        rec = await fake.slash("alice", "zaic hint", {}, channel=thread)
        followups = await rec.wait_followups(1, timeout=AI_WAIT)
        assert rec.ephemeral and followups[0].ephemeral
        assert followups[0].content.startswith("Hints are for unrated games only: this game counts for the"
                                               " leaderboards. For a game with hints, start one with"
                                               " `/zaic new ai: easy`")
        assert all("hint" not in m.content for m in fake.messages(thread)[before:])

        rec = await fake.slash("carol", "zaic new", {"opponent": "dave", "rated": False})
        casual = int(re.search(r"#(\d+)", rec.content)[1])  # type: ignore[index]
        await fake.click("dave", rec.original, f"zg:accept:{casual}")
        casual_thread = fake.thread(f"Zaic #{casual}")
        row = await bot.host.session.row(casual)
        mover = harness.name_of(row.user_at(0) or 0)  # light (seat 0) moves first
        rec = await fake.slash(mover, "zaic hint", {}, channel=casual_thread, wait="response")
        followups = await rec.wait_followups(1, timeout=AI_WAIT)
        legal = legal_for(harness.database_path, casual, harness.user_id(mover))
        hinted = re.search(r"`([^`]+)`", followups[0].content)
        assert followups[0].ephemeral and hinted is not None and hinted[1] in legal
        await fake.wait_until(lambda: any("used a hint" in m.content for m in fake.messages(casual_thread)),
                              what="the thread told of the hint")
        assert hinted[1] not in fake.messages(casual_thread)[-1].content  # told that, never which
        for _ in range(100):  # sent, so no longer owed: marked done just after Discord took the message
            if not [j for j in await bot.host.outbox.pending() if j.kind == "notice"]:
                break
            await asyncio.sleep(0.05)
        assert [j for j in await bot.host.outbox.pending() if j.kind == "notice"] == []
        again = await fake.slash(mover, "zaic hint", {}, channel=casual_thread)
        assert again.ephemeral and "try again in" in again.content  # hints are rationed per user


async def test_autocomplete_and_moves_stay_fast_while_an_ai_thinks(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    config = Config(token="fake-token", database_path=tmp_path / "slow.sqlite3", api_base=fake.api_base,
                    gateway_url=fake.gateway_url, sync=True, guild_ready_timeout=0, ai_think_delay=3.0)
    bot = create_bot(config)
    async with running_bot(fake, bot):
        ai_game, _ = await start_ai_game(fake, "alice", "zaic", {"ai": "medium"})
        row = await bot.host.session.row(ai_game)
        if row.seats_of(bots.user_of("medium"))[0] != 0:
            move = legal_for(tmp_path / "slow.sqlite3", ai_game, harness_id(fake, "alice"))[0]
            await fake.slash("alice", "zaic move", {"move": move}, channel=fake.thread(f"Zaic #{ai_game}"))
        rec = await fake.slash("bob", "zaic new", {"opponent": "carol"})
        game_id = int(re.search(r"#(\d+)", rec.content)[1])  # type: ignore[index]
        await fake.click("carol", rec.original, f"zg:accept:{game_id}")
        thread = fake.thread(f"Zaic #{game_id}")
        mover = "bob" if harness_id(fake, "bob") == (await bot.host.session.row(game_id)).user_at(0) else "carol"
        thinking = time.perf_counter()
        choices = await fake.autocomplete(mover, "zaic move", focused="move", value="", channel=thread)
        assert choices
        played = await fake.slash(mover, "zaic move", {"move": legal_for(tmp_path / "slow.sqlite3", game_id,
                                                                          harness_id(fake, mover))[0]},
                                  channel=thread)
        assert not played.ephemeral, played.content
        assert time.perf_counter() - thinking < 2.0  # the AI is still thinking (3 s) and we were not held up
        assert ai_move_count(tmp_path / "slow.sqlite3", ai_game, "medium") == 0
        await fake.wait_until(lambda: played_by(fake.messages(fake.thread(f"Zaic #{ai_game}")), "medium"),
                              timeout=AI_WAIT, what="the slow AI's move")


def harness_id(fake: FakeDiscord, name: str) -> int:
    return int(fake.user(name).id)


async def test_profile_of_the_bot_is_refused_clearly_and_an_ai_level_has_one(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running():
        refused = await fake.slash("alice", "profile", {"user": fake.world.bot})
        assert refused.ephemeral and "use `/profile ai:` with a level" in refused.content
        shown = await fake.slash("alice", "profile", {"ai": "hard"})
        followups = await shown.wait_followups(1)
        assert followups[0].embeds[0]["title"].startswith("AI (hard) [bot]")
        board = await fake.slash("alice", "leaderboard", {"game": "zrtz", "bots": False})
        assert (await board.wait_followups(1))[0].attachments
