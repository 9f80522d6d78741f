"""The fake Discord refuses what Discord refuses, with Discord's 400 / 50035 answer and its ``errors`` object."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.validate import choices_problems, errors_object, message_problems


def button(label: str, custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def rows(count: int, per_row: int) -> list[dict[str, Any]]:
    return [{"type": 1, "components": [button("b", f"r{r}b{b}") for b in range(per_row)]} for r in range(count)]


@pytest.mark.parametrize(("payload", "where"), [
    ({"content": "x" * 2001}, "content"),
    ({"embeds": [{"description": "x" * 4097}]}, "embeds.0.description"),
    ({"embeds": [{"title": "x" * 257}]}, "embeds.0.title"),
    ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, "embeds.0.fields.0.name"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embeds.0.fields.0.value"),
    ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "embeds.0.fields"),
    ({"embeds": [{"description": "x" * 4000, "fields": [{"name": "n", "value": "v" * 1000}] * 3}]}, "embeds"),
    ({"components": [{"type": 1, "components": [button("x" * 81, "a")]}]}, "components.label"),
    ({"components": rows(6, 1)}, "components"),
    ({"components": rows(1, 6)}, "components.0.components"),
    ({"components": [{"type": 1, "components": [button("b", "c" * 101)]}]}, "components.custom_id"),
    ({"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}]}]}, "components.options"),
])
def test_each_limit_is_reported_where_discord_reports_it(payload: dict[str, Any], where: str) -> None:
    problems = message_problems(payload, has_files=False)
    assert problems
    node = errors_object(problems)
    for key in where.split("."):
        node = node[key]
    assert node["_errors"][0]["code"].startswith("BASE_TYPE") or node["_errors"][0]["code"].startswith("MAX")


def test_payloads_just_inside_the_limits_pass() -> None:
    payload = {"content": "x" * 2000, "embeds": [{"title": "t" * 256, "description": "d" * 4096}],
               "components": rows(5, 5)}
    assert message_problems(payload, has_files=False) == []
    assert choices_problems([{"name": "n" * 100, "value": "v" * 100}] * 25) == []


@pytest.mark.parametrize("choices", [
    [{"name": "n", "value": "v"}] * 26,
    [{"name": "", "value": "v"}],
    [{"name": "n" * 101, "value": "v"}],
    [{"name": "n", "value": "v" * 101}],
    [{"name": "n", "value": ""}],
])
def test_autocomplete_choices_are_limited(choices: list[dict[str, Any]]) -> None:
    assert choices_problems(choices)
    assert "data" in errors_object(choices_problems(choices))


async def test_an_over_long_message_gets_discords_answer() -> None:
    async with FakeDiscord() as fake:
        bot = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0)
        async with running_bot(fake, bot):
            channel = bot.get_channel(fake.world.general.id)
            with pytest.raises(discord.HTTPException) as raised:
                await channel.send("x" * 2001)
            assert raised.value.status == 400 and raised.value.code == 50035
            assert "content" in raised.value.text and "2000 or fewer" in raised.value.text
        assert fake.errors  # the harness still fails a test that sent it


def test_thread_names_and_archive_durations_are_checked() -> None:
    from tests.fakediscord.validate import thread_problems

    assert thread_problems({"name": "Zaic #1", "auto_archive_duration": 10080}) == []
    assert thread_problems({"name": "x" * 101})
    assert thread_problems({"name": ""})
    assert thread_problems({"name": "ok", "auto_archive_duration": 999})


class Overlong(commands.Cog):
    """Each way a reply reaches Discord, each one step over a limit: every one must come back 50035."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}

    async def attempt(self, name: str, call: Awaitable[Any]) -> None:
        try:
            await call
        except discord.HTTPException as error:
            self.codes[name] = error.code

    @app_commands.command(name="limits", description="Over-long replies by every path")
    async def limits(self, interaction: discord.Interaction) -> None:
        await self.attempt("response", interaction.response.send_message("x" * 2001))
        await interaction.response.send_message("ok")
        await self.attempt("edit", interaction.edit_original_response(content="x" * 2001))
        await self.attempt("embed", interaction.followup.send(embed=discord.Embed(description="x" * 4097)))
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x" * 81, custom_id="b"))
        await self.attempt("label", interaction.followup.send("buttons", view=view))
        message = await interaction.followup.send("fine", wait=True)
        await self.attempt("followup edit", message.edit(content="x" * 2001))
        await self.attempt("channel", interaction.channel.send("x" * 2001))

    @app_commands.command(name="pick", description="Too many choices")
    async def pick(self, interaction: discord.Interaction, thing: str) -> None:
        await interaction.response.send_message(thing)

    @pick.autocomplete("thing")
    async def things(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"thing {i}", value=str(i)) for i in range(26)]


class OverlongBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                         guild_ready_timeout=0)
        self.overlong = Overlong()

    async def setup_hook(self) -> None:
        await self.add_cog(self.overlong)
        await self.tree.sync(guild=None)


async def test_responses_followups_and_edits_are_all_held_to_the_limits() -> None:
    async with FakeDiscord() as fake:
        bot = OverlongBot()
        async with running_bot(fake, bot):
            await fake.slash("alice", "limits")
            with pytest.raises(AssertionError, match="without responding"):  # the rejected answer does not count
                await fake.autocomplete("alice", "pick", focused="thing", value="")
        assert bot.overlong.codes == {name: 50035 for name in
                                      ("response", "edit", "embed", "label", "followup edit", "channel")}
        assert any("26 autocomplete choices" in e for e in fake.errors)
        assert len(fake.errors) == 7
