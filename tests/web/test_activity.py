"""The Activity's sign-in against the fake Discord's OAuth2: a code becomes a session token for its user and the
Activity's channel's game (Discord says which channel and who is in it); another client's code, a used code,
a wrong secret, an instance the user is not in, a channel without a game, a forged or expired session token
are refused; a user outside the game gets the public view and cannot move."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from data.db import Database
from host.app import Host
from tests.fakediscord import FakeDiscord
from web import tokens
from web.app import WebConfig, create_app

SECRET = b"a test secret of enough length"
NOW = 1_800_000_000.0
THREAD = 555_000_111


@dataclass
class Signin:
    fake: FakeDiscord
    host: Host
    client: TestClient
    game_id: int

    def user(self, name: str) -> int:
        return int(self.fake.world.user(name).id)

    def code(self, name: str, channel: int = THREAD) -> tuple[str, str]:
        """``name`` joins the Activity running in ``channel`` and gets an authorize code: (code, instance id)."""
        instance = self.fake.activities.instance(channel, self.user(name))
        return self.fake.activities.issue_code(self.user(name)), instance.instance_id

    async def token(self, code: str, instance_id: str) -> tuple[int, Any]:
        response = await self.client.post("/api/activity/token", json={"code": code, "instance_id": instance_id})
        return response.status, await response.json()

    async def view(self, token: str) -> tuple[int, Any]:
        response = await self.client.get(f"/api/games/{self.game_id}/view",
                                         headers={"Authorization": f"Bearer {token}"})
        return response.status, await response.json()


@asynccontextmanager
async def signin_site(tmp_path: Path, *, client_secret: str | None = None) -> AsyncIterator[Signin]:
    """Alice and Bob in a Zaic game whose thread is ``THREAD``; the site signs in through the fake Discord."""
    async with FakeDiscord() as fake:
        db = await Database.open(tmp_path / "activity.sqlite3")
        host = Host(db, now=lambda: NOW)
        alice, bob = (int(fake.world.user(name).id) for name in ("alice", "bob"))
        lobby = await host.lobby.challenge(game="zaic", creator=alice, opponents=[bob], guild_id=1, channel_id=2)
        lobby = await host.lobby.accept(lobby.row.id, bob)
        await host.turns.set_thread(lobby.row.id, THREAD)
        config = WebConfig(port=0, public_url="http://board.test", secret=SECRET, client_id=fake.activities.client_id,
                           client_secret=client_secret or fake.activities.client_secret, discord_api=fake.api_base,
                           bot_token="fake-bot-token")
        client = TestClient(TestServer(create_app(host, config, now=lambda: NOW), host="127.0.0.1"))
        await client.start_server()
        try:
            yield Signin(fake, host, client, lobby.row.id)
        finally:
            await client.close()
            await db.close()
        fake.check()


async def test_a_code_becomes_a_session_for_its_user_on_the_threads_game(tmp_path: Path) -> None:
    async with signin_site(tmp_path) as site:
        config = await (await site.client.get("/api/activity/config")).json()
        assert config["client_id"] == site.fake.activities.client_id
        code, instance = site.code("alice")
        status, answer = await site.token(code, instance)
        assert status == 200 and answer["game_id"] == site.game_id and answer["user"] == str(site.user("alice"))
        assert answer["access_token"] in site.fake.activities.tokens  # for the SDK's authenticate
        grant = tokens.verify(SECRET, answer["token"], site.game_id, NOW)
        assert grant.user == site.user("alice")
        assert grant.expires == NOW + tokens.SESSION_TTL == NOW + answer["expires_in"]
        status, view = await site.view(answer["token"])
        assert status == 200 and view["seat"] is not None
        exchanged = site.fake.activities.exchanges[-1]
        assert exchanged == {"client_id": site.fake.activities.client_id, "grant_type": "authorization_code",
                             "code": code}
        status, again = await site.token(code, instance)  # a code works once
        assert status == 401 and "invalid" in again["error"].lower()


async def test_a_user_outside_the_game_sees_the_public_view_and_cannot_move(tmp_path: Path) -> None:
    async with signin_site(tmp_path) as site:
        status, answer = await site.token(*site.code("carol"))
        assert status == 200
        status, view = await site.view(answer["token"])
        assert status == 200 and view["seat"] is None and view["picks"] == []
        _row, game = await site.host.session.engine_copy(site.game_id)
        move = game.legal_moves(min(game.to_move()))[0]
        response = await site.client.post(f"/api/games/{site.game_id}/move", json={"move": move, "ply": 0},
                                          headers={"Authorization": f"Bearer {answer['token']}"})
        assert response.status == 409 and "error" in await response.json()
        assert len((await site.host.session.engine_copy(site.game_id))[1].history) == 0


async def test_another_clients_code_and_a_wrong_secret_are_refused(tmp_path: Path) -> None:
    async with signin_site(tmp_path) as site:
        _code, instance = site.code("alice")
        other = site.fake.activities.issue_code(site.user("alice"), client_id="123456789012345678")
        status, answer = await site.token(other, instance)
        assert status == 401 and 'Invalid "code"' in answer["error"]
        assert "token" not in answer
    async with signin_site(tmp_path / "b", client_secret="not the application's secret") as site:
        status, answer = await site.token(*site.code("alice"))
        assert status == 401 and "invalid_client" in answer["error"]


async def test_an_instance_the_user_is_not_in_or_without_a_game_and_a_bad_body_are_refused(tmp_path: Path) -> None:
    async with signin_site(tmp_path) as site:
        _code, instance = site.code("alice")
        status, answer = await site.token(site.fake.activities.issue_code(site.user("dave")), instance)
        assert status == 403 and "not in this Activity" in answer["error"]  # dave never joined it
        status, answer = await site.token(site.fake.activities.issue_code(site.user("dave")), "i-unknown")
        assert status == 401 and "Unknown Activity Instance" in answer["error"]
        status, answer = await site.token(*site.code("alice", channel=THREAD + 1))
        assert status == 404 and "game's thread" in answer["error"]
        for body in ({"code": "x"}, {"code": 5, "instance_id": "i-1"}, {"code": "x", "instance_id": "i-1; drop"}, [1]):
            response = await site.client.post("/api/activity/token", json=body)
            assert response.status == 400 and "code" in (await response.json())["error"]


async def test_a_forged_or_expired_session_token_is_refused(tmp_path: Path) -> None:
    async with signin_site(tmp_path) as site:
        _status, answer = await site.token(*site.code("carol"))
        _body, signature = answer["token"].split(".")
        forged = tokens.issue(SECRET, site.user("alice"), site.game_id, NOW).split(".")[0] + "." + signature
        status, refused = await site.view(forged)
        assert status == 401 and "not valid" in refused["error"]
        expired = tokens.issue(SECRET, site.user("alice"), site.game_id, NOW - 2 * tokens.SESSION_TTL,
                               tokens.SESSION_TTL)
        status, refused = await site.view(expired)
        assert status == 401 and "expired" in refused["error"]


async def test_without_the_oauth2_secret_the_activity_is_off(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "off.sqlite3")
    config = WebConfig(port=0, public_url="http://board.test", secret=SECRET)
    client = TestClient(TestServer(create_app(Host(db), config, now=lambda: NOW), host="127.0.0.1"))
    await client.start_server()
    try:
        assert not config.activity_ready
        for response in (await client.get("/api/activity/config"),
                         await client.post("/api/activity/token", json={"code": "x", "instance_id": "i-1"})):
            assert response.status == 404 and "Open board" in (await response.json())["error"]
    finally:
        await client.close()
        await db.close()
