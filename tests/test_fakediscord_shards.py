"""The fake Discord's shards: IDENTIFY with ``shard``, guilds routed by ``(guild_id >> 22) % count``, DMs on 0."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.world import Channel

pytest_plugins = ["tests.fakediscord.fixtures"]


class ShardBot(commands.AutoShardedBot):
    """Answers ``/where`` with its name and the shard it got the interaction on; counts guild messages."""

    def __init__(self, name: str, shard_ids: list[int] | None, shard_count: int | None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0, shard_ids=shard_ids, shard_count=shard_count)
        self.name = name
        self.seen: list[int] = []

    async def setup_hook(self) -> None:
        @app_commands.command(name="where", description="Which process answers")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild is not None else 0
            await interaction.response.send_message(f"{self.name} on shard {shard}")

        self.tree.add_command(where)
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.guild is not None and not message.author.bot:
            self.seen.append(message.guild.id)


def two_guilds(fake: FakeDiscord) -> tuple[Channel, Channel]:
    """The fake's own guild, and a new one on the other of two shards: ``(shard 0's channel, shard 1's)``."""
    first = fake.world.general
    home = (fake.guild_id >> 22) % 2
    other = fake.world.add_guild("Second Guild", "lobby", shard=(1 - home, 2))
    assert (other.guild_id or 0) >> 22 & 1 == 1 - home
    return (first, other) if home == 0 else (other, first)


async def test_each_process_gets_only_its_shards_guilds_and_interactions(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    zero, one = two_guilds(fake)
    async with running_bot(fake, ShardBot("A", [0], 2)) as a, running_bot(fake, ShardBot("B", [1], 2)) as b:
        assert sorted(s.shard for s in fake.gateway.live_sessions() if s.shard) == [(0, 2), (1, 2)]
        assert [g.id for g in a.guilds] == [zero.guild_id] and [g.id for g in b.guilds] == [one.guild_id]
        here = await fake.slash("alice", "where", channel=zero)
        there = await fake.slash("bob", "where", channel=one)
        assert here.content == "A on shard 0" and there.content == "B on shard 1"
        dm = await fake.slash("carol", "where", channel=fake.user("carol"))
        assert dm.content == "A on shard 0", "DMs arrive on shard 0"
        await fake.say("dave", "hello", channel=one)  # a guild event reaches its shard's process only
        assert b.seen == [one.guild_id] and a.seen == []


async def test_gateway_bot_reports_the_shard_count_and_one_process_can_run_every_shard(
        fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = 2
    zero, one = two_guilds(fake)
    async with running_bot(fake, ShardBot("all", None, None), timeout=20) as bot:  # asks /gateway/bot how many
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert sorted(g.id for g in bot.guilds) == sorted([zero.guild_id, one.guild_id])
        assert (await fake.slash("alice", "where", channel=one)).content == "all on shard 1"
    assert fake.requests_to("GET", "/gateway/bot")


async def test_a_guild_whose_shard_is_down_gets_no_interaction(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    zero, one = two_guilds(fake)
    async with running_bot(fake, ShardBot("A", [0], 2)):
        try:
            await fake.slash("alice", "where", channel=one)
        except RuntimeError as error:
            assert "for the shard of guild" in str(error)
        else:
            raise AssertionError("an interaction reached a shard nobody runs")
        assert (await fake.slash("alice", "where", channel=zero)).content == "A on shard 0"
