"""Game records end to end: replay buttons (also after a restart), jumps, refusals, /history buttons,
export and import, GIFs, and playing on from a replayed position."""

from __future__ import annotations

import io
import json
import random

from PIL import Image

import engines
from engines import CHANCE
from tests.e2e.conftest import BotHarness
from tests.e2e.test_ai import AI_WAIT, ai_move_count, legal_for, played_by
from tests.e2e.test_platform import PNG, challenge_and_accept
from tests.fakediscord import Upload


async def play_moves(bot, game_id: int, count: int, seed: int = 1) -> None:
    """Random legal moves straight through the host, as the players would make them."""
    rng = random.Random(seed)
    for _ in range(count):
        row = await bot.host.session.row(game_id)
        game = engines.get(row.game).from_dict({"game": row.game, "players": row.players, "options": row.options,
                                                "history": [[m.seat, m.text] for m in
                                                            await bot.host.store.moves(game_id)]})
        if game.outcome() is not None:
            return
        seat = sorted(s for s in game.to_move() if s != CHANCE)[0]
        await bot.host.turns.play(game_id, row.user_at(seat), rng.choice(game.legal_moves(seat)))


async def finished_zaic(harness: BotHarness, bot, moves: int = 6) -> int:
    game_id, _ = await challenge_and_accept(harness, "zaic")
    await play_moves(bot, game_id, moves)
    await bot.host.turns.resign(game_id, (await bot.host.session.row(game_id)).user_at(0))
    return game_id


def latest(fake, message):
    return fake.world.messages[message.id]


