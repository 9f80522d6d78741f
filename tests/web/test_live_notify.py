"""Pages hear other processes' moves by LISTEN/NOTIFY: two hosts (two pools, two listeners: two bot processes
as the database sees them) over one real PostgreSQL database, each serving its board site, with the sweep
slowed to a minute so only the feed can bring a change within a second."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import asyncpg
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from data.db import Database
from host.app import Host
from tests.web.site import ALICE, BOB, CAROL, NOW, SECRET
from web import tokens
from web.app import WebConfig, create_app

SLOW_SWEEP = 60.0


@dataclass
class Process:
    """One bot process as the database sees it: its own pool, host, listener and board site."""

    db: Database
    host: Host
    client: TestClient
    broken: list[bool]
    """Set ``broken[0]``: this process's next game write fails inside its transaction (rolled back)."""

    async def page(self, game_id: int, user: int) -> ClientWebSocketResponse:
        socket = await self.client.ws_connect(f"/api/games/{game_id}/live",
                                              params={"t": tokens.issue(SECRET, user, game_id, NOW, 600.0)})
        await asyncio.sleep(0.05)  # the server side has joined the page to the game
        return socket


@asynccontextmanager
async def process(url: str) -> AsyncIterator[Process]:
    db = await Database.open(url)
    broken = [False]

    async def fail_when_broken(_tx: Any, _change: Any) -> None:
        if broken[0]:
            raise RuntimeError("this write rolls back")

    host = Host(db, now=lambda: NOW, on_change=[fail_when_broken])
    config = WebConfig(port=0, public_url="http://board.test", secret=SECRET, burst=1000.0, per_second=1000.0)
    client = TestClient(TestServer(create_app(host, config, now=lambda: NOW, sweep=SLOW_SWEEP), host="127.0.0.1"))
    await client.start_server()
    try:
        listener = host.changes.listener
        assert listener is not None  # the site subscribed at start-up: this process listens
        await listener.wait_connected(5.0)
        yield Process(db, host, client, broken)
    finally:
        await client.close()
        await db.close()


async def new_game(host: Host) -> int:
    lobby = await host.lobby.challenge(game="zaic", creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert lobby.started
    return lobby.row.id


async def move(host: Host, game_id: int) -> int:
    """Play the first legal move; returns the game's version after it."""
    row, game = await host.session.engine_copy(game_id)
    seat = min(game.to_move())
    await host.turns.play(game_id, row.user_at(seat), game.legal_moves(seat)[0])
    return (await host.session.row(game_id)).version


async def changed(socket: ClientWebSocketResponse, timeout: float) -> dict[str, Any]:
    message = await asyncio.wait_for(socket.receive(), timeout)
    assert message.type == WSMsgType.TEXT, message
    data: dict[str, Any] = json.loads(message.data)
    assert data["type"] == "changed"
    return data


async def silent(socket: ClientWebSocketResponse, seconds: float) -> bool:
    try:
        await asyncio.wait_for(socket.receive(), seconds)
    except TimeoutError:
        return True
    return False


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_move_through_another_process_reaches_a_page_within_a_second(pg_url: str) -> None:
    async with process(pg_url) as a, process(pg_url) as b:
        game_id = await new_game(b.host)
        pages = [await a.page(game_id, user) for user in (ALICE, BOB, CAROL)]
        for _ in range(3):
            started = time.monotonic()
            version = await move(b.host, game_id)
            for page in pages:
                assert (await changed(page, 1.0))["version"] == version
            assert time.monotonic() - started < 1.0
        assert await silent(pages[0], 0.3)  # each version once: A's own hook and the feed do not both announce
        await move(a.host, game_id)  # A's own move, with the feed live, is announced once too
        await changed(pages[2], 1.0)
        assert await silent(pages[2], 0.3)
        for page in pages:
            await page.close()


async def test_a_rolled_back_write_is_never_announced(pg_url: str) -> None:
    async with process(pg_url) as a, process(pg_url) as b:
        game_id = await new_game(b.host)
        page = await a.page(game_id, CAROL)
        before = (await b.host.session.row(game_id)).version
        b.broken[0] = True
        try:
            await move(b.host, game_id)
        except RuntimeError:
            pass
        else:
            raise AssertionError("the write should have rolled back")
        a.broken[0] = True
        try:
            await move(a.host, game_id)
        except RuntimeError:
            pass
        b.broken[0] = a.broken[0] = False
        assert (await b.host.session.row(game_id)).version == before
        assert await silent(page, 1.0)
        version = await move(b.host, game_id)
        assert version == before + 1 and (await changed(page, 1.0))["version"] == version
        await page.close()


async def test_the_feed_recovers_after_its_connection_is_killed_and_catches_up_on_what_it_missed(
        pg_url: str) -> None:
    async with process(pg_url) as a, process(pg_url) as b:
        game_id = await new_game(b.host)
        page = await a.page(game_id, CAROL)
        listener = a.host.changes.listener
        assert listener is not None
        admin = await asyncpg.connect(pg_url.replace(urlparse(pg_url).path, "/postgres", 1))
        database = urlparse(pg_url).path.lstrip("/")
        try:
            # killed: it connects again at once, and B's next move reaches the page within a second
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", listener.pid)
            await until(lambda: listener.connections == 2 and listener.connected)
            started = time.monotonic()
            version = await move(b.host, game_id)
            assert (await changed(page, 1.0))["version"] == version and time.monotonic() - started < 1.0
            # an outage: no new connection is let in while B moves (its pool keeps its open ones); the
            # notification goes to nobody, and the reconnection's catch-up read brings the move to the page
            await admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS false")
            try:
                assert await admin.fetchval("SELECT pg_terminate_backend($1)", listener.pid)
                await until(lambda: not listener.connected)
                version = await move(b.host, game_id)
                await asyncio.sleep(0.5)
                assert not listener.connected and await silent(page, 0.1)
            finally:
                await admin.execute(f"ALTER DATABASE {database} ALLOW_CONNECTIONS true")
            assert (await changed(page, 6.0))["version"] == version  # the listener's retry waits up to 5 s
            assert listener.connections == 3
        finally:
            await admin.close()
        await page.close()


async def test_on_sqlite_the_feed_is_not_live_and_pages_hear_the_process_in_memory(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "one.sqlite3")
    host = Host(db, now=lambda: NOW)
    config = WebConfig(port=0, public_url="http://board.test", secret=SECRET)
    client = TestClient(TestServer(create_app(host, config, now=lambda: NOW, sweep=SLOW_SWEEP), host="127.0.0.1"))
    await client.start_server()
    try:
        assert host.changes.listener is None and not host.changes.live
        game_id = await new_game(host)
        page = await Process(db, host, client, [False]).page(game_id, CAROL)
        version = await move(host, game_id)
        assert (await changed(page, 1.0))["version"] == version
        await page.close()
    finally:
        await client.close()
        await db.close()
