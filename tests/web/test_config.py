"""``WEB_PORT`` turns the board pages on; without it nothing listens; a missing or short secret refuses."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from data.db import Database
from host.app import Host
from tests.ports import free_port
from web.app import WebConfig, start_from_env


def test_without_web_port_there_is_no_site(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WEB_PORT", raising=False)
    assert WebConfig.from_env() is None


@pytest.mark.parametrize(("port", "secret", "said"), [("8080", "", "WEB_SECRET"), ("8080", "short", "WEB_SECRET"),
                                                     ("http", "a long enough secret here", "port number")])
def test_a_bad_configuration_is_refused_with_the_setting_named(monkeypatch: pytest.MonkeyPatch, port: str,
                                                               secret: str, said: str) -> None:
    monkeypatch.setenv("WEB_PORT", port)
    monkeypatch.setenv("WEB_SECRET", secret)
    with pytest.raises(ValueError, match=said):
        WebConfig.from_env()


async def test_the_site_serves_on_web_port_and_stops(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    port = free_port()
    monkeypatch.setenv("WEB_PORT", str(port))
    monkeypatch.setenv("WEB_SECRET", "a long enough secret here")
    monkeypatch.setenv("PUBLIC_URL", "https://games.example/")
    db = await Database.open(tmp_path / "web.sqlite3")
    try:
        server = await start_from_env(Host(db))
        assert server is not None and server.config.public_url == "https://games.example"
        assert server.config.link(101, 7, 0.0).startswith("https://games.example/g/7?t=")
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/api/games/7/view") as response:
                assert response.status == 401 and "error" in await response.json()
        await server.close()
        with pytest.raises(aiohttp.ClientConnectionError):
            async with aiohttp.ClientSession() as session:
                await session.get(f"http://127.0.0.1:{port}/api/games/7/view")
    finally:
        await db.close()
