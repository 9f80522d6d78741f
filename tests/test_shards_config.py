"""``SHARD_COUNT``/``SHARD_IDS`` and ``ENGINE_CACHE``: parsed at start-up, bad values stop it with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from discord.ext import commands

from host import shards
from host.shards import Shards, shard_of
from zbot import Config, ShardedZBot, ZBot, create_bot

ROOT = Path(__file__).resolve().parents[1]


def test_without_shard_settings_one_process_runs_everything() -> None:
    assert shards.parse("", "") is None


def test_shard_count_alone_runs_every_shard_and_ids_pick_some() -> None:
    assert shards.parse("4", "") == Shards(4, None)
    assert shards.parse(" 2 ", "1") == Shards(2, (1,))
    assert shards.parse("3", "0, 2") == Shards(3, (0, 2))
    assert Shards(3, (0, 2)).describe() == "shard(s) 0, 2 of 3"


@pytest.mark.parametrize(("count", "ids", "said"), [
    ("two", "", "SHARD_COUNT must be a whole number"),
    ("0", "", "SHARD_COUNT must be a whole number"),
    ("-1", "0", "SHARD_COUNT must be a whole number"),
    ("", "0,1", "needs SHARD_COUNT"),
    ("2", "0;1", "separated by commas"),
    ("2", "0,", "separated by commas"),
    ("2", "2", "shard 2 does not exist"),
    ("2", "-1", "shard -1 does not exist"),
    ("2", "1,1", "names shard 1 twice"),
])
def test_bad_shard_settings_say_what_is_wrong(count: str, ids: str, said: str) -> None:
    with pytest.raises(ValueError, match=said):
        shards.parse(count, ids)


def test_guilds_are_routed_as_discord_does() -> None:
    guild = (12345 << 22) | 77
    assert shard_of(guild, 2) == 1 and shard_of(guild, 5) == 0 and shard_of(guild, 1) == 0
    assert shard_of(None, 4) == 0  # DMs


def test_config_reads_shards_and_the_engine_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "x")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "1")
    monkeypatch.setenv("ENGINE_CACHE", "50")
    config = Config.from_env()
    assert config.shards == Shards(2, (1,)) and config.engine_cache == 50
    monkeypatch.setenv("ENGINE_CACHE", "0")
    with pytest.raises(ValueError, match="ENGINE_CACHE must be a whole number of at least 1"):
        Config.from_env()


def test_a_sharded_config_builds_an_auto_sharded_bot_for_its_shards_only(tmp_path: Path) -> None:
    plain = create_bot(Config(token="x", database_path=tmp_path / "z.sqlite3"))
    assert type(plain) is ZBot and not isinstance(plain, commands.AutoShardedBot)
    sharded = create_bot(Config(token="x", database_path=tmp_path / "z.sqlite3", shards=Shards(4, (1, 3))))
    assert isinstance(sharded, ShardedZBot) and isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [1, 3]
    every = create_bot(Config(token="x", database_path=tmp_path / "z.sqlite3", shards=Shards(2)))
    assert every.shard_count == 2 and every.shard_ids is None


@pytest.mark.parametrize(("env", "said"), [
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0,5"}, "SHARD_IDS: shard 5 does not exist"),
    ({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
])
def test_bad_shard_settings_stop_the_bot_with_one_line(tmp_path: Path, env: dict[str, str], said: str) -> None:
    full = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISCORD_TOKEN": "x",
            "DATABASE_PATH": str(tmp_path / "z.sqlite3"), **env}
    done = subprocess.run([sys.executable, str(ROOT / "bot.py")], env=full, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and said in done.stderr
