"""The bot loads exactly ``cogs.EXTENSIONS``: every listed extension loads into a real bot, every module of
``cogs/`` with a ``setup`` is listed, and the command tree then holds every slash command the cogs define.

What the tree should hold is read from the cog classes of every module in the package, not from the list,
so a cog dropped from the list (or a new one never added) fails here; the last test drops one and sees it.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from discord import app_commands
from discord.ext import commands

import cogs
import zbot
from zbot import Config, ZBot, create_bot


def extension_modules() -> set[str]:
    """Every module of the cogs package that defines ``setup``: what discord.py can load as an extension."""
    found = set()
    for module in pkgutil.iter_modules(cogs.__path__):
        name = f"cogs.{module.name}"
        if callable(getattr(importlib.import_module(name), "setup", None)):
            found.add(name)
    return found


def cog_classes(modules: Iterable[str]) -> dict[str, type[commands.Cog]]:
    """The cog classes these modules define (not the ones they import), by class name."""
    found: dict[str, type[commands.Cog]] = {}
    for name in modules:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, type) and issubclass(value, commands.Cog) and value.__module__ == name:
                found[value.__name__] = value
    return found


def defined_commands(classes: Iterable[type[commands.Cog]]) -> set[str]:
    """Every slash command and group these cog classes declare, by qualified name (``zrtz move``)."""
    names = set()
    for cls in classes:
        prefix = [cls.__cog_group_name__] if cls.__cog_is_app_commands_group__ else []
        names.update(prefix)
        for command in cls.__cog_app_commands__:
            names.add(" ".join([*prefix, command.qualified_name]))
            if isinstance(command, app_commands.Group):
                names.update(" ".join([*prefix, sub.qualified_name]) for sub in command.walk_commands())
    return names


def tree_commands(client: ZBot) -> set[str]:
    return {command.qualified_name for command in client.tree.walk_commands()}


async def started(tmp_path: Path) -> ZBot:
    """A real bot through ``setup_hook`` (a SQLite file, a backup folder so the backup cog loads too)."""
    client = create_bot(Config(token="x", database_path=tmp_path / "z.sqlite3", backup_dir=tmp_path / "backups"))
    await client.setup_hook()
    return client


def test_every_module_with_a_setup_is_listed_once_and_only_those() -> None:
    assert len(set(cogs.EXTENSIONS)) == len(cogs.EXTENSIONS)
    assert set(cogs.EXTENSIONS) == extension_modules()
    assert not [name for name in cogs.EXTENSIONS if name.split(".")[-1].startswith("_")]


def test_the_check_sees_a_module_left_off_the_list() -> None:
    """Each game has its own module: leaving one off is seen by name."""
    assert extension_modules() - (set(cogs.EXTENSIONS) - {"cogs.zrtz"}) == {"cogs.zrtz"}


async def test_every_listed_extension_loads_and_registers_every_command(tmp_path: Path) -> None:
    expected_cogs = cog_classes(extension_modules())
    client = await started(tmp_path)
    try:
        assert set(client.extensions) == set(cogs.EXTENSIONS)
        assert {type(cog).__name__ for cog in client.cogs.values()} == set(expected_cogs)
        expected = defined_commands(expected_cogs.values())
        assert {"help", "zrtz", "zrtz move", "season", "tournament create", "ladder join"} <= expected
        assert tree_commands(client) == expected
    finally:
        await client.close()


async def test_a_cog_dropped_from_the_list_is_missed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: without the Zodiac cog the tree lacks ``/zodiac`` and its commands."""
    monkeypatch.setattr(zbot, "EXTENSIONS", tuple(name for name in cogs.EXTENSIONS if name != "cogs.zodiac"))
    client = await started(tmp_path)
    try:
        missing = defined_commands(cog_classes(extension_modules()).values()) - tree_commands(client)
        assert "zodiac" in missing and "zodiac new" in missing
        assert all(name.split()[0] == "zodiac" for name in missing)
    finally:
        await client.close()