async def test_replay_buttons_step_jump_survive_a_restart_and_refuse_beyond_the_game(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id = await finished_zaic(harness, bot)
        rec = await fake.slash("dave", "zaic replay", {"game": game_id, "move": 0})
        message = rec.original
        assert not rec.ephemeral and "after move 0 of 7" in message.content
        assert message.attachments[0].data.startswith(PNG)
        assert f"zr:g{game_id}:0:next" in message.custom_ids() and f"zrj:g{game_id}:0" in message.custom_ids()
        start_png = message.attachments[0].data
        await fake.click("erin", message, f"zr:g{game_id}:0:next")
        stepped = latest(fake, message)
        assert "after move 1 of 7" in stepped.content and [a.filename for a in stepped.attachments] == [
            f"zaic-g{game_id}-move1.png"] and stepped.attachments[0].data != start_png
        await fake.click("erin", message, f"zr:g{game_id}:1:next")
        await fake.click("dave", message, f"zr:g{game_id}:2:prev")
        assert "after move 1 of 7" in latest(fake, message).content
        await fake.select("dave", message, f"zrj:g{game_id}:1", ["5"])
        assert "after move 5 of 7" in latest(fake, message).content
    async with harness.running():  # a new process: the buttons still work, nothing was kept in memory
        await fake.click("erin", message, f"zr:g{game_id}:5:last")
        after = latest(fake, message)
        assert "after move 7 of 7" in after.content and "Result" in after.content
        assert after.component(f"zr:g{game_id}:7:next")["disabled"]
        after.components[0]["components"][2]["disabled"] = False  # as if a stale client still showed ▶
        beyond = await fake.click("erin", after, f"zr:g{game_id}:7:next")
        refusal = (await beyond.wait_followups(1))[0]
        assert refusal.ephemeral and "no move 8" in refusal.content
        assert "after move 7 of 7" in latest(fake, message).content


async def test_history_buttons_export_import_and_gif(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id = await finished_zaic(harness, bot)
        history = await fake.slash("alice", "history")
        assert history.ephemeral and f"zro:{game_id}" in history.original.custom_ids()
        opened = await fake.click("alice", history.original, f"zro:{game_id}")
        assert opened.ephemeral and "after move 7 of 7" in opened.content and opened.files
        await fake.click("alice", opened.original, f"zr:g{game_id}:7:first")  # a private replay steps too
        assert "starting position" in latest(fake, opened.original).content
        exported = await fake.slash("carol", "zaic export", {"game": game_id})
        names = sorted(f.filename for f in exported.files)
        assert exported.ephemeral and names == [f"zaic-{game_id}.json", f"zaic-{game_id}.txt"]
        record = json.loads(exported.files[[f.filename for f in exported.files].index(f"zaic-{game_id}.json")].data)
        assert record["seed"] == (await bot.host.session.row(game_id)).seed and record["players"][0]["name"] in (
            "alice", "bob")
        imported = await fake.slash("carol", "zaic import", {"record": Upload("r.txt", exported.files[1].data)})
        shown = imported.followups[-1]  # the private "thinking…" goes, the replay is a new public message
        assert imported.original.deleted and not shown.ephemeral and "imported record R1" in shown.content
        assert "after move 7 of 7" in shown.content and "zr:r1:7:first" in shown.custom_ids()
        await fake.click("carol", shown, "zr:r1:7:first")
        assert "starting position" in latest(fake, shown).content
        wrong = await fake.slash("dave", "zrtz import", {"record": Upload("r.json", exported.files[0].data)})
        await wrong.wait_followups(1, timeout=10)  # imports defer first, then refuse privately
        assert wrong.followups[-1].ephemeral and "use /zaic import" in wrong.followups[-1].content
        again = await fake.slash("carol", "zaic import", {"record": Upload("r.json", b'{"format": 1}')})
        assert again.ephemeral and "try again in" in again.content  # imports are rationed per user, every game's
        junk = await fake.slash("bob", "zaic import", {"record": Upload("r.json", b'{"format": 1}')})
        await junk.wait_followups(1, timeout=10)
        assert junk.followups[-1].ephemeral and "cannot be replayed" in junk.followups[-1].content
        gif = await fake.slash("carol", "zaic gif", {"game": game_id})
        assert gif.original.deleted and not gif.followups[-1].ephemeral
        image = Image.open(io.BytesIO(gif.followups[-1].attachments[0].data))
        assert image.format == "GIF" and image.n_frames == 8
        other = await fake.slash("carol", "zrtz replay", {"game": game_id})
        assert other.ephemeral and "/zaic" in other.content


async def test_only_a_served_gif_or_import_spends_the_users_ration(harness: BotHarness) -> None:
    """A refusal costs nothing, so the corrected retry is served at once; a cheap refusal (a game that does not
    exist) is told as such even while the ration runs, and only a served use makes the next one wait."""
    fake = harness.fake
    async with harness.running() as bot:
        game_id = await finished_zaic(harness, bot, moves=2)
        mistyped = await fake.slash("alice", "zaic gif", {"game": game_id + 50})
        assert mistyped.ephemeral and f"There is no game #{game_id + 50}." in mistyped.content
        gif = await fake.slash("alice", "zaic gif", {"game": game_id})
        assert gif.original.deleted and not gif.followups[-1].ephemeral
        assert gif.followups[-1].attachments[0].filename.endswith(".gif")
        still_mistyped = await fake.slash("alice", "zaic gif", {"game": game_id + 50})
        assert still_mistyped.ephemeral and f"There is no game #{game_id + 50}." in still_mistyped.content
        again = await fake.slash("alice", "zaic gif", {"game": game_id})
        assert again.ephemeral and "try again in" in again.content and not again.deferred

        exported = await fake.slash("bob", "zaic export", {"game": game_id})
        record = next(f.data for f in exported.files if f.filename.endswith(".json"))
        picture = await fake.slash("bob", "zaic import", {"record": Upload("shot.png", PNG + b"\0" * 16)})
        await picture.wait_followups(1, timeout=10)
        assert picture.followups[-1].ephemeral and "not UTF-8 text" in picture.followups[-1].content
        imported = await fake.slash("bob", "zaic import", {"record": Upload("r.json", record)})
        assert not imported.followups[-1].ephemeral and "imported record R1" in imported.followups[-1].content
        twice = await fake.slash("bob", "zrtz import", {"record": Upload("r.json", record)})
        assert twice.ephemeral and "try again in" in twice.content and not twice.deferred


async def test_play_from_here_challenges_a_person_with_the_position(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id = await finished_zaic(harness, bot)
        rec = await fake.slash("carol", "zaic replay", {"game": game_id, "move": 4})
        ask = await fake.click("carol", rec.original, f"zrf:g{game_id}:4")
        assert ask.ephemeral and f"zrfu:g{game_id}:4" in ask.original.custom_ids()
        await fake.select("carol", ask.original, f"zrfu:g{game_id}:4", ["dave"])
        challenge = fake.messages("general")[-1]
        assert "From Zaic #" in challenge.content and "after move 4" in challenge.content
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        new_id = int(accept.rsplit(":", 1)[1])
        await fake.click("dave", challenge, accept)
        first = fake.messages(fake.thread(f"Zaic #{new_id}"))[0]
        assert "Played on from" in first.content and "never rated" in first.content
        old = [(m.seat, m.text) for m in await bot.host.store.moves(game_id)][:4]
        assert [(m.seat, m.text) for m in await bot.host.store.moves(new_id)] == old


async def test_play_from_here_against_the_ai_starts_at_once_and_the_ai_replies_in_the_new_thread(
        harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        game_id = await finished_zaic(harness, bot)
        rec = await fake.slash("carol", "zaic replay", {"game": game_id, "move": 3})
        ask = await fake.click("carol", rec.original, f"zrf:g{game_id}:3")
        assert ask.ephemeral and f"zrfa:g{game_id}:3" in ask.original.custom_ids()
        await fake.select("carol", ask.original, f"zrfa:g{game_id}:3", ["easy"])
        started = fake.messages("general")[-1]
        assert "The game is on!" in started.content and "never rated" in started.content
        assert "🤖 AI (easy)" in started.content and not started.custom_ids()
        new_id = int(started.content.split("#", 1)[1].split()[0].rstrip("*:,"))
        title = f"Zaic #{new_id}"
        await fake.wait_until(lambda: any(t.name == title and t.messages for t in fake.threads()), what="the thread")
        thread = fake.thread(title)
        assert "Played on from" in fake.messages(thread)[0].content
        old = [(m.seat, m.text) for m in await bot.host.store.moves(game_id)][:3]
        assert [(m.seat, m.text) for m in await bot.host.store.moves(new_id)][:3] == old
        row, game = await bot.host.session.engine_copy(new_id)
        assert row.settings["rated"] is False
        carol = harness.user_id("carol")
        copied = ai_move_count(harness.database_path, new_id, "easy")  # the AI's seat's plies of the old game
        if carol in {row.user_at(s) for s in game.to_move()}:  # carol's turn first: her move, then the AI's
            move = legal_for(harness.database_path, new_id, carol)[0]
            played = await fake.slash("carol", "zaic move", {"move": move}, channel=thread)
            assert not played.ephemeral, played.content
        await fake.wait_until(lambda: played_by(fake.messages(thread), "easy"), timeout=AI_WAIT, what="the AI's move")
        assert ai_move_count(harness.database_path, new_id, "easy") == copied + 1
