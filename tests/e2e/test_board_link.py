"""The board page from Discord, through the real bot and the fake Discord: **Open board** answers privately with
a signed link for that user and game; **Play on the board** and ``/<game> play`` launch the Activity in the
game's thread (callback type 12); outside a thread, without the Activity, or without the pages, a clear
private answer; without ``WEB_PORT`` no button at all."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest

from tests.e2e.conftest import BotHarness
from tests.e2e.test_platform import challenge_and_accept
from tests.fakediscord.world import walk_components
from tests.ports import free_port
from web import tokens

SECRET = "an e2e secret that is long enough"



def serve_pages(monkeypatch: pytest.MonkeyPatch, harness: BotHarness, *, activity: bool = True) -> int:
    port = free_port()
    monkeypatch.setenv("WEB_PORT", str(port))
    monkeypatch.setenv("WEB_SECRET", SECRET)
    monkeypatch.setenv("PUBLIC_URL", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    if activity:
        monkeypatch.setenv("DISCORD_CLIENT_SECRET", harness.fake.activities.client_secret)
    else:
        monkeypatch.delenv("DISCORD_CLIENT_SECRET", raising=False)
    return port


async def test_open_board_gives_each_user_a_private_signed_link_and_play_launches_the_activity(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = harness.fake
    port = serve_pages(monkeypatch, harness)
    async with harness.running():
        game_id, first = await challenge_and_accept(harness, "zaic")
        thread = fake.thread(f"Zaic #{game_id}")
        assert {f"zb:{game_id}", f"za:{game_id}"} <= set(first.custom_ids())
        seats = {}
        for name in ("alice", "carol"):
            answer = await fake.click(name, first, f"zb:{game_id}")
            assert answer.ephemeral and f"#{game_id}" in answer.content
            links = [c for c in walk_components(answer.original.components) if c.get("style") == 5]
            assert len(links) == 1 and links[0]["url"].startswith(f"http://127.0.0.1:{port}/g/{game_id}?t=")
            token = parse_qs(urlparse(links[0]["url"]).query)["t"][0]
            grant = tokens.verify(SECRET.encode(), token, game_id, time.time())
            assert grant.user == harness.user_id(name)
            async with aiohttp.ClientSession() as http, \
                    http.get(f"http://127.0.0.1:{port}/api/games/{game_id}/view",
                             headers={"Authorization": f"Bearer {token}"}) as response:
                assert response.status == 200
                seats[name] = (await response.json())["seat"]
        assert seats["alice"] is not None and seats["carol"] is None  # a player's view; a spectator's public one

        pressed = await fake.click("alice", first, f"za:{game_id}")
        assert pressed.response_type == 12 and pressed.original is None
        launch = fake.activities.launch_of(pressed)
        assert launch.channel_id == thread.id and launch.users == [harness.user_id("alice")]
        typed = await fake.slash("bob", "zaic play", channel=thread)
        assert typed.response_type == 12 and fake.activities.launch_of(typed) is launch  # joined, not a second one
        assert launch.users == [harness.user_id("alice"), harness.user_id("bob")]

        outside = await fake.slash("bob", "zaic play")
        assert outside.ephemeral and "game's thread" in outside.content
        other = await fake.slash("bob", "ziggurat play", channel=thread)
        assert other.ephemeral and "/zaic play" in other.content

        fake.activities.enabled = False  # the Developer Portal's switch off: Discord refuses, the bot says why
        refused = await fake.slash("alice", "zaic play", channel=thread)
        assert refused.ephemeral and "Developer Portal" in refused.content
        fake.errors.clear()  # the refused callback, provoked on purpose


async def test_without_the_oauth2_secret_play_explains_and_only_open_board_shows(
        harness: BotHarness, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = harness.fake
    serve_pages(monkeypatch, harness, activity=False)
    async with harness.running():
        game_id, first = await challenge_and_accept(harness, "zaic")
        assert f"zb:{game_id}" in first.custom_ids() and f"za:{game_id}" not in first.custom_ids()
        answer = await fake.slash("alice", "zaic play", channel=fake.thread(f"Zaic #{game_id}"))
        assert answer.ephemeral and "Open board" in answer.content and answer.response_type == 4


async def test_without_web_port_no_button_appears_and_play_says_why(harness: BotHarness,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEB_PORT", raising=False)
    fake = harness.fake
    async with harness.running() as bot:
        game_id, first = await challenge_and_accept(harness, "zaic")
        assert bot.host.boards.board_link is None and not bot.host.boards.activity
        assert not any(c.startswith(("zb:", "za:")) for c in first.custom_ids())
        answer = await fake.slash("alice", "zaic play", channel=fake.thread(f"Zaic #{game_id}"))
        assert answer.ephemeral and "not served" in answer.content
        assert not fake.activities.launches
