"""Start-up: configuration, the missing-token exit, endpoint overrides, the cogs that load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import discord
import pytest

import zbot
from data import postgres, preflight
from data.db import Database
from tests.pg import PgServer
from zbot import Config, create_bot

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_token_the_bot_exits_2_and_says_how_to_get_one(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": ""}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "developers/applications" in done.stderr


def test_config_reads_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", " abc ")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "z.sqlite3"))
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:9/api/v10")
    monkeypatch.setenv("DEV_GUILD_ID", "42")
    config = Config.from_env(sync=True)
    assert config.token == "abc" and config.database_path == tmp_path / "z.sqlite3"
    assert config.dev_guild_id == 42 and config.sync and config.gateway_url is None


def test_endpoint_overrides_point_discord_py_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    zbot.point_discord_at("http://127.0.0.1:1234/api/v10/", "ws://127.0.0.1:1234/gateway")
    assert discord.http.Route.BASE == "http://127.0.0.1:1234/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:1234/gateway"


async def test_setup_loads_every_cog_and_the_database(tmp_path: Path) -> None:
    client = create_bot(Config(token="x", database_path=tmp_path / "db" / "z.sqlite3"))
    await client.setup_hook()
    try:
        names = {c.qualified_name for c in client.tree.get_commands()}
        assert "help" in names
        assert (tmp_path / "db" / "z.sqlite3").exists()
    finally:
        await client.close()


def test_database_url_selects_postgresql_and_a_wrong_one_is_refused_without_echoing_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://zgames@db.example/zgames")
    assert Config.from_env().database_url == "postgresql://zgames@db.example/zgames"
    monkeypatch.setenv("DATABASE_URL", "mysql://root:hunter2@db.example/zgames")
    with pytest.raises(ValueError, match="postgresql://") as refused:
        Config.from_env()
    assert "hunter2" not in str(refused.value)
    monkeypatch.delenv("DATABASE_URL")
    assert Config.from_env().database_url is None


async def test_setup_on_postgresql_opens_a_migrated_shared_database(pg_server: PgServer, tmp_path: Path) -> None:
    async with pg_server.fresh_database(migrated=False) as url:
        client = create_bot(Config(token="x", database_path=tmp_path / "unused.sqlite3", database_url=url))
        await client.setup_hook()
        try:
            assert client.db is not None and client.db.dialect == "postgres"
            assert "help" in {c.qualified_name for c in client.tree.get_commands()}
            assert (await client.db.fetchone("SELECT COUNT(*) FROM games"))[0] == 0
            assert not (tmp_path / "unused.sqlite3").exists()
        finally:
            await client.close()


def test_an_unreachable_postgresql_stops_the_bot_in_one_line_before_it_logs_in(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": "fake-token",
           "DATABASE_URL": f"postgresql://zgames:s3cret@/zgames?host={tmp_path}",
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gateway"}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=env, capture_output=True, text=True,
                          timeout=30, cwd=tmp_path)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 3, done.stderr
    assert len(lines) == 1 and "cannot connect to the PostgreSQL database" in lines[0], done.stderr
    assert "s3cret" not in done.stderr and "Traceback" not in done.stderr


async def test_the_postgresql_check_refuses_a_schema_newer_than_this_bot(pg_server: PgServer) -> None:
    async with pg_server.fresh_database() as url:
        await postgres.check(url)  # migrated by this version: fine
        db = await Database.open(url)
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'x.sql', 0)")
        await db.close()
        with pytest.raises(preflight.StartupError, match="newer version"):
            await postgres.check(url)
    async with pg_server.fresh_database(migrated=False) as empty:
        await postgres.check(empty)  # a new, empty database is migrated on start


def test_the_bot_asks_for_no_message_events() -> None:
    """It reads no messages: its own replies and edits must not come back through the gateway to be parsed."""
    chosen = zbot.intents()
    assert not chosen.guild_messages and not chosen.dm_messages and not chosen.message_content
    assert chosen.guilds  # threads and channels still arrive


def test_board_processes_is_read_and_nonsense_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARD_PROCESSES", raising=False)
    assert Config.from_env().board_processes == 2
    monkeypatch.setenv("BOARD_PROCESSES", "0")
    assert Config.from_env().board_processes == 0
    monkeypatch.setenv("BOARD_PROCESSES", "3")
    assert Config.from_env().board_processes == 3
    for nonsense in ("-1", "two", "1.5"):
        monkeypatch.setenv("BOARD_PROCESSES", nonsense)
        with pytest.raises(ValueError, match=f"BOARD_PROCESSES must be a whole number .*not '{nonsense}'"):
            Config.from_env()


@pytest.mark.parametrize("name", ["GUILD_READY_TIMEOUT", "AI_THINK_DELAY", "RATE_BURST", "RATE_PER_SECOND"])
def test_seconds_settings_refuse_what_is_not_a_finite_number(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """"nan" and "inf" parse as floats, but no wait or rate can be them: refused at start, as "ten" is."""
    monkeypatch.setenv(name, "0.5")
    Config.from_env()
    for nonsense in ("nan", "inf", "-inf", "ten", "-1"):
        monkeypatch.setenv(name, nonsense)
        with pytest.raises(ValueError, match=f"{name} must be a number of seconds, not '{nonsense}'"):
            Config.from_env()
