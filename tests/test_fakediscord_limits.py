"""The fake Discord refuses what Discord refuses, with Discord's 400 / 50035 answer and its ``errors`` object."""

from __future__ import annotations

from typing import Any

import discord
import pytest

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
