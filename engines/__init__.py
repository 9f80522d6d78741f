"""Pure game rules. ``engines.get(name)`` gives a game class; see ``engines.base`` for the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import CHANCE, Game, IllegalMove, Option, Outcome, Pick

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    GAMES[cls.name] = cls
    return cls


def get(name: str) -> type[Game]:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None


def _register_games() -> None:
    from engines.zaic import Zaic
    from engines.zarathustra import Zarathustra
    from engines.ziggurat import Ziggurat
    from engines.zodiac import Zodiac
    from engines.zrtz import Zrtz

    for cls in (Zarathustra, Zaic, Zrtz, Zodiac, Ziggurat):
        register(cls)


def from_dict(data: Mapping[str, Any]) -> Game:
    return get(data["game"]).from_dict(data)


_register_games()

__all__ = ["CHANCE", "GAMES", "Game", "IllegalMove", "Option", "Outcome", "Pick", "from_dict", "get", "register"]
