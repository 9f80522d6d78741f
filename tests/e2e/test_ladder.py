"""The ladder end to end: join, a challenge played to the end in its thread, the winner climbs, /ladder show."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import PNG


async def test_a_ladder_challenge_played_to_the_end_moves_the_winner_up(harness: BotHarness) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        for name in ("alice", "bob", "carol"):
            joined = await fake.slash(name, "ladder join", {"game": "zrtz"})
            assert "joined the **ZÈRTZ ladder**" in joined.content and not joined.ephemeral
        again = await fake.slash("bob", "ladder join", {"game": "zrtz"})
        assert again.ephemeral and "already on the ZÈRTZ ladder, at #2" in again.content

        rec = await fake.slash("bob", "ladder challenge", {"game": "zrtz", "opponent": "alice"})
        challenge = rec.original
        assert challenge is not None and "ZÈRTZ ladder game" in challenge.content and not rec.ephemeral
        accept = next(c for c in challenge.custom_ids() if c.startswith("zg:accept:"))
        game_id = int(accept.rsplit(":", 1)[1])
        twice = await fake.slash("bob", "ladder challenge", {"game": "zrtz", "opponent": "alice"})
        assert twice.ephemeral and f"already have a ladder game with <@{harness.user_id('alice')}>" in twice.content
        await fake.click("alice", challenge, accept)
        thread = fake.thread(f"ZÈRTZ #{game_id}")
        row = await bot.host.session.row(game_id)
        assert row.status == "active" and row.settings["clock"] == "3d"

        for _ in range(4):  # a real game: two moves each through the thread, then alice resigns
            row, game = await bot.host.session.engine_copy(game_id)
            seat = min(game.to_move())
            user = row.user_at(seat)
            assert user is not None
            played = await fake.slash(harness.name_of(user), "zrtz move", {"move": game.legal_moves(seat)[0]},
                                      channel=thread)
            assert not played.ephemeral, played.content
        await fake.slash("alice", "zrtz resign", channel=thread)
        notice = await fake.wait_message(thread, lambda m: "🪜" in m.content, after=0, timeout=30)
        assert "climbs from #2 to #1" in notice.content

        shown = await fake.slash("bob", "ladder show", {"game": "zrtz"})
        assert shown.files and shown.files[0].data.startswith(PNG)
        assert "3 players. You are #1" in shown.content
        carol = await fake.slash("carol", "ladder show", {"game": "zrtz"})
        assert "You are #3; you may challenge #1-#2" in carol.content

        fake.user("carol").permissions = "0"
        refused = await fake.slash("carol", "ladder settings", {"game": "zrtz", "reach": 1})
        assert refused.ephemeral and "Manage Server" in refused.content
        changed = await fake.slash("alice", "ladder settings", {"game": "zrtz", "reach": 1})
        assert changed.ephemeral and "reach 1 places" in changed.content
        far = await fake.slash("carol", "ladder challenge", {"game": "zrtz", "opponent": "bob"})
        assert far.ephemeral and "2 places above you (#3)" in far.content
        stranger = await fake.slash("dave", "ladder challenge", {"game": "zrtz", "opponent": "bob"})
        assert stranger.ephemeral and "You are not on the ZÈRTZ ladder" in stranger.content
        left = await fake.slash("carol", "ladder leave", {"game": "zrtz"})
        assert "left the **ZÈRTZ ladder**" in left.content


async def test_a_result_left_by_a_stopped_bot_moves_the_ladder_once_after_the_restart(harness: BotHarness) -> None:
    fake = harness.fake
    alice, bob = harness.user_id("alice"), harness.user_id("bob")
    async with harness.running() as bot:
        for name in ("alice", "bob"):
            await fake.slash(name, "ladder join", {"game": "zaic"})
        rec = await fake.slash("bob", "ladder challenge", {"game": "zaic", "opponent": "alice"})
        assert rec.original is not None
        accept = next(c for c in rec.original.custom_ids() if c.startswith("zg:accept:"))
        await fake.click("alice", rec.original, accept)
        game_id = int(accept.rsplit(":", 1)[1])
        bot.worker.close()  # the bot stops before the job runs
        await bot.worker.stop()
        await bot.host.turns.resign(game_id, alice)  # no report posted: nothing runs the ladder's job now
        left = await bot.get_cog("Ladder").ladders.queue.pending(kind="ladder_result")  # type: ignore[union-attr]
        assert [j.game_id for j in left] == [game_id]
    async with harness.running() as bot:
        ladders = bot.get_cog("Ladder").ladders  # type: ignore[union-attr]
        guild = int(fake.world.guild_id)

        async def games_by_place() -> list[tuple[int, int]]:
            found = await ladders.store.find(guild, "zaic")
            return [(r.user_id, r.games) for r in await ladders.store.rungs(found.id)]

        for _ in range(100):  # the restarted bot's loop finds the job on its first pass
            if await games_by_place() != [(alice, 0), (bob, 0)]:
                break
            await asyncio.sleep(0.1)
        assert await games_by_place() == [(bob, 1), (alice, 1)]  # moved, and counted, once
        notice = await fake.wait_message(fake.thread(f"Zaic #{game_id}"), lambda m: "🪜" in m.content, after=0,
                                         timeout=30)
        assert "climbs from #2 to #1" in notice.content
        shown = await fake.slash("alice", "ladder show", {"game": "zaic"})
        assert "You are #2" in shown.content


def every_row(path) -> dict[str, set[tuple[object, ...]]]:
    with closing(sqlite3.connect(path)) as con:
        tables = [t for (t,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: set(con.execute(f"SELECT * FROM {t}")) for t in tables}


async def test_a_member_looking_at_ladder_settings_writes_nothing(harness: BotHarness) -> None:
    """``/ladder settings`` with no options is a view: for a game with no ladder (which it once created, with its
    daily sweep job) and for one with a ladder (whose id sequence it once advanced)."""
    fake = harness.fake
    async with harness.running():
        await fake.slash("bob", "ladder join", {"game": "zaic"})
        fake.user("carol").permissions = "0"
        for game, said in (("zodiac", "This server has no **Zodiac Chess ladder** yet: `/ladder join` starts it"),
                           ("zaic", "**Zaic ladder** settings now: challenges reach 3 places up")):
            before = every_row(harness.database_path)
            looked = await fake.slash("carol", "ladder settings", {"game": game})
            assert looked.ephemeral and looked.content.startswith(said), looked.content
            assert every_row(harness.database_path) == before, game
        shown = await fake.slash("carol", "ladder show", {"game": "zodiac"})
        assert "0 players" in shown.content
