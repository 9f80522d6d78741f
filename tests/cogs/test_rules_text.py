"""What ``/<game> rules`` shows: no repository paths, and only the options that ``/<game> new`` offers."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
from discord import AppCommandOptionType

import cogs
import engines
from cogs._game import GameCog, offered_options, rules_embed
from cogs._new import new_command
from host.play import teaching

GENERIC = {"opponent", "opponent2", "opponent3", "open_seats", "rated", "clock", "games", "ai"}
"""Parameters of ``new`` that every game shares; all the others must be options of the engine."""
PATH = re.compile(r"\b(docs|engines|render|host|cogs|tests|data|bench)/\w|\w\.(md|py)\b")


def cog_class(game: str) -> type[GameCog]:
    module = importlib.import_module(f"cogs.{game}")
    return next(c for c in vars(module).values()
                if isinstance(c, type) and issubclass(c, GameCog) and c is not GameCog)


HIDDEN = {"zodiac": {"sides"}}
"""Options the host sets itself and ``new`` must not offer: Zodiac's sides come from the duel or the match."""
TYPES = {bool: AppCommandOptionType.boolean, int: AppCommandOptionType.integer, str: AppCommandOptionType.string}


@pytest.mark.parametrize("game", sorted(engines.GAMES))
def test_new_offers_exactly_the_engines_options_and_the_rules_list_them(game: str) -> None:
    """Names, types, choices and defaults of ``/<game> new`` follow ``options_spec``; so do the seats and /rules."""
    cls = engines.get(game)
    new = cog_class(game).new
    params = {p.name: p for p in new.parameters}
    offered = [o for o in cls.options_spec if o.name not in HIDDEN.get(game, set())]
    assert [name for name in params if name not in GENERIC] == [o.name for o in offered]
    for option in offered:
        param = params[option.name]
        assert param.type == TYPES[type(option.default)], option.name
        assert not param.required and param.default is None, f"{option.name}: empty must mean the engine's default"
        shown = [c.value for c in param.choices]
        assert shown == ([] if isinstance(option.default, bool) else list(option.choices)), option.name
        assert 0 < len(param.description) <= 100
    most = cls.players.stop - 1
    assert [name for name in params if name.startswith("opponent")] == ["opponent", "opponent2", "opponent3"][:most - 1]
    if most > 2:
        assert (params["open_seats"].min_value, params["open_seats"].max_value) == (0, most - 1)
    else:
        assert "open_seats" not in params
    listed = offered_options(cls, new)
    assert listed == offered
    embed = rules_embed(cls, listed, teaching.lesson(game))
    shown_fields = {f.name for f in embed.fields}
    for option in cls.options_spec:
        assert (f"Option {option.name}" in shown_fields) == (option in offered)
    assert embed.image.url == f"attachment://{game}-example.png"
    assert len(embed) <= 6000, "Discord's limit for one embed"


def test_a_new_command_refuses_what_the_engine_does_not_know_or_discord_cannot_show() -> None:
    with pytest.raises(ValueError, match="no option colour to hide"):
        new_command("zaic", hidden={"colour"})
    with pytest.raises(ValueError, match="nothing called colour"):
        new_command("zaic", describe={"colour": "Light or Dark"})
    with pytest.raises(ValueError, match="ziggurat new mode: 149 characters"):
        new_command("ziggurat", describe={"mode": engines.get("ziggurat").options_spec[0].help})


@pytest.mark.parametrize("game", sorted(engines.GAMES))
def test_no_repository_path_in_what_players_read_of_a_game(game: str) -> None:
    assert not PATH.search(engines.get(game).help), engines.get(game).help
    assert not PATH.search(teaching.lesson(game).text)
    for option in engines.get(game).options_spec:
        assert not PATH.search(option.help)


def test_no_repository_path_in_cog_strings() -> None:
    """Every string literal in the cogs (docstrings aside: bare string statements) may reach a player."""
    for path in Path(cogs.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                assert not PATH.search(node.value) or node.value.startswith("cogs."), f"{path.name}: {node.value!r}"
