"""A game is registered once (``engines.GAMES``) and every part of the bot must then know it, and no other.

Adding a game means a renderer, a cog with the shared commands, help and rules text, a worked example
and AI settings; this test names whichever is missing, and any cog, renderer or table left behind by a
game that is no longer registered.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from pathlib import Path

import pytest

import cogs
import engines
import render
from ai import evaluate, levels
from cogs._game import GameCog
from host.play import teaching

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted(engines.GAMES)
COMMANDS = {"new", "move", "board", "play", "resign", "draw", "abort", "rules", "hint", "replay", "gif", "export",
            "import", "review"}
"""What ``/<game>`` offers for every game (``new`` from the cog, the rest shared through ``GameCog``)."""
PNG = b"\x89PNG\r\n\x1a\n"


def game_cogs() -> dict[str, type[GameCog]]:
    """Every ``GameCog`` subclass the bot loads (the modules in ``cogs.EXTENSIONS``), by the game it serves."""
    found: dict[str, type[GameCog]] = {}
    for name in cogs.EXTENSIONS:
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, type) and issubclass(value, GameCog) and value is not GameCog:
                assert value.game not in found or found[value.game] is value, f"two cogs for {value.game}"
                found[value.game] = value
    return found


def game_renderers() -> set[str]:
    """Modules of ``render`` with a ``render(observation)`` of their own: a board renderer each."""
    return {m.name for m in pkgutil.iter_modules(render.__path__)
            if hasattr(importlib.import_module(f"render.{m.name}"), "render")}


def test_every_cog_and_renderer_belongs_to_a_registered_game() -> None:
    assert set(game_cogs()) == set(GAMES)
    assert game_renderers() == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_has_a_cog_with_the_shared_commands(game: str) -> None:
    cog = game_cogs()[game]
    assert cog.__cog_group_name__ == game, "the slash group must be named like the game"
    assert COMMANDS <= {c.name for c in cog.__cog_app_commands__}
    assert cog.__module__ == f"cogs.{game}"


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_draws_its_opening_board(game: str) -> None:
    cls = engines.get(game)
    image = render.render(cls.new(cls.players.start).observation(None))
    assert image.startswith(PNG)


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_has_help_rules_and_a_worked_example(game: str) -> None:
    cls = engines.get(game)
    assert cls.name == game and cls.title and cls.help.strip()
    assert (ROOT / "docs" / "rules" / f"{game}.md").is_file(), "rulings on the rule text's gaps go there"
    assert game in teaching.SCRIPTS
    assert teaching.lesson(game).image.startswith(PNG)


@pytest.mark.parametrize("game", GAMES)
def test_a_registered_game_has_ai_settings_for_every_player_count(game: str) -> None:
    cls = engines.get(game)
    assert game in levels.ROLLOUT_DEPTH and game in evaluate.SCORERS
    assert all((game, players) in levels.GAME_SCALE for players in cls.players)


def test_no_table_keeps_a_game_that_is_not_registered() -> None:
    assert set(teaching.SCRIPTS) <= set(GAMES)
    assert set(levels.ROLLOUT_DEPTH) <= set(GAMES) and set(evaluate.SCORERS) <= set(GAMES)
    assert {game for game, _ in levels.GAME_SCALE} <= set(GAMES)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_has_stepped_turns_exactly_when_one_roll_gives_a_seat_several_plies(name: str) -> None:
    """``stepped_turns`` groups a roll and the plies it allows (replays, edited turn messages): a game
    whose random play shows a seat moving twice after one roll must say so, and only such a game."""
    cls = engines.get(name)
    rng = random.Random(7)
    stepped = False
    for _ in range(6):
        game = cls.new(max(cls.players))
        last: tuple[int, bool] | None = None  # the previous mover, and whether a roll came just before it
        while game.outcome() is None and len(game.history) < 400 and not stepped:
            movers = game.to_move()
            if engines.CHANCE in movers:
                texts, weights = zip(*game.chance_outcomes(), strict=True)
                game.play(engines.CHANCE, rng.choices(texts, weights)[0])
                last = None
                continue
            seat = min(movers)
            stepped = last is not None and last[0] == seat and last[1]
            last = (seat, last is None)
            game.play(seat, rng.choice(game.legal_moves(seat)))
    assert cls.stepped_turns == stepped
