"""A real board site for the web tests: a SQLite host with the real renderer, a started game, the app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from data.db import Database
from host.app import Host
from web import tokens
from web.app import WebConfig, create_app

ALICE, BOB, CAROL = 101, 202, 303
SECRET = b"a test secret of enough length"
NOW = 1_800_000_000.0


@dataclass
class Site:
    host: Host
    client: TestClient
    config: WebConfig
    game_id: int

    def token(self, user: int, game_id: int | None = None, ttl: float = 600.0) -> str:
        return tokens.issue(SECRET, user, self.game_id if game_id is None else game_id, NOW, ttl)

    def auth(self, user: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user)}"}

    def url(self, user: int) -> str:
        """The page's address for ``user``, relative to the server."""
        return self.config.link(user, self.game_id, NOW).removeprefix(self.config.public_url)


@asynccontextmanager
async def board_site(tmp_path: Path, *, game: str = "zaic", burst: float = 1000.0, per_second: float = 1000.0,
                     sweep: float = 2.0) -> AsyncIterator[Site]:
    """Alice and Bob in a started game of ``game`` over a SQLite file, served on 127.0.0.1."""
    db = await Database.open(tmp_path / "web.sqlite3")
    host = Host(db, now=lambda: NOW)
    lobby = await host.lobby.challenge(game=game, creator=ALICE, opponents=[BOB], guild_id=1, channel_id=2)
    lobby = await host.lobby.accept(lobby.row.id, BOB)
    assert lobby.started
    config = WebConfig(port=0, public_url="http://board.test", secret=SECRET, burst=burst, per_second=per_second)
    app = create_app(host, config, now=lambda: NOW, sweep=sweep)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        yield Site(host, client, config, lobby.row.id)
    finally:
        await client.close()
        await db.close()
