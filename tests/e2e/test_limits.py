"""Guard rails: game commands only in servers, other players' lists only in a shared server, open
challenges capped and expiring, slow listings deferred."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BotHarness
from tests.fakediscord.logs import ErrorLogCollector

GAMES = ("zarathustra", "zaic", "zrtz", "zodiac", "ziggurat")


async def test_game_groups_are_synced_guild_only_and_refuse_a_dm(harness: BotHarness,
                                                                  discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running():
        for name in GAMES:
            assert fake.world.global_commands[name].get("contexts") == [0], name
        with pytest.raises(LookupError, match="not available in DMs"):
            await fake.slash("alice", "zrtz resign", channel=fake.user("alice"))
        stale = fake.world.global_commands["zrtz"]  # an old registration that still allowed DMs
        stale["contexts"], stale["dm_permission"] = [0, 1], True
        refused = await fake.slash("alice", "zrtz resign", channel=fake.user("alice"))
        assert refused.ephemeral and "not in DMs" in refused.content


async def test_another_players_games_only_in_a_server_and_only_that_servers(
        harness: BotHarness, discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        bob = harness.user_id("bob")
        here = await bot.host.lobby.challenge(game="zaic", creator=bob, opponents=[bob], guild_id=fake.guild_id,
                                        channel_id=fake.world.general.id)
        elsewhere = await bot.host.lobby.challenge(game="zaic", creator=bob, opponents=[bob], guild_id=999,
                                             channel_id=998)
        from_dm = await fake.slash("alice", "games", {"user": "bob"}, channel=fake.user("alice"))
        assert from_dm.ephemeral and "only in a server" in from_dm.content
        assert f"#{here.row.id}" not in from_dm.content and f"#{elsewhere.row.id}" not in from_dm.content
        history = await fake.slash("alice", "history", {"user": "bob"}, channel=fake.user("alice"))
        assert "only in a server" in history.content
        listed = await fake.slash("alice", "games", {"user": "bob"})
        assert listed.deferred and listed.ephemeral
        assert f"#{here.row.id}" in listed.content and f"#{elsewhere.row.id}" not in listed.content
        own = await fake.slash("bob", "games", channel=fake.user("bob"))  # your own, from a DM: everywhere
        assert f"#{here.row.id}" in own.content and f"#{elsewhere.row.id}" in own.content


async def test_open_challenges_are_capped_and_expire_as_announced(harness: BotHarness,
                                                                 discord_error_logs: ErrorLogCollector) -> None:
    fake = harness.fake
    async with harness.running() as bot:
        bot.host.lobby.max_open_challenges = 2
        first = await fake.slash("alice", "zaic new", {"opponent": "bob"})
        assert first.original is not None and "Expires <t:" in first.original.content
        await fake.slash("alice", "zrtz new", {"opponent": "carol"})
        third = await fake.slash("alice", "zodiac new", {"opponent": "dave"})
        assert third.ephemeral and "already have 2 open challenges" in third.content
        assert len([m for m in fake.messages("general") if "wants to play" in m.content]) == 2

        game_id = int(next(c for c in first.original.custom_ids() if c.startswith("zg:accept:")).rsplit(":", 1)[1])
        await bot.host.outbox.jobs.reschedule_key(f"expire:{game_id}", bot.host.now())  # seven days later
        await fake.wait_until(lambda: "expired" in fake.world.general.messages[0].content, timeout=10,
                              what="the expiry")
        assert (await bot.host.session.row(game_id)).status == "aborted"
        assert first.original.custom_ids() == []
        again = await fake.slash("alice", "zodiac new", {"opponent": "dave"})  # a slot is free again
        assert not again.ephemeral
