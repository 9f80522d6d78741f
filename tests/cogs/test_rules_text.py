"""What ``/<game> rules`` shows: no repository paths, and only the options that ``/<game> new`` offers."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import cogs
import engines
from cogs._game import GameCog, offered_options, rules_embed
from host import teaching

GENERIC = {"opponent", "opponent2", "opponent3", "open_seats", "rated", "clock", "games", "ai"}
"""Parameters of ``new`` that every game shares; all the others must be options of the engine."""
PATH = re.compile(r"\b(docs|engines|render|host|cogs|tests|data|bench)/\w|\w\.(md|py)\b")


def cog_class(game: str) -> type[GameCog]:
    module = importlib.import_module(f"cogs.{game}")
    return next(c for c in vars(module).values()
                if isinstance(c, type) and issubclass(c, GameCog) and c is not GameCog)


@pytest.mark.parametrize("game", sorted(engines.GAMES))
def test_rules_list_exactly_the_options_new_offers_with_the_same_choices(game: str) -> None:
    cls = engines.get(game)
    new = cog_class(game).new
    params = {p.name: p for p in new.parameters}
    known = {o.name: o for o in cls.options_spec}
    assert set(params) - GENERIC <= set(known), "new offers something the engine does not know"
    listed = offered_options(cls, new)
    assert [o.name for o in listed] == [o.name for o in cls.options_spec if o.name in params]
    for option in listed:
        choices = [c.value for c in params[option.name].choices]
        if choices:
            assert sorted(choices) == sorted(option.choices), f"{option.name}: new offers {choices}"
    embed = rules_embed(cls, listed, teaching.lesson(game))
    shown = {f.name for f in embed.fields}
    for name in known:
        assert (f"Option {name}" in shown) == (name in params)
    assert embed.image.url == f"attachment://{game}-example.png"
    assert len(embed) <= 6000, "Discord's limit for one embed"


def test_zodiac_rules_do_not_list_sides() -> None:
    cls = engines.get("zodiac")
    assert "sides" in {o.name for o in cls.options_spec}
    assert "sides" not in {o.name for o in offered_options(cls, cog_class("zodiac").new)}


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
